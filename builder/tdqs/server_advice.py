"""What a server's maintainer can do about its score, each step with what it would do to the score.

- The tier the tools alone can reach, and the fewest worst tools that reach each tier above the
  current one (`builder.tdqs.tool_reach`, exact).
- Shared defects: when many tools lack the same thing (a description, parameter descriptions,
  annotations, an output schema, usage guidance), it is said once, with the count and what fixing
  all of them would do. The projection states its assumption: the dimension the defect costs rises
  to the rubric's minimum viable score (`checklist.VIABLE`) on those tools, and no further.
- Each coherence dimension below 4 (`builder.tdqs.coherence_advice`).
- Below the 80% coverage rule nothing that is not published is projected: the unscored tools are
  named instead, with how many more need a score before anything is published.

A step is listed only when it raises the published overall score (below the coverage rule: the
published coherence), biggest gain first, compared on the exact rounded values tdqs publishes, never
on printed strings. What would leave the score where it is goes apart, said to have no effect.
Every projected server score is tdqs's `rollup_server_score`, so its rounding is the specification's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tdqs import TOOL_DIMENSIONS, ServerScore, compute_tdqs
from tdqs.round_half_up import round_half_up

from builder.tdqs.checklist import (
    VIABLE,
    dimension_scores,
    has_no_description,
    lacks_annotations,
    raised,
    under_documented_parameters,
)
from builder.tdqs.coherence_advice import CoherenceStep, coherence_steps
from builder.tdqs.reader import Capture, ToolRecord
from builder.tdqs.recompute import COVERAGE_DENOMINATOR, COVERAGE_NUMERATOR
from builder.tdqs.tool_reach import Milestone, ToolReach, project, tool_reach

_NAMES: dict[str, str] = {d.key: d.name for d in TOOL_DIMENSIONS}
_ALL = tuple(d.key for d in TOOL_DIMENSIONS)


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
    tools = capture.current_tools
    found: list[Pattern] = []
    for defect in DEFECTS:
        hit = [tool for tool in tools if defect.applies(tool)]
        if len(hit) < 2 or len(hit) * MANY_SHARE < len(tools):
            continue
        movable = {tool.name for tool in hit if defect.key == "no-description" or not has_no_description(tool)}
        before = after = None
        if capture.server.coverage_ok:
            values = [
                compute_tdqs(raised(dimension_scores(t.checked.score.scores), defect.costs, VIABLE))  # type: ignore[arg-type]
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
    return found


def tenths(value: float) -> int:
    """A published score (a multiple of 0.1) as an exact integer number of tenths."""
    return round_half_up(value * 10)


Step = Milestone | Pattern | CoherenceStep


def gains(step: Step, rolled: ServerScore) -> tuple[int, int, int]:
    """What a step adds, in tenths: (overall, description quality, coherence); the first two are 0
    where nothing is projected (below the coverage rule)."""
    after = step.after
    if after is None:
        overall = quality = 0
    else:
        overall = tenths(after.overall_score) - tenths(rolled.overall_score)
        quality = tenths(after.description_quality_score) - tenths(rolled.description_quality_score)
    coherence = (tenths(step.coherence_after) - tenths(step.coherence_before)) if isinstance(step, CoherenceStep) else 0
    return overall, quality, coherence


@dataclass(frozen=True)
class ServerAdvice:
    steps: tuple[Step, ...]
    """What raises the published score, biggest gain first (ties: description quality, then coherence)."""
    no_effect: tuple[Step, ...]
    """What would leave the published score where it is."""
    unprojected: tuple[Pattern, ...]
    """Shared defects below the coverage rule: said, not projected."""
    reach: ToolReach | None
    pulling_down: tuple[ToolRecord, ...]
    """Tools a full point or more below the server's mean, and the minimum itself: the min term
    carries 40% of description quality, so these cost the server the most."""
    unscored: tuple[str, ...]
    """Tools in the scored capture's tools/list without a score, by name."""
    unscored_count: int
    """Tools the server reported that have no score (named or not)."""
    to_publish: int
    """How many more tools need a score before description quality is published; 0 once it is."""


_KIND_ORDER = {Milestone: 0, Pattern: 1, CoherenceStep: 2}


def server_advice(capture: Capture) -> ServerAdvice:
    tools = capture.current_tools
    rolled = capture.server.rollup
    mean, low = rolled.mean_tdqs, rolled.min_tdqs
    pulling = sorted(
        (t for t in tools if t.checked.tdqs == low or mean - t.checked.tdqs >= 1.0 - 1e-9),
        key=lambda t: (t.checked.tdqs, t.name),
    )
    total, scored = rolled.tool_count, len(tools)
    short = COVERAGE_NUMERATOR * total - COVERAGE_DENOMINATOR * scored
    reach = tool_reach(capture)
    found = patterns(capture)
    candidates: list[Step] = [
        *(reach.milestones if reach else ()), *(p for p in found if p.after is not None), *coherence_steps(capture),
    ]
    added = [gains(step, rolled) for step in candidates]
    ranked = sorted(
        range(len(candidates)),
        key=lambda i: (tuple(-gain for gain in added[i]), _KIND_ORDER[type(candidates[i])], i),
    )
    # The published number a step must raise: the overall score, or, below the coverage rule, coherence.
    counted = 0 if capture.server.coverage_ok else 2
    return ServerAdvice(
        steps=tuple(candidates[i] for i in ranked if added[i][counted] > 0),
        no_effect=tuple(candidates[i] for i in ranked if added[i][counted] <= 0),
        unprojected=tuple(p for p in found if p.after is None),
        reach=reach,
        pulling_down=tuple(pulling),
        unscored=capture.unscored,
        unscored_count=max(total - scored, len(capture.unscored)),
        to_publish=max(0, -(-short // COVERAGE_DENOMINATOR)),
    )
