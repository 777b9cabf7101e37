"""Helpers that write small TDQS data folders for tests, with scores made by tdqs's own functions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tdqs import (
    SPEC_VERSION,
    ScoreReport,
    ServerCoherence,
    ServerSummary,
    ToolDefinition,
    ToolScore,
    compute_context_signals,
    compute_smells,
    compute_tdqs,
    compute_tier,
    rollup_server_score,
    stringify_json,
)

KEYS = (
    "purpose_clarity", "usage_guidelines", "behavioral_transparency",
    "parameter_semantics", "conciseness_structure", "contextual_completeness",
)


def scores(*values: int) -> dict[str, int]:
    """Dimension scores in the spec's order: purpose, guidelines, transparency, params, conciseness, completeness."""
    return dict(zip(KEYS, values, strict=True))


def definition(name: str, description: str | None = "Does a thing.", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": {}}, **extra}


def tool_score(defn: dict[str, Any], dims: dict[str, int], *, flags: Sequence[str] = ()) -> ToolScore:
    tool = ToolDefinition.model_validate(defn)
    tdqs = compute_tdqs(dims)  # type: ignore[arg-type]
    return ToolScore(
        context_signals=compute_context_signals(tool),
        flags=list(flags),  # type: ignore[arg-type]
        justifications={k: {"score": v, "justification": f"{k} is {v}"} for k, v in dims.items()},  # type: ignore[misc]
        name=tool.name,
        scores=dims,  # type: ignore[arg-type]
        server_flags=[],
        smells=compute_smells(dims),  # type: ignore[arg-type]
        summary=f"summary of {tool.name}",
        tdqs=tdqs,
        tier=compute_tier(tdqs),
    )


def report(
    server: str, tools: Sequence[ToolScore], *, coherence: Sequence[int] = (4, 5, 5, 4),
    generated_at: str = "2026-06-01T00:00:00.000Z", model: str | None = "stand-in/test",
    tool_count: int | None = None,
) -> ScoreReport:
    """coherence is (disambiguation, naming_consistency, tool_count_appropriateness, completeness)."""
    names = ("disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness")
    values = dict(zip(names, coherence, strict=True))
    count = tool_count or len(tools)
    return ScoreReport(
        generated_at=generated_at,
        model=model,
        server=ServerSummary(name=server, tool_count=count),
        server_score=rollup_server_score(
            coherence=ServerCoherence(
                justifications={k: {"score": v, "justification": f"{k} is {v}"} for k, v in values.items()},  # type: ignore[misc]
                scores=values,  # type: ignore[arg-type]
                shadowing_risks=(),
                summary=f"coherence of {server}",
            ),
            tool_count=count,
            tool_scores=list(tools),
        ),
        spec_version=SPEC_VERSION,
        tools=list(tools),
    )


def capture_id(generated_at: str) -> str:
    return generated_at.split(".")[0].replace(":", "-") + "Z"


def write_capture(
    data: Path, server_id: str, rep: ScoreReport | dict[str, Any], definitions: Sequence[dict[str, Any]] | None = None,
    *, name: str | None = None,
) -> Path:
    folder = data / "servers" / server_id
    folder.mkdir(parents=True, exist_ok=True)
    document = rep.model_dump(mode="json") if isinstance(rep, ScoreReport) else rep
    stem = name or capture_id(document["generatedAt"])
    path = folder / f"{stem}.score.json"
    path.write_text(stringify_json(document, indent=2) + "\n", encoding="utf-8")
    if definitions is not None:
        (folder / f"{stem}.tools.json").write_text(json.dumps({"tools": list(definitions)}, indent=2), encoding="utf-8")
    return path
