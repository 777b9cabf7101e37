"""The FlowMCP statistics, computed in DuckDB SQL (`builder/flowmcp/queries/*.sql`) from the section's tables.

One model, `FlowStats`, feeds both the section page (`flowmcp/index.html`) and its API JSON, so the
two can never disagree. Grades and node statuses and rollup statuses are counted separately: the
Grading-Spec's two status vocabularies are never summed together.
"""

from __future__ import annotations

from typing import Any

import duckdb

from builder import charts
from builder.flowmcp import queries
from builder.pages.page import CamelView

OTHER_COLOURS = {"REJECTED": "#8c1d18", "pending": "#8c959f", "none": "#8c959f"}


Row = CamelView


class Overview(Row):
    providers: int
    selections: int
    grading_files: int
    rejected_files: int
    current_entries: int
    current_answers: int
    entries_differing: int
    index_differences: int
    reports: int


class GradeCount(Row):
    grade: str
    autonomous: int
    group_bound: int
    entries: int


class NodeStatusCount(Row):
    status: str
    provider_nodes: int
    selection_nodes: int
    nodes: int


class RollupStatusCount(Row):
    status: str
    providers: int
    selections: int
    rollups: int


class RollupGradeCount(Row):
    grade: str
    providers: int
    selections: int
    rollups: int


class AreaMean(Row):
    area: str
    tier: str
    entries: int
    scored: int
    mean: float | None
    lowest: float | None
    highest: float | None
    vetoed: int


class LeftOut(Row):
    why: str
    na_reason: str | None
    answers: int
    entries: int


class ReportGrade(Row):
    grade: str
    reports: int
    stored_differently: int
    failed_validation: int


class ReportDimension(Row):
    dimension: str
    reports: int
    mean: float | None
    lowest: float | None
    below_b: int


class FlowStats(Row):
    overview: Overview
    entry_grades: list[GradeCount]
    node_statuses: list[NodeStatusCount]
    rollup_statuses: list[RollupStatusCount]
    rollup_grades: list[RollupGradeCount]
    area_means: list[AreaMean]
    left_out: list[LeftOut]
    report_grades: list[ReportGrade]
    report_dimensions: list[ReportDimension]


def _rows(con: duckdb.DuckDBPyConnection, name: str) -> list[dict[str, Any]]:
    return [{key: _plain(value) for key, value in row.items()} for row in queries.run(con, name)]


def _plain(value: Any) -> Any:
    return round(value, 6) if isinstance(value, float) else value


def compute(con: duckdb.DuckDBPyConnection) -> FlowStats:
    return FlowStats(
        overview=Overview.model_validate(_rows(con, "overview")[0]),
        entry_grades=[GradeCount.model_validate(r) for r in _rows(con, "entry_grades")],
        node_statuses=[NodeStatusCount.model_validate(r) for r in _rows(con, "node_statuses")],
        rollup_statuses=[RollupStatusCount.model_validate(r) for r in _rows(con, "rollup_statuses")],
        rollup_grades=[RollupGradeCount.model_validate(r) for r in _rows(con, "rollup_grades")],
        area_means=[AreaMean.model_validate(r) for r in _rows(con, "area_means")],
        left_out=[LeftOut.model_validate(r) for r in _rows(con, "left_out")],
        report_grades=[ReportGrade.model_validate(r) for r in _rows(con, "report_grades")],
        report_dimensions=[ReportDimension.model_validate(r) for r in _rows(con, "report_dimensions")],
    )


def _colour(grade: str) -> str:
    return charts.TIER_COLOURS.get(grade) or OTHER_COLOURS.get(grade, "#8c959f")


def grade_chart(stats: FlowStats) -> dict[str, Any]:
    grades = [row.grade for row in stats.entry_grades]
    return charts.bar(
        "Current grading entries by grade",
        grades,
        [row.entries for row in stats.entry_grades],
        x_title="Grade (recomputed)",
        y_title="Entries",
        colours=[_colour(g) for g in grades],
    )


def node_status_chart(stats: FlowStats) -> dict[str, Any]:
    return charts.bar(
        "Nodes by node status",
        [row.status for row in stats.node_statuses],
        [row.nodes for row in stats.node_statuses],
        x_title="Node status",
        y_title="Nodes",
    )
