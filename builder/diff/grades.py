"""What changed for FlowMCP and CLEO between two builds: their grades, from each system's one API file.

FlowMCP (`api/flowmcp/index.json`): each provider's and selection's grade, and each Scoring
Protocol report's grade and score. CLEO (`api/sessions.json`): each session's current run, its
grade and total score. Their entries, rubric answers and run dimensions are not compared: the
comparison says so (`NOTES`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from builder.diff.model import GradeMove

NOTES = {
    "flowmcp": "FlowMCP: the grade of each provider and selection, and the grade and score of each scoring report; "
               "not each grading entry's answers",
    "cleo": "CLEO: the grade and total score of each session's current run; not each run's dimensions",
}

Graded = tuple[str | None, float | None]
"""A grade and, where there is one, its score."""


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _rows(doc: Any, key: str) -> Iterator[Mapping[str, Any]]:
    rows = doc.get(key) if isinstance(doc, dict) else None
    yield from (row for row in rows if isinstance(row, dict)) if isinstance(rows, list) else ()


def flowmcp_grades(doc: Any) -> dict[tuple[str, str], Graded]:
    graded: dict[tuple[str, str], Graded] = {}
    for key, kind in (("providers", "provider"), ("selections", "selection")):
        for row in _rows(doc, key):
            graded[(kind, str(row.get("name")))] = (_text(row.get("grade")), None)
    for row in _rows(doc, "reports"):
        graded[("scoring report", str(row.get("schemaId")))] = (_text(row.get("grade")), _number(row.get("score")))
    return graded


def cleo_grades(doc: Any) -> dict[tuple[str, str], Graded]:
    return {("session", str(row.get("sessionId"))): (_text(row.get("grade")), _number(row.get("totalScore")))
            for row in _rows(doc, "runs") if row.get("current") is True}


def compare(system: str, before: Mapping[tuple[str, str], Graded],
            after: Mapping[tuple[str, str], Graded]) -> list[GradeMove]:
    """Every graded item whose grade or score changed, or that one build has, largest score move first."""
    moves = []
    for kind, name in sorted(set(before) | set(after)):
        was, now = before.get((kind, name)), after.get((kind, name))
        if was == now:
            continue
        moves.append(GradeMove(system, kind, name, was[0] if was else None, now[0] if now else None,
                               was[1] if was else None, now[1] if now else None,
                               present_before=was is not None, present_after=now is not None))
    moves.sort(key=lambda move: (-abs(move.delta or 0), move.delta or 0, move.kind, move.name))
    return moves
