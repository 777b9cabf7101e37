"""What to do about each coherence dimension below 4, with what raising it would do to the score.

The action is the rubric's own: the anchor the dimension would reach (tdqs's
`COHERENCE_DIMENSIONS`), its guidance, and the site's plain words beside them (`DO`). Naming
Consistency also names the tools whose names break the server's own majority pattern
(`builder.tdqs.name_pattern`); Tool Count Appropriateness says how many tools there are.

The projection raises the one dimension to 4 ("mostly consistent", "minor gaps"): one point on one
of four equally weighted dimensions is a quarter point of coherence and, at 30%, may not move the
rounded overall score. Then it is projected at 5, and the step says so. Below the coverage rule the
overall score is not published, so only coherence (which always is) is projected.
"""

from __future__ import annotations

from dataclasses import dataclass

from tdqs import COHERENCE_DIMENSIONS, ServerScore

from builder.tdqs.name_pattern import NamePattern, name_pattern
from builder.tdqs.reader import Capture
from builder.tdqs.recompute import coherence_scores
from builder.tdqs.tool_reach import project

GOOD = 4
"""Below this a coherence dimension gets an action: 4 is the rubric's first anchor without a defect."""

DO = {
    "disambiguation": "Give each tool a purpose no sibling shares: merge tools that do the same thing, and say in "
                      "each description when to use it instead of the tools it could be confused with",
    "naming_consistency": "Rename the tools to one pattern",
    "tool_count_appropriateness": "Scope the surface: merge or drop tools that overlap, or split the server by "
                                  "domain; a thin one needs the operations its domain is missing",
    "completeness": "Add the operations the domain is missing, so an agent has no dead ends (create, read, update, "
                    "delete, list, and each step of a lifecycle)",
}
"""The site's plain-words advice per coherence dimension; the rubric's anchor is quoted beside it."""


@dataclass(frozen=True)
class CoherenceStep:
    key: str
    name: str
    score: int
    target: int
    """4, or 5 where 4 would not move the overall score."""
    anchor: str
    """The rubric's anchor for the current score."""
    target_anchor: str
    do: str
    guidance: str
    justification: str
    """The grader's reasoning for this server."""
    coherence_before: float
    coherence_after: float
    before: ServerScore | None
    after: ServerScore | None
    """None below the coverage rule."""
    naming: NamePattern | None = None
    tool_count: int | None = None


def coherence_steps(capture: Capture) -> list[CoherenceStep]:
    rolled = capture.server.rollup
    values = [tool.checked.tdqs for tool in capture.current_tools]
    steps: list[CoherenceStep] = []
    for dimension in COHERENCE_DIMENSIONS:
        score = coherence_scores(rolled)[dimension.key]  # what the coherence score is computed from
        if score >= GOOD:
            continue
        target = GOOD
        after = project(capture, values, {dimension.key: target})
        if capture.server.coverage_ok and after.overall_score == rolled.overall_score:
            target = 5
            after = project(capture, values, {dimension.key: target})
        steps.append(CoherenceStep(
            key=dimension.key, name=dimension.name, score=score, target=target,
            anchor=dimension.anchors.get(score, ""), target_anchor=dimension.anchors.get(target, ""),
            do=DO[dimension.key], guidance=dimension.guidance,
            justification=rolled.coherence_justifications[dimension.key].justification,
            coherence_before=rolled.coherence_score, coherence_after=after.coherence_score,
            before=rolled if capture.server.coverage_ok else None,
            after=after if capture.server.coverage_ok else None,
            naming=(name_pattern(sorted({*(tool.name for tool in capture.current_tools), *capture.unscored}))
                    if dimension.key == "naming_consistency" else None),
            tool_count=rolled.tool_count if dimension.key == "tool_count_appropriateness" else None,
        ))
    return steps
