"""Budgets: what a pull request may not do to the published scores (`[budgets]` in scorecards.toml).

Lighthouse CI fails a pull request that goes over a performance budget; these fail one that lowers
scores more than the registry allows. Every budget is off by default, so `scorecards diff` only
reports until an operator turns one on; each budget that fails is one line of the comparison and
`scorecards diff` exits 6 (builder.diff.CODES). The keys are checked as every setting is
(builder.settings): an unknown key or a value of the wrong type is one line naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field

from builder.numbers import exact, shortest

if TYPE_CHECKING:  # the settings import this module: the model (and tdqs) only when budgets are checked
    from builder.diff.model import Diff

Drop = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class Budgets(BaseModel):
    """`[budgets]`: each off (false, or absent) unless set."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    tier_drop: bool = False
    """Fail when a TDQS server's overall tier falls (A → B), or it loses its tier."""
    coverage_below_80: bool = False
    """Fail when a TDQS server's scored tools fall below 80% of its tools (its overall score withheld)."""
    overall_drop: Drop | None = None
    """Fail when a TDQS server's overall score falls by more than this (0: by anything)."""
    tool_drop: Drop | None = None
    """Fail when a tool's TDQS falls by more than this (0: by anything)."""
    server_removed: bool = False
    """Fail when a TDQS server the base has is gone."""


def failures(budgets: Budgets, diff: Diff) -> list[str]:
    """One line per budget a change went over, in the comparison's order."""
    found: list[str] = []
    changes = diff.tdqs
    if changes is None:
        return found
    if budgets.tier_drop:
        for move in changes.tiers:
            if move.steps < 0:
                found.append(f"tier_drop: {move.server.id} falls from {move.before or 'no tier'} "
                             f"to {move.after or 'no tier'}")
    if budgets.coverage_below_80:
        for coverage in changes.coverage:
            if not coverage.after.ok:
                found.append(f"coverage_below_80: {coverage.server.id} has {coverage.after.scored} of "
                             f"{coverage.after.tools} tools scored, under 80%")
    for limit, moves, key in ((budgets.overall_drop, changes.overall, "overall_drop"),
                              (budgets.tool_drop, changes.tools, "tool_drop")):
        if limit is None:
            continue
        for score in moves:
            if score.delta < 0 and -score.delta > exact(limit):
                what = score.server.id if score.tool is None else f"{score.server.id} {score.tool}"
                found.append(f"{key}: {what} falls by {shortest(-score.delta)}, more than {shortest(limit)}")
    if budgets.server_removed:
        found.extend(f"server_removed: {seen.server.id} is removed" for seen in changes.removed)
    return found


