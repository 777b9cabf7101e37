"""The FlowMCP statistics, computed in DuckDB SQL (`builder/flowmcp/queries/*.sql`) from the section's tables.

One model, `FlowStats`, feeds both the section page (`flowmcp/index.html`) and its API JSON, so the
two can never disagree. Grades and node statuses and rollup statuses are counted separately: the
Grading-Spec's two status vocabularies are never summed together. Means, lowest and highest values
are taken in exact arithmetic and printed like an entry's mean (`views.mean_text`): a figure never
crosses a band edge that its exact value does not.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import duckdb

from builder import charts, numbers
from builder.flowmcp import queries
from builder.flowmcp.pages.views import exact_float, mean_text
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
    mean_text: str | None
    """The mean as printed: two decimals, or more where two would cross a band edge the exact
    mean does not (`views.mean_text`, as on every entry page): 4.499967 is `4.49997`, not `4.50`."""
    lowest_text: str | None
    highest_text: str | None
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
    mean_text: str | None
    lowest_text: str | None
    """Printed so that each bands like the exact value (`views.mean_text`): 1.4998 is never `1.5`."""
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


def _extremes(values: list[Fraction]) -> dict[str, Any]:
    """The exact mean, lowest and highest of `values`, as API floats and as printed text."""
    if not values:
        return dict.fromkeys(("mean", "lowest", "highest", "mean_text", "lowest_text", "highest_text"))
    mean, lowest, highest = sum(values, Fraction(0)) / len(values), min(values), max(values)
    return {
        "mean": exact_float(mean), "lowest": exact_float(lowest), "highest": exact_float(highest),
        "mean_text": mean_text(mean), "lowest_text": mean_text(lowest), "highest_text": mean_text(highest),
    }


def area_means(con: duckdb.DuckDBPyConnection) -> list[AreaMean]:
    """Each area's means in exact arithmetic, from the entries' exact means (`mean_exact`)."""
    rows = []
    for row in queries.run(con, "area_means"):
        means = [Fraction(text) for text in row.pop("means") or ()]
        rows.append(AreaMean.model_validate({**row, **_extremes(means)}))
    return rows


def report_dimensions(con: duckdb.DuckDBPyConnection) -> list[ReportDimension]:
    """Each dimension's mean and lowest in exact arithmetic, each score as the decimal it was written as."""
    rows = []
    for row in queries.run(con, "report_dimensions"):
        found = _extremes([numbers.exact(score) for score in row.pop("scores") or ()])
        found.pop("highest"), found.pop("highest_text")
        rows.append(ReportDimension.model_validate({**row, **found}))
    return rows


def compute(con: duckdb.DuckDBPyConnection) -> FlowStats:
    return FlowStats(
        overview=Overview.model_validate(_rows(con, "overview")[0]),
        entry_grades=[GradeCount.model_validate(r) for r in _rows(con, "entry_grades")],
        node_statuses=[NodeStatusCount.model_validate(r) for r in _rows(con, "node_statuses")],
        rollup_statuses=[RollupStatusCount.model_validate(r) for r in _rows(con, "rollup_statuses")],
        rollup_grades=[RollupGradeCount.model_validate(r) for r in _rows(con, "rollup_grades")],
        area_means=area_means(con),
        left_out=[LeftOut.model_validate(r) for r in _rows(con, "left_out")],
        report_grades=[ReportGrade.model_validate(r) for r in _rows(con, "report_grades")],
        report_dimensions=report_dimensions(con),
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
