"""CLEO runs as DuckDB tables, so the section's statistics are SQL.

- `cleo_runs`: one row per valid GRADES.jsonl line (a grading run), with the session it belongs to,
  whether it is that session's current run and whether it is gradable at all;
- `cleo_dimensions`: the five dimension scores of every run;
- `cleo_flags`: every flag of every run, with the rubric rule it maps to (NULL when unknown);
- `cleo_grade_scale` and the view `cleo_run_grades`: the letter grade of every gradable run. The
  scale is a site setting, so it is loaded by `apply_grade_scale` when the pages are made, and the
  letter is computed in one place (`builder/cleo/queries/grades.sql`) for every page and statistic.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC
from typing import Any

import duckdb

from builder.cleo.corpus import CleoCorpus, Run
from builder.cleo.queries import sql
from builder.cleo.rubric import match_flag
from builder.config import CleoGradeScale
from builder.store.tables import load_rows

RUN_COLUMNS = {
    "run_key": "VARCHAR", "session_id": "VARCHAR", "session_slug": "VARCHAR",
    "run_slug": "VARCHAR", "seq": "INTEGER", "is_current": "BOOLEAN", "gradable": "BOOLEAN",
    "file": "VARCHAR", "line": "INTEGER", "task_id": "VARCHAR",
    "total_score": "DOUBLE", "max_score": "DOUBLE", "dimension_total": "DOUBLE",
    "graded_at": "TIMESTAMP", "timestamp": "VARCHAR", "entry_count": "BIGINT",
    "evaluator": "VARCHAR", "synthetic": "BOOLEAN", "flag_count": "INTEGER",
}
DIMENSION_COLUMNS = {
    "run_key": "VARCHAR", "position": "INTEGER", "dimension": "VARCHAR",
    "score": "DOUBLE", "max": "DOUBLE", "evidence_count": "INTEGER",
}
FLAG_COLUMNS = {"run_key": "VARCHAR", "position": "INTEGER", "flag": "VARCHAR", "rule": "VARCHAR"}
SCALE_COLUMNS = {"position": "INTEGER", "letter": "VARCHAR", "min_share": "DOUBLE"}


def _run_row(run: Run, seq: int, current: bool) -> tuple[Any, ...]:
    result = run.result
    # Naive UTC: DuckDB's TIMESTAMP has no zone, so no session setting can shift it.
    graded_at = result.graded_at.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")
    return (
        run.key, result.session_id, run.session_slug, run.run_slug, seq, current, run.gradable,
        run.file, run.line, result.task_id, result.total_score, result.max_score,
        result.dimensions.score_total, graded_at, result.timestamp, result.entry_count,
        result.evaluator, run.synthetic, len(result.flags),
    )


def _dimension_rows(corpus: CleoCorpus) -> Iterator[tuple[Any, ...]]:
    for session in corpus.sessions:
        for run in session.runs:
            for position, (key, score) in enumerate(run.result.dimensions.by_key().items()):
                yield run.key, position, key, score.score, score.max, len(score.evidence)


def _flag_rows(corpus: CleoCorpus) -> Iterator[tuple[Any, ...]]:
    for session in corpus.sessions:
        for run in session.runs:
            for position, flag in enumerate(run.result.flags):
                rule = match_flag(flag)
                yield run.key, position, flag, rule.key if rule else None


def load(con: duckdb.DuckDBPyConnection, corpus: CleoCorpus) -> None:
    load_rows(con, "cleo_runs", RUN_COLUMNS, (
        _run_row(run, seq, run is session.current)
        for session in corpus.sessions for seq, run in enumerate(session.runs)
    ))
    load_rows(con, "cleo_dimensions", DIMENSION_COLUMNS, _dimension_rows(corpus))
    load_rows(con, "cleo_flags", FLAG_COLUMNS, _flag_rows(corpus))


def apply_grade_scale(con: duckdb.DuckDBPyConnection, scale: CleoGradeScale) -> None:
    """Load the site's letter-grade thresholds and (re)create the `cleo_run_grades` view."""
    load_rows(con, "cleo_grade_scale", SCALE_COLUMNS, [
        (0, "A", scale.a), (1, "B", scale.b), (2, "C", scale.c), (3, "D", scale.d), (4, "F", 0.0),
    ])
    con.execute(sql("grades"))
