"""The tier a server can reach by fixing its tools alone, and the fewest tools that reach each tier.

Coherence stays as graded. Description quality is `round1(0.6 × mean + 0.4 × min)` of the tools'
TDQS and the overall score `round1(0.7 × description quality + 0.3 × coherence)`: neither falls when
a tool's TDQS rises. So the best case is every tool at 5.0, and a tier that case does not reach is
out of reach of any fix to the tools; one it does reach is reachable.

The fewest tools: raising a set S of the tools below a level L to L changes the sum of the TDQS
values by Σ_S (L − t) and leaves the minimum at min(L, the lowest value outside S). Among all sets
of k tools both are largest when S is the k lowest tools: its gaps L − t are the k largest, and the
lowest value it leaves is the (k+1)-th lowest, the highest any k tools can leave. So for every k
the k worst tools are a best choice of k, the overall score along the worst-first order never
falls, and the fewest tools that reach a tier are the first k along that order that do: bisection
finds k exactly.

The level is tier A's lower bound (3.5, "genuinely helpful definition") where raising tools to it
can reach the tier; otherwise 5.0, the only level that can. Where 5.0 needs fewer tools than 3.5,
that count is given too. Every projected score is tdqs's `rollup_server_score`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

from tdqs import TIERS, ServerScore, ToolScore, rollup_server_score

from builder.tdqs.reader import Capture, ToolRecord
from builder.tdqs.recompute import coherence_of

TIER_A: float = next(t.minimum for t in TIERS if t.tier == "A" and t.minimum is not None)
"""The level a fixed tool is imagined at first: tier A's lower bound, a "genuinely helpful definition"."""
BEST = 5.0
"""The rubric's top score: a tool cannot be raised further."""


@dataclass(frozen=True)
class _Projected:
    """The one field `rollup_server_score` reads of a tool score."""

    tdqs: float


def project(capture: Capture, tdqs: Sequence[float], coherence: dict[str, int] | None = None) -> ServerScore:
    """The server's rollup had its tools these TDQS values (and, when given, these coherence
    scores), by tdqs's own arithmetic."""
    stored = capture.report.server_score
    graded = coherence_of(stored)
    if coherence is not None:
        graded = replace(graded, scores={**graded.scores, **coherence})  # type: ignore[typeddict-item]
    tools = cast("list[ToolScore]", [_Projected(value) for value in tdqs])
    return rollup_server_score(coherence=graded, tool_count=stored.tool_count, tool_scores=tools)


def rank(tier: str) -> int:
    """0 for tier A, 1 for B, …: lower is better."""
    return next(index for index, t in enumerate(TIERS) if t.tier == tier)


@dataclass(frozen=True)
class Milestone:
    tier: str
    level: float
    tools: tuple[ToolRecord, ...]
    """The fewest worst tools (worst first) whose raising to `level` reaches `tier`."""
    after: ServerScore
    fewer_at_best: int | None
    """How many of the worst tools raised to 5.0 would reach `tier`, when that is fewer."""


@dataclass(frozen=True)
class ToolReach:
    before: ServerScore
    best: ServerScore
    """Every tool at 5.0, coherence as graded."""
    milestones: tuple[Milestone, ...]
    """One per tier above the current one that `best` reaches, the lowest tier first."""


class _Ladder:
    """The worst tools below `level`, raised to it a prefix at a time; each projection made once,
    as every tier's search walks the same ladder."""

    def __init__(self, capture: Capture, order: Sequence[ToolRecord], level: float) -> None:
        self.capture, self.level = capture, level
        self.below = [tool for tool in order if tool.checked.tdqs < level]
        self._after: dict[int, ServerScore] = {}

    def after(self, n: int) -> ServerScore:
        if n not in self._after:
            fixed = {tool.name for tool in self.below[:n]}
            self._after[n] = project(self.capture, [
                self.level if tool.name in fixed else tool.checked.tdqs for tool in self.capture.current_tools
            ])
        return self._after[n]

    def fewest(self, tier: str) -> tuple[int, ServerScore] | None:
        """The fewest of the worst tools that reach `tier`, and the result; None if all cannot."""

        def reaches(n: int) -> bool:
            return rank(self.after(n).overall_tier) <= rank(tier)

        if not self.below or not reaches(len(self.below)):
            return None
        low, high = 1, len(self.below)
        while low < high:
            middle = (low + high) // 2
            if reaches(middle):
                high = middle
            else:
                low = middle + 1
        return low, self.after(low)


def tool_reach(capture: Capture) -> ToolReach | None:
    """None below the coverage rule: what is not published is not projected."""
    if not capture.server.coverage_ok:
        return None
    before = capture.server.rollup
    best = project(capture, [BEST] * len(capture.current_tools))
    order = sorted(capture.current_tools, key=lambda t: (t.checked.tdqs, t.name))
    at_tier_a, at_top = _Ladder(capture, order, TIER_A), _Ladder(capture, order, BEST)
    milestones: list[Milestone] = []
    for index in range(rank(best.overall_tier), rank(before.overall_tier)):
        tier = TIERS[index].tier
        at_best = at_top.fewest(tier)
        assert at_best is not None  # the best case reaches every tier from its own down
        found = at_tier_a.fewest(tier)
        level, (count, after) = (TIER_A, found) if found is not None else (BEST, at_best)
        if milestones and milestones[-1].after.overall_tier == after.overall_tier and len(milestones[-1].tools) == count:
            continue  # the same tools lift the server into the better tier already listed
        milestones.append(Milestone(
            tier=tier, level=level, tools=tuple(order[:count]), after=after,
            fewer_at_best=at_best[0] if at_best[0] < count else None,
        ))
    return ToolReach(before=before, best=best, milestones=tuple(reversed(milestones)))
