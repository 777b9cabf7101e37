"""Checking a stored score against the rubric's own arithmetic and its deterministic rules.

A capture carries both the dimension scores and the numbers derived from them (TDQS, tier,
smells, the server rollups). Whatever the specification makes deterministic is recomputed here
with tdqs's own code, never re-typed:

- the hard gates and the stage-4 overrides: the stored model answer is replayed through
  `score_tool_definition` (stages 1 to 4) for the definition stored beside the capture, so a
  definition with no (or a whitespace-only) description scores 1 everywhere with the No
  Description flag, and a tautological one has Purpose Clarity capped at 2 with its flag. Without
  a stored definition (or when its inputHash is not the one scored) the stored gate flags are
  taken at their word and replayed the same way;
- the Annotation Contradiction flag is the model's judgement and is kept as stored; its effect
  (Behavioral Transparency scores 1, tdqs's `FLAGS`) is applied to the stored scores;
- `compute_tdqs`, `compute_tier`, `compute_smells`, `rollup_server_score`: the exact integer
  arithmetic of the specification.

The site publishes the recomputed values; where a stored value differs, the page says what the
capture stated and the build report lists it as a warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from pydantic import BaseModel
from tdqs import (
    TOOL_DIMENSIONS,
    Justification,
    ScoreReport,
    ServerCoherence,
    ServerScore,
    Tier,
    ToolDefinition,
    ToolScore,
    compute_smells,
    compute_tdqs,
    compute_tier,
    evaluate_hard_gates,
    rollup_server_score,
    score_tool_definition,
)

_T = TypeVar("_T", bound=BaseModel)

NO_DESCRIPTION = "No Description"
TAUTOLOGICAL = "Tautological Description"
ANNOTATION_CONTRADICTION = "Annotation Contradiction"
_GATE_FLAGS = (NO_DESCRIPTION, TAUTOLOGICAL)
_BY_RULES = "by the specification's hard gates and overrides"

COVERAGE_NUMERATOR, COVERAGE_DENOMINATOR = 4, 5
"""The specification computes a server's description quality only once at least 80% of its tools
are scored; below that a partial set would misrepresent the server."""


@dataclass(frozen=True)
class Disagreement:
    json_path: str
    field: str
    stored: object
    recomputed: object
    how: str = "recomputed from the dimension scores"

    @property
    def reason(self) -> str:
        return (
            f"stored {self.field} {_show(self.stored)} disagrees with {_show(self.recomputed)} "
            f"{self.how}; the site shows the recomputed value"
        )


def _show(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]" if value else "none"
    return str(value)


@dataclass(frozen=True)
class CheckedTool:
    score: ToolScore
    """The score the site publishes: the stored one with the gates, overrides and derived
    numbers recomputed. `stored` is the capture's own, for "stated in the capture"."""
    tdqs: float
    tier: Tier
    smells: tuple[str, ...]
    disagreements: tuple[Disagreement, ...]
    stored: ToolScore | None = None

    @property
    def stated(self) -> ToolScore:
        return self.stored if self.stored is not None else self.score

    @property
    def restated(self) -> bool:
        """The capture's own TDQS or tier is not what the site publishes."""
        return abs(self.stated.tdqs - self.tdqs) > 1e-9 or self.stated.tier != self.tier


def _justifications(score: ToolScore) -> dict[str, Justification]:
    """The score's justifications by dimension key, in the capture's order (tdqs types them as a
    TypedDict, whose items() mypy sees as objects)."""
    return cast(dict[str, Justification], dict(score.justifications))


class _Replay:
    """The stored model answer, handed back to tdqs's own stages 1-4 in place of a model call,
    so the hard gates and the tautology cap are tdqs's code and not a copy of it."""

    model = "replay-of-the-capture"

    def __init__(self, score: ToolScore) -> None:
        self._score = score

    def complete_json(self, *, system: str, user: str, response_type: type[_T]) -> _T:
        stored = self._score
        return response_type.model_validate({
            "annotation_contradiction": ANNOTATION_CONTRADICTION in stored.flags,
            "scores": {
                key: Justification(justification=j.justification, score=stored.scores[key])  # type: ignore[literal-required]
                for key, j in _justifications(stored).items()
            },
            "summary": stored.summary,
        })


def _gated_definition(score: ToolScore, definition: ToolDefinition | None) -> ToolDefinition | None:
    """The definition the gates are evaluated on: the stored one, or, without it, one standing
    for what the stored gate flags say (no description; a description that is the name)."""
    if definition is not None:
        return definition
    if NO_DESCRIPTION in score.flags:
        return ToolDefinition(name=score.name, description=None)
    if TAUTOLOGICAL in score.flags:
        return ToolDefinition(name=score.name, description=score.name)
    return None


def apply_rules(score: ToolScore, definition: ToolDefinition | None) -> ToolScore:
    """The stored score with the specification's deterministic rules applied (see the module)."""
    gated = _gated_definition(score, definition)
    result = score
    if gated is not None and evaluate_hard_gates(gated).flags:
        replayed = score_tool_definition(llm=_Replay(score), sibling_tool_names=(), tool=gated)
        result = replayed.model_copy(update={
            "name": score.name, "context_signals": score.context_signals,
            "server_flags": list(score.server_flags),
        })
    elif gated is not None and any(flag in _GATE_FLAGS for flag in score.flags):
        result = score.model_copy(update={"flags": [f for f in score.flags if f not in _GATE_FLAGS]})
    if ANNOTATION_CONTRADICTION in score.flags and NO_DESCRIPTION not in result.flags:
        flags = list(result.flags)
        if ANNOTATION_CONTRADICTION not in flags:
            flags.append(ANNOTATION_CONTRADICTION)
        justifications = _justifications(result)
        kept = justifications["behavioral_transparency"]
        justifications["behavioral_transparency"] = Justification(justification=kept.justification, score=1)
        result = result.model_copy(update={
            "flags": flags, "justifications": justifications,
            "scores": {**result.scores, "behavioral_transparency": 1},
        })
    tdqs = compute_tdqs(result.scores)
    tier, smells = compute_tier(tdqs), compute_smells(result.scores)
    if result.tdqs == tdqs and result.tier == tier and result.smells == smells:
        return result  # the usual case: nothing to copy, at registry scale a quarter million times
    return result.model_copy(update={"tdqs": tdqs, "tier": tier, "smells": smells})


def check_tool(score: ToolScore, index: int, definition: ToolDefinition | None = None) -> CheckedTool:
    """`definition`: the definition that was scored, when it is stored beside the capture with
    the inputHash the score names."""
    found: list[Disagreement] = []
    base = f"$.tools[{index}]"
    for key, justification in _justifications(score).items():
        if justification.score != score.scores[key]:  # type: ignore[literal-required]
            found.append(
                Disagreement(
                    f"{base}.justifications.{key}.score",
                    f"{key} justification score",
                    justification.score,
                    score.scores[key],  # type: ignore[literal-required]
                )
            )
    effective = apply_rules(score, definition)
    for dimension in TOOL_DIMENSIONS:
        before = score.scores[dimension.key]  # type: ignore[literal-required]
        after = effective.scores[dimension.key]  # type: ignore[literal-required]
        if before != after:
            found.append(Disagreement(f"{base}.scores.{dimension.key}", dimension.name, before, after, _BY_RULES))
    if sorted(score.flags) != sorted(effective.flags):
        found.append(Disagreement(f"{base}.flags", "flags", list(score.flags), list(effective.flags), _BY_RULES))
    tdqs, tier, smells = effective.tdqs, effective.tier, tuple(effective.smells)
    if abs(score.tdqs - tdqs) > 1e-9:
        found.append(Disagreement(f"{base}.tdqs", "TDQS", score.tdqs, tdqs))
    if score.tier != tier:
        found.append(Disagreement(f"{base}.tier", "tier", score.tier, tier))
    if tuple(score.smells) != smells:
        found.append(Disagreement(f"{base}.smells", "smells", list(score.smells), list(smells)))
    return CheckedTool(effective, tdqs, tier, smells, tuple(found), stored=score)


def coherence_of(server_score: ServerScore) -> ServerCoherence:
    """The stored coherence answer, in the shape `rollup_server_score` takes."""
    return ServerCoherence(
        justifications=server_score.coherence_justifications,
        scores={
            "completeness": server_score.completeness,
            "disambiguation": server_score.disambiguation,
            "naming_consistency": server_score.naming_consistency,
            "tool_count_appropriateness": server_score.tool_count_appropriateness,
        },
        shadowing_risks=tuple(server_score.shadowing_risks),
        summary=server_score.coherence_summary,
    )


@dataclass(frozen=True)
class CheckedServer:
    rollup: ServerScore
    """Recomputed by tdqs from the recomputed tool scores and the stored coherence answers."""
    coverage_ok: bool
    disagreements: tuple[Disagreement, ...]


_ROLLUP_FIELDS = (
    ("mean_tdqs", "meanTdqs"),
    ("min_tdqs", "minTdqs"),
    ("description_quality_score", "descriptionQualityScore"),
    ("description_quality_tier", "descriptionQualityTier"),
    ("coherence_score", "coherenceScore"),
    ("coherence_tier", "coherenceTier"),
    ("overall_score", "overallScore"),
    ("overall_tier", "overallTier"),
    ("scored_tool_count", "scoredToolCount"),
)


def _camel(key: str) -> str:
    """`naming_consistency` → `namingConsistency`, as the capture's JSON spells it."""
    first, *rest = key.split("_")
    return first + "".join(part.capitalize() for part in rest)


def coherence_scores(server_score: ServerScore) -> dict[str, int]:
    """The coherence dimension scores the coherence score is computed from (the rollup's fields,
    not the justifications' copies of them, which a capture can contradict)."""
    return cast(dict[str, int], dict(coherence_of(server_score).scores))


def rollup(tools: Sequence[CheckedTool], server_score: ServerScore) -> ServerScore:
    return rollup_server_score(
        coherence=coherence_of(server_score),
        tool_count=server_score.tool_count,
        tool_scores=[
            tool.score.model_copy(update={"tdqs": tool.tdqs, "tier": tool.tier}) for tool in tools
        ],
    )


def check_server(report: ScoreReport, tools: Sequence[CheckedTool]) -> CheckedServer:
    stored = report.server_score
    recomputed = rollup(tools, stored)
    found: list[Disagreement] = []
    for attribute, key in _ROLLUP_FIELDS:
        before, after = getattr(stored, attribute), getattr(recomputed, attribute)
        if before != after and not (isinstance(before, float) and abs(before - after) < 1e-9):
            found.append(Disagreement(f"$.serverScore.{key}", key, before, after))
    scores = coherence_scores(stored)
    for key, justified in cast(dict[str, Justification], dict(stored.coherence_justifications)).items():
        field = scores.get(key, justified.score)
        if justified.score != field:
            camel = _camel(key)
            found.append(Disagreement(
                f"$.serverScore.coherenceJustifications.{camel}.score", f"{key} justification score",
                justified.score, field,
                f"in $.serverScore.{camel}, from which the coherence score above the table is computed",
            ))
    if report.server.tool_count != stored.tool_count:
        found.append(
            Disagreement("$.server.toolCount", "toolCount", report.server.tool_count, stored.tool_count)
        )
    coverage_ok = (
        len(tools) * COVERAGE_DENOMINATOR >= stored.tool_count * COVERAGE_NUMERATOR
    )
    return CheckedServer(recomputed, coverage_ok, tuple(found))
