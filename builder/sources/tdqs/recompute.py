"""Checking a stored score against the rubric's own arithmetic.

A capture carries both the dimension scores and the numbers derived from them (TDQS, tier,
smells, the server rollups). The derived numbers are recomputed here with tdqs's functions —
`compute_tdqs`, `compute_tier`, `compute_smells`, `rollup_server_score` — which do the exact
integer arithmetic of the specification. The site publishes the recomputed values; where a
stored value differs, both are shown and the difference is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tdqs import (
    ScoreReport,
    ServerCoherence,
    ServerScore,
    Tier,
    ToolScore,
    compute_smells,
    compute_tdqs,
    compute_tier,
    rollup_server_score,
)

COVERAGE_NUMERATOR, COVERAGE_DENOMINATOR = 4, 5
"""The specification computes a server's description quality only once at least 80% of its tools
are scored; below that a partial set would misrepresent the server."""


@dataclass(frozen=True)
class Disagreement:
    json_path: str
    field: str
    stored: object
    recomputed: object

    @property
    def reason(self) -> str:
        return (
            f"stored {self.field} {_show(self.stored)} disagrees with {_show(self.recomputed)} "
            "recomputed from the dimension scores; the site shows the recomputed value"
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
    tdqs: float
    tier: Tier
    smells: tuple[str, ...]
    disagreements: tuple[Disagreement, ...]


def check_tool(score: ToolScore, index: int) -> CheckedTool:
    tdqs = compute_tdqs(score.scores)
    tier = compute_tier(tdqs)
    smells = tuple(compute_smells(score.scores))
    found: list[Disagreement] = []
    base = f"$.tools[{index}]"
    if abs(score.tdqs - tdqs) > 1e-9:
        found.append(Disagreement(f"{base}.tdqs", "TDQS", score.tdqs, tdqs))
    if score.tier != tier:
        found.append(Disagreement(f"{base}.tier", "tier", score.tier, tier))
    if tuple(score.smells) != smells:
        found.append(Disagreement(f"{base}.smells", "smells", list(score.smells), list(smells)))
    for key, justification in score.justifications.items():
        if justification.score != score.scores[key]:  # type: ignore[literal-required]
            found.append(
                Disagreement(
                    f"{base}.justifications.{key}.score",
                    f"{key} justification score",
                    justification.score,
                    score.scores[key],  # type: ignore[literal-required]
                )
            )
    return CheckedTool(score, tdqs, tier, smells, tuple(found))


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
    if report.server.tool_count != stored.tool_count:
        found.append(
            Disagreement("$.server.toolCount", "toolCount", report.server.tool_count, stored.tool_count)
        )
    coverage_ok = (
        len(tools) * COVERAGE_DENOMINATOR >= stored.tool_count * COVERAGE_NUMERATOR
    )
    return CheckedServer(recomputed, coverage_ok, tuple(found))
