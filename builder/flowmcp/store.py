"""FlowMCP records as DuckDB tables, so the section's statistics are SQL (`builder/flowmcp/queries/*.sql`).

- `flowmcp_entries`: one row per grading file of every audit trail (rejected files included, with
  `valid = false`), its recomputed grade and whether it is its node's current entry;
- `flowmcp_answers`: one row per answer of every valid entry;
- `flowmcp_nodes`: one row per node of every namespace and selection (node vocabulary);
- `flowmcp_rollups`: one row per namespace and selection (rollup vocabulary) — the two status
  vocabularies live in two tables and are never counted together;
- `flowmcp_reports` and `flowmcp_report_dimensions`: Scoring Protocol v1 reports.
Means are stored rounded to six decimals for the SQL that compares them, and exactly (`mean_exact`,
the fraction as `p/q` text) for the statistics: a mean of 4.4999996 is a B, and rounded to six
decimals it would read as an A. The statistics take their means, lowest and highest values from the
exact text, so they are byte-stable whatever order DuckDB reads the rows in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import duckdb

from builder.flowmcp.reader import FlowCorpus
from builder.flowmcp.rules import as_float
from builder.store.tables import load_rows

ENTRY_COLUMNS = {
    "file": "VARCHAR",
    "owner_kind": "VARCHAR",
    "owner": "VARCHAR",
    "node": "VARCHAR",
    "node_kind": "VARCHAR",
    "area": "VARCHAR",
    "tier": "VARCHAR",
    "stamp": "VARCHAR",
    "is_current": "BOOLEAN",
    "valid": "BOOLEAN",
    "grading_mode": "VARCHAR",
    "scoring_system": "VARCHAR",
    "grading_system": "VARCHAR",
    "stored_grade": "VARCHAR",
    "grade": "VARCHAR",
    "raw_grade": "VARCHAR",
    "mean": "DOUBLE",
    "mean_exact": "VARCHAR",
    "veto": "VARCHAR",
}
ANSWER_COLUMNS = {
    "file": "VARCHAR",
    "is_current": "BOOLEAN",
    "area": "VARCHAR",
    "position": "INTEGER",
    "question_id": "VARCHAR",
    "score": "VARCHAR",
    "value": "DOUBLE",
    "counted": "BOOLEAN",
    "left_out": "VARCHAR",
    "na_reason": "VARCHAR",
    "weight": "DOUBLE",
    "determinism": "VARCHAR",
    "grader_kind": "VARCHAR",
    "llm_model": "VARCHAR",
}
NODE_COLUMNS = {
    "owner_kind": "VARCHAR",
    "owner": "VARCHAR",
    "node": "VARCHAR",
    "node_kind": "VARCHAR",
    "area": "VARCHAR",
    "status": "VARCHAR",
    "grade": "VARCHAR",
    "source": "VARCHAR",
    "stored_status": "VARCHAR",
    "stored_grade": "VARCHAR",
    "differences": "INTEGER",
}
ROLLUP_COLUMNS = {
    "owner_kind": "VARCHAR",
    "owner": "VARCHAR",
    "status": "VARCHAR",
    "grade": "VARCHAR",
    "stored_status": "VARCHAR",
    "stored_grade": "VARCHAR",
    "index_state": "VARCHAR",
    "differences": "INTEGER",
}
REPORT_COLUMNS = {
    "folder": "VARCHAR",
    "file": "VARCHAR",
    "is_current": "BOOLEAN",
    "schema_id": "VARCHAR",
    "date": "VARCHAR",
    "stored_grade": "VARCHAR",
    "grade": "VARCHAR",
    "stored_score": "DOUBLE",
    "score": "DOUBLE",
    "validation_passed": "BOOLEAN",
    "validation_errors": "INTEGER",
    "model": "VARCHAR",
}
DIMENSION_COLUMNS = {
    "file": "VARCHAR",
    "is_current": "BOOLEAN",
    "position": "INTEGER",
    "dimension": "VARCHAR",
    "score": "DOUBLE",
}


def load(con: duckdb.DuckDBPyConnection, corpus: FlowCorpus) -> None:
    load_rows(con, "flowmcp_entries", ENTRY_COLUMNS, _entries(corpus))
    load_rows(con, "flowmcp_answers", ANSWER_COLUMNS, _answers(corpus))
    load_rows(con, "flowmcp_nodes", NODE_COLUMNS, _nodes(corpus))
    load_rows(con, "flowmcp_rollups", ROLLUP_COLUMNS, _rollups(corpus))
    load_rows(con, "flowmcp_reports", REPORT_COLUMNS, _reports(corpus))
    load_rows(con, "flowmcp_report_dimensions", DIMENSION_COLUMNS, _dimensions(corpus))


def _entries(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for rollup in corpus.rollups:
        for node in rollup.nodes:
            for record in node.trail:
                entry, computed = record.entry, record.computed
                yield (
                    record.file,
                    rollup.kind,
                    rollup.name,
                    node.key,
                    node.kind,
                    record.name.area,
                    record.tier,
                    record.name.timestamp,
                    record is node.current,
                    entry is not None,
                    entry.grading_mode if entry else None,
                    entry.scoring_system if entry else None,
                    entry.grading_system if entry else None,
                    entry.aggregate_grade if entry else None,
                    record.grade,
                    computed.raw_grade if computed else None,
                    as_float(computed.mean) if computed else None,
                    str(computed.mean) if computed and computed.mean is not None else None,
                    entry.categorical_veto.triggered_by if entry and entry.categorical_veto else None,
                )


def _answers(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for rollup in corpus.rollups:
        for node in rollup.nodes:
            for record in node.trail:
                if record.entry is None or record.computed is None:
                    continue
                for answer, scored in zip(record.entry.gradings, record.computed.answers, strict=True):
                    yield (
                        record.file,
                        record is node.current,
                        record.name.area,
                        scored.position,
                        answer.question_id,
                        str(answer.score),
                        as_float(scored.value),
                        scored.counted,
                        scored.left_out,
                        answer.na_reason,
                        answer.weight,
                        answer.determinism,
                        answer.grader_identity.kind,
                        answer.llm_model,
                    )


def _nodes(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for rollup in corpus.rollups:
        for node in rollup.nodes:
            yield (
                rollup.kind,
                rollup.name,
                node.key,
                node.kind,
                node.area,
                node.status,
                node.grade,
                node.source,
                node.stored_status,
                node.stored_grade,
                len(node.differences),
            )


def _rollups(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for rollup in corpus.rollups:
        yield (
            rollup.kind,
            rollup.name,
            rollup.status,
            rollup.grade,
            rollup.stored_status,
            rollup.stored_grade,
            rollup.index_state,
            len(rollup.differences),
        )


def _reports(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for found in corpus.reports:
        for record in found.reports:
            report = record.report
            yield (
                found.folder,
                record.file,
                record is found.current,
                report.schema_id,
                report.date,
                report.grade,
                record.grade,
                report.score,
                as_float(record.score),
                report.validation_passed,
                len(report.validation_errors),
                report.harness.model,
            )


def _dimensions(corpus: FlowCorpus) -> Iterator[tuple[Any, ...]]:
    for found in corpus.reports:
        for record in found.reports:
            for position, dimension in enumerate(record.report.dimensions):
                yield (record.file, record is found.current, position, dimension.dimension, dimension.score)
