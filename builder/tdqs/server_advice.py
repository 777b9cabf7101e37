"""What a server's maintainer can do about its score, projected with tdqs's own rollup.

- Shared defects: when many tools lack the same thing (a description, parameter descriptions,
  annotations, an output schema, usage guidance), it is said once, with the count and what fixing
  all of them would do to description quality. The projection states its assumption: the
  dimension the defect costs rises to the rubric's minimum viable score (`checklist.VIABLE`) on
  those tools, and no further.
- The fewest worst tools to fix: the smallest N such that raising the N worst tools to tier A's
  lower bound moves the overall score into the next tier. Overall scores only grow with N, so N is
  found by bisection.
- Below the 80% coverage rule nothing that is not published is projected: the unscored tools are
  named instead, with how many more need a score before anything is published.

Every projected server score is tdqs's `rollup_server_score` over the projected tool TDQS values
and the server's stored coherence answers, so its rounding is the specification's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from tdqs import TIERS, TOOL_DIMENSIONS, ServerScore, ToolScore, compute_tdqs, rollup_server_score

from builder.tdqs.checklist import (
    VIABLE,
    has_no_description,
    lacks_annotations,
    raised,
    under_documented_parameters,
)
from builder.tdqs.reader import Capture, ToolRecord
from builder.tdqs.recompute import COVERAGE_DENOMINATOR, COVERAGE_NUMERATOR, coherence_of

TARGET_TDQS = next(t.minimum for t in TIERS if t.tier == "A")
"""A worst tool is imagined fixed at tier A's lower bound ("genuinely helpful definition")."""
_NAMES = {d.key: d.name for d in TOOL_DIMENSIONS}
_ALL = tuple(d.key for d in TOOL_DIMENSIONS)


@dataclass(frozen=True)
class _Projected:
    """The one field `rollup_server_score` reads of a tool score."""

    tdqs: float


def project(capture: Capture, tdqs: Sequence[float]) -> ServerScore:
    """The server's rollup had its tools these TDQS values, by tdqs's own arithmetic."""
    stored = capture.report.server_score
    tools = cast("list[ToolScore]", [_Projected(value) for value in tdqs])
    return rollup_server_score(coherence=coherence_of(stored), tool_count=stored.tool_count, tool_scores=tools)


@dataclass(frozen=True)
class Defect:
    key: str
    says: str
    """What the tools have in common, after "N of M tools"."""
    fix: str
    costs: tuple[str, ...]
    """The dimensions the defect holds down, which the projection raises."""
    applies: Callable[[ToolRecord], bool]


def _no_output_schema(tool: ToolRecord) -> bool:
    return not tool.checked.score.context_signals.has_output_schema


def _no_usage_guidance(tool: ToolRecord) -> bool:
    return not has_no_description(tool) and tool.checked.score.scores["usage_guidelines"] < VIABLE


DEFECTS: tuple[Defect, ...] = (
    Defect("no-description", "have no description", "writing one", _ALL, has_no_description),
    Defect("undocumented-parameters", "describe under 80% of their parameters in the input schema",
           "describing the parameters", ("parameter_semantics",), under_documented_parameters),
    Defect("missing-annotations", "declare no MCP annotations", "declaring readOnlyHint, destructiveHint, "
           "idempotentHint and openWorldHint", ("behavioral_transparency",), lacks_annotations),
    Defect("no-output-schema", "have no output schema", "adding one", ("contextual_completeness",), _no_output_schema),
    Defect("no-usage-guidance", "give no usage guidance (Usage Guidelines below 3)",
           "saying when to use each and which sibling to use instead", ("usage_guidelines",), _no_usage_guidance),
)
MANY_SHARE = 10
"""A defect is a server-wide pattern when at least two tools and at least 1 in MANY_SHARE share it."""


@dataclass(frozen=True)
class Pattern:
    key: str
    says: str
    fix: str
    dimensions: tuple[str, ...]
    """Names of the dimensions the projection raises."""
    level: int
    tools: tuple[str, ...]
    total: int
    held: int
    """Tools among them with no description: the hard gate keeps them at 1 whatever else is fixed."""
    before: ServerScore | None
    after: ServerScore | None
    """None below the coverage rule: what is not published is not projected."""


def patterns(capture: Capture) -> list[Pattern]:
    tools = capture.tools
    found: list[Pattern] = []
    for defect in DEFECTS:
        hit = [tool for tool in tools if defect.applies(tool)]
        if len(hit) < 2 or len(hit) * MANY_SHARE < len(tools):
            continue
        movable = {tool.name for tool in hit if defect.key == "no-description" or not has_no_description(tool)}
        before = after = None
        if capture.server.coverage_ok:
            values = [
                compute_tdqs(raised(dict(t.checked.score.scores), defect.costs, VIABLE))  # type: ignore[arg-type]
                if t.name in movable else t.checked.tdqs
                for t in tools
            ]
            before, after = capture.server.rollup, project(capture, values)
        found.append(Pattern(
            key=defect.key, says=defect.says, fix=defect.fix,
            dimensions=() if defect.costs == _ALL else tuple(_NAMES[k] for k in defect.costs), level=VIABLE,
            tools=tuple(sorted(t.name for t in hit)), total=len(tools), held=len(hit) - len(movable),
            before=before, after=after,
        ))
    return sorted(found, key=lambda p: (
        -(p.after.description_quality_score if p.after else 0), -(p.after.overall_score if p.after else 0),
        -len(p.tools), p.key,
    ))


@dataclass(frozen=True)
class FixWorst:
    tools: tuple[ToolRecord, ...]
    """The N worst tools, worst first."""
    target: float
    before: ServerScore
    after: ServerScore
    next_tier: str
    reaches: bool
    """False when even every tool below the target, raised to it, leaves the overall tier where it is:
    then `tools` are all of them."""


def _rank(tier: str) -> int:
    return next(index for index, t in enumerate(TIERS) if t.tier == tier)


def fix_worst(capture: Capture) -> FixWorst | None:
    """The smallest N whose worst tools, raised to the target, lift the overall tier one step."""
    if not capture.server.coverage_ok:
        return None
    before = capture.server.rollup
    rank = _rank(before.overall_tier)
    if rank == 0:
        return None
    next_tier = TIERS[rank - 1].tier
    order = sorted(capture.tools, key=lambda t: (t.checked.tdqs, t.name))
    below = [t for t in order if t.checked.tdqs < TARGET_TDQS]
    if not below:
        return None

    def after(n: int) -> ServerScore:
        fixed = {t.name for t in below[:n]}
        return project(capture, [TARGET_TDQS if t.name in fixed else t.checked.tdqs for t in capture.tools])

    def reaches(n: int) -> bool:
        return _rank(after(n).overall_tier) < rank

    if not reaches(len(below)):
        return FixWorst(tuple(below), TARGET_TDQS, before, after(len(below)), next_tier, False)
    low, high = 1, len(below)
    while low < high:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return FixWorst(tuple(below[:low]), TARGET_TDQS, before, after(low), next_tier, True)


@dataclass(frozen=True)
class ServerAdvice:
    pulling_down: tuple[ToolRecord, ...]
    """Tools a full point or more below the server's mean, and the minimum itself: the min term
    carries 40% of description quality, so these cost the server the most."""
    patterns: tuple[Pattern, ...]
    fix_worst: FixWorst | None
    unscored: tuple[str, ...]
    """Tools in the scored capture's tools/list without a score, by name."""
    unscored_count: int
    """Tools the server reported that have no score (named or not)."""
    to_publish: int
    """How many more tools need a score before description quality is published; 0 once it is."""


def server_advice(capture: Capture) -> ServerAdvice:
    tools = capture.tools
    rolled = capture.server.rollup
    mean, low = rolled.mean_tdqs, rolled.min_tdqs
    pulling = sorted(
        (t for t in tools if t.checked.tdqs == low or mean - t.checked.tdqs >= 1.0 - 1e-9),
        key=lambda t: (t.checked.tdqs, t.name),
    )
    total, scored = rolled.tool_count, len(tools)
    short = COVERAGE_NUMERATOR * total - COVERAGE_DENOMINATOR * scored
    return ServerAdvice(
        pulling_down=tuple(pulling),
        patterns=tuple(patterns(capture)),
        fix_worst=fix_worst(capture),
        unscored=capture.unscored,
        unscored_count=max(total - scored, len(capture.unscored)),
        to_publish=max(0, -(-short // COVERAGE_DENOMINATOR)),
    )
