"""The comparison for tools: one JSON document, keys sorted, the same bytes for the same two builds.

Scores and deltas are JSON numbers (a delta the exact decimal difference, `-0.3`), with the delta
also as text (`"-0.3"`) for a reader whose JSON numbers are binary floats. Every list is in the
comparison's order (builder.diff.model): largest move first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from builder.diff.model import Coverage, Diff, Finding, GradeMove, ScoreMove, Server, TdqsDiff, delta_text

FORMAT = 1
"""The version of this document's shape."""


def _delta(value: Fraction | None) -> dict[str, Any]:
    if value is None:
        return {"delta": None, "deltaText": None}
    return {"delta": float(value), "deltaText": delta_text(value)}


def _server(server: Server) -> dict[str, Any]:
    return {"server": server.id, "name": server.name, "file": server.file}


def _score(move: ScoreMove) -> dict[str, Any]:
    tool = {} if move.tool is None else {"tool": move.tool}
    return {**_server(move.server), **tool, "before": move.before, "after": move.after,
            "tierBefore": move.tier_before, "tierAfter": move.tier_after, **_delta(move.delta)}


def _coverage(coverage: Coverage) -> dict[str, Any]:
    return {"scored": coverage.scored, "tools": coverage.tools, "ok": coverage.ok}


def _findings(findings: Sequence[Finding], key: str) -> list[dict[str, Any]]:
    return [{**_server(found.server), "tool": found.tool or None, key: found.name} for found in findings]


def _tdqs(changes: TdqsDiff) -> dict[str, Any]:
    return {
        "tierMoves": [{**_server(move.server), "before": move.before, "after": move.after, "steps": move.steps,
                       "scoreBefore": move.score_before, "scoreAfter": move.score_after} for move in changes.tiers],
        "overallScores": [_score(move) for move in changes.overall],
        "toolScores": [_score(move) for move in changes.tools],
        "toolsScored": [{**_server(tool.server), "tool": tool.tool, "tdqs": tool.tdqs, "tier": tool.tier}
                        for tool in changes.tools_added],
        "toolsNoLongerScored": [{**_server(tool.server), "tool": tool.tool, "tdqs": tool.tdqs, "tier": tool.tier}
                                for tool in changes.tools_removed],
        "coverage": [{**_server(move.server), "before": _coverage(move.before), "after": _coverage(move.after)}
                     for move in changes.coverage],
        "smells": {"new": _findings(changes.new_smells, "smell"), "cleared": _findings(changes.cleared_smells, "smell")},
        "flags": {"new": _findings(changes.new_flags, "flag"), "cleared": _findings(changes.cleared_flags, "flag")},
        "serversAdded": [{**_server(seen.server), "tier": seen.tier, "overallScore": seen.score, "tools": seen.tools}
                         for seen in changes.added],
        "serversRemoved": [{**_server(seen.server), "tier": seen.tier, "overallScore": seen.score,
                            "tools": seen.tools} for seen in changes.removed],
    }


def _grade(move: GradeMove) -> dict[str, Any]:
    return {"kind": move.kind, "name": move.name, "before": move.before, "after": move.after,
            "presentBefore": move.present_before, "presentAfter": move.present_after,
            "scoreBefore": move.score_before, "scoreAfter": move.score_after, **_delta(move.delta)}


def render(diff: Diff, failed: Sequence[str]) -> str:
    """The comparison as JSON text, ending in a newline; `failed`: the budgets that failed."""
    systems: dict[str, Any] = {}
    if diff.tdqs is not None:
        systems["tdqs"] = _tdqs(diff.tdqs)
    for system in ("flowmcp", "cleo"):
        if system in diff.systems:
            systems[system] = {"grades": [_grade(move) for move in diff.grades if move.system == system]}
    document = {
        "diff": FORMAT,
        "base": {"build": diff.base, "systems": list(diff.base_systems), "dataAsOf": diff.base_as_of},
        "head": {"build": diff.head, "systems": list(diff.head_systems), "dataAsOf": diff.head_as_of},
        "changed": bool(diff),
        "systems": systems,
        "notCompared": diff.notes,
        "budgetsFailed": list(failed),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
