"""TDQS records as DuckDB tables: servers, captures, tools (one row per scored tool per capture).

Scores are stored both as published (one decimal) and in tenths as integers, so aggregates that
must be exact (the server-level mean/min gap) can be computed without float drift.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tdqs import TOOL_DIMENSIONS
from tdqs.round_half_up import round_half_up

from builder.store.tables import encode_rows
from builder.tdqs.reader import Capture, Server

DIMENSION_KEYS = [dimension.key for dimension in TOOL_DIMENSIONS]

SERVER_COLUMNS = {
    "server_id": "VARCHAR", "slug": "VARCHAR", "display_name": "VARCHAR", "description": "VARCHAR",
    "capture_count": "INTEGER", "current_capture": "VARCHAR",
    "repository_url": "VARCHAR", "categories": "VARCHAR[]",
}
CAPTURE_COLUMNS = {
    "server_id": "VARCHAR", "capture_id": "VARCHAR", "seq": "INTEGER", "is_current": "BOOLEAN",
    "generated_at": "VARCHAR", "spec_version": "VARCHAR", "model": "VARCHAR",
    "scoring_system": "VARCHAR", "grading_system": "VARCHAR",
    "tool_count": "INTEGER", "scored_tool_count": "INTEGER", "coverage_ok": "BOOLEAN",
    "mean_tdqs": "DOUBLE", "min_tdqs": "DOUBLE",
    "description_quality_score": "DOUBLE", "description_quality_tier": "VARCHAR",
    "coherence_score": "DOUBLE", "coherence_tier": "VARCHAR",
    "overall_score": "DOUBLE", "overall_tier": "VARCHAR",
    "disambiguation": "INTEGER", "naming_consistency": "INTEGER",
    "tool_count_appropriateness": "INTEGER", "completeness": "INTEGER",
    "shadowing_risks": "INTEGER",
}
TOOL_COLUMNS: dict[str, str] = {
    "server_id": "VARCHAR", "capture_id": "VARCHAR", "is_current": "BOOLEAN", "position": "INTEGER",
    "tool_name": "VARCHAR", "tool_slug": "VARCHAR",
    "tdqs": "DOUBLE", "tdqs_tenths": "INTEGER", "tier": "VARCHAR",
    **{key: "INTEGER" for key in DIMENSION_KEYS},
    "flags": "VARCHAR[]", "server_flags": "VARCHAR[]", "smells": "VARCHAR[]",
    "input_hash": "VARCHAR", "stale": "BOOLEAN", "has_definition": "BOOLEAN",
    "param_count": "INTEGER", "params_with_descriptions": "INTEGER",
    "schema_description_coverage": "INTEGER", "has_annotations": "BOOLEAN",
    "has_output_schema": "BOOLEAN", "invocation_cost": "INTEGER", "definition_bytes": "INTEGER",
}


def _capture_row(server: Server, capture: Capture, seq: int) -> tuple[Any, ...]:
    rollup = capture.server.rollup
    ok = capture.server.coverage_ok
    found = capture.coverage  # the current capture's: its tools counted against the newest tools/list
    tool_count, scored = (found.tool_count, found.scored) if found else (rollup.tool_count, rollup.scored_tool_count)
    return (
        server.server_id, capture.capture_id, seq, capture is server.current, capture.generated_at,
        capture.report.spec_version, capture.report.model, capture.scoring_system, capture.grading_system,
        tool_count, scored, ok, rollup.mean_tdqs, rollup.min_tdqs,
        rollup.description_quality_score if ok else None, rollup.description_quality_tier if ok else None,
        rollup.coherence_score, rollup.coherence_tier,
        rollup.overall_score if ok else None, rollup.overall_tier if ok else None,
        rollup.disambiguation, rollup.naming_consistency, rollup.tool_count_appropriateness,
        rollup.completeness, len(rollup.shadowing_risks),
    )


def _tool_rows(server: Server) -> Iterator[tuple[Any, ...]]:
    for capture in server.captures:
        current = capture is server.current
        for position, tool in enumerate(capture.tools):
            score, signals = tool.checked.score, tool.checked.score.context_signals
            yield (
                server.server_id, capture.capture_id, current, position, tool.name, tool.slug,
                tool.checked.tdqs, round_half_up(tool.checked.tdqs * 10), tool.checked.tier,
                *(score.scores[key] for key in DIMENSION_KEYS),  # type: ignore[literal-required]
                list(score.flags), list(score.server_flags), list(tool.checked.smells),
                tool.input_hash, tool.stale, tool.definition is not None,
                signals.param_count, signals.params_with_descriptions,
                signals.schema_description_coverage, signals.has_annotations,
                signals.has_output_schema, signals.invocation_cost, signals.definition_bytes,
            )


ServerRows = tuple[bytes, bytes, bytes]
"""One server's rows of tdqs_servers, tdqs_captures and tdqs_tools, encoded for loading (the
registry's workers encode them, and a rebuild takes them from its read cache)."""


def server_rows(server: Server) -> ServerRows:
    return (
        encode_rows(SERVER_COLUMNS, [(
            server.server_id, server.slug, server.display_name, server.meta.description, len(server.captures),
            server.current.capture_id, server.meta.repository_url, list(server.meta.categories or ()),
        )]),
        encode_rows(CAPTURE_COLUMNS, (_capture_row(server, capture, seq) for seq, capture in enumerate(server.captures))),
        encode_rows(TOOL_COLUMNS, _tool_rows(server)),
    )
