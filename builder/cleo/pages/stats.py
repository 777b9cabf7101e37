"""The CLEO section's statistics, read from DuckDB (`builder/cleo/queries/*.sql`) into views.

Every statistic counts graded sessions once, by their current run; sessions without audit
entries are counted apart and are in no distribution or mean. The queries say so too.
"""

from __future__ import annotations

from fractions import Fraction

import duckdb

from builder import numbers
from builder.cleo import queries
from builder.cleo.pages.contexts import DimensionMean, FlagCount, GradeBucket, SectionSummary
from builder.cleo.pages.views import graded_at, points
from builder.cleo.rubric import DIMENSION_BY_KEY, RULE_BY_KEY

TOP_FLAGS = 10


def _mean_share(totals: list[float], maxima: list[float]) -> Fraction | None:
    """The mean of the sessions' shares of their maximum, exactly (each total as CLEO's decimal)."""
    shares = [numbers.exact(total) / numbers.exact(top) for total, top in zip(totals, maxima, strict=True)]
    return sum(shares, Fraction(0)) / len(shares) if shares else None


def summary(con: duckdb.DuckDBPyConnection) -> SectionSummary:
    row = queries.run(con, "summary")[0]
    return SectionSummary(
        sessions=row["sessions"], graded_sessions=row["graded_sessions"],
        ungradable_sessions=row["ungradable_sessions"], runs=row["runs"],
        gradable_runs=row["gradable_runs"], synthetic_runs=row["synthetic_runs"],
        mean_share=_mean_share(row["totals"] or [], row["maxima"] or []),
        first_graded=graded_at(row["first_graded_at"]) if row["first_graded_at"] else None,
        last_graded=graded_at(row["last_graded_at"]) if row["last_graded_at"] else None,
    )


def grade_distribution(con: duckdb.DuckDBPyConnection) -> list[GradeBucket]:
    return [
        GradeBucket(grade=row["grade"], min_share=row["min_share"], sessions=row["sessions"],
                    share=numbers.share_of(row["sessions"], row["graded"]))
        for row in queries.run(con, "grade_distribution")
    ]


def dimension_means(con: duckdb.DuckDBPyConnection) -> list[DimensionMean]:
    """Each dimension's mean score and mean maximum, and its share: the one over the other, in exact
    arithmetic (each score as the decimal CLEO wrote), so the share is the ratio printed beside it."""
    means = []
    for row in queries.run(con, "dimension_means"):
        maxima = [numbers.exact(value) for value in row["maxima"]]
        scored = sum((numbers.exact(value) for value in row["scores"]), Fraction(0))
        one_max = len(set(maxima)) == 1
        means.append(DimensionMean(
            label=DIMENSION_BY_KEY[row["dimension"]].label, sessions=row["sessions"],
            mean_text=numbers.fixed(scored / len(maxima), 1),
            max_text=points(row["maxima"][0]) if one_max else numbers.fixed(sum(maxima) / len(maxima), 1),
            mean_share=scored / sum(maxima),
        ))
    return means


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
