"""The CLEO section's statistics, read from DuckDB (`builder/cleo/queries/*.sql`) into views.

Every statistic counts graded sessions once, by their current run; sessions without audit
entries are counted apart and are in no distribution or mean. The queries say so too.
"""

from __future__ import annotations

import duckdb

from builder import numbers
from builder.cleo import queries
from builder.cleo.pages.contexts import DimensionMean, FlagCount, GradeBucket, SectionSummary
from builder.cleo.pages.views import graded_at, points
from builder.cleo.rubric import DIMENSION_BY_KEY, RULE_BY_KEY

TOP_FLAGS = 10


def summary(con: duckdb.DuckDBPyConnection) -> SectionSummary:
    row = queries.run(con, "summary")[0]
    return SectionSummary(
        sessions=row["sessions"], graded_sessions=row["graded_sessions"],
        ungradable_sessions=row["ungradable_sessions"], runs=row["runs"],
        gradable_runs=row["gradable_runs"], synthetic_runs=row["synthetic_runs"],
        mean_share=row["mean_share"],
        first_graded=graded_at(row["first_graded_at"]) if row["first_graded_at"] else None,
        last_graded=graded_at(row["last_graded_at"]) if row["last_graded_at"] else None,
    )


def grade_distribution(con: duckdb.DuckDBPyConnection) -> list[GradeBucket]:
    return [
        GradeBucket(grade=row["grade"], min_share=row["min_share"], sessions=row["sessions"],
                    share=row["share"])
        for row in queries.run(con, "grade_distribution")
    ]


def dimension_means(con: duckdb.DuckDBPyConnection) -> list[DimensionMean]:
    return [
        DimensionMean(
            label=DIMENSION_BY_KEY[row["dimension"]].label, sessions=row["sessions"],
            mean_text=numbers.fixed(row["mean_score"], 1), max_text=points(row["mean_max"]),
            mean_share=row["mean_share"],
        )
        for row in queries.run(con, "dimension_means")
    ]


def top_flags(con: duckdb.DuckDBPyConnection, limit: int = TOP_FLAGS) -> list[FlagCount]:
    counted = []
    for row in queries.run(con, "top_flags", {"limit": limit}):
        rule = RULE_BY_KEY.get(row["rule"]) if row["rule"] else None
        counted.append(FlagCount(
            label=rule.label if rule else row["unknown_flag"], known=rule is not None,
            dimension=DIMENSION_BY_KEY[rule.dimension].label if rule and rule.dimension else None,
            points=rule.points if rule else None, up_to=rule.up_to if rule else False,
            sessions=row["sessions"], occurrences=row["occurrences"],
        ))
    return counted
