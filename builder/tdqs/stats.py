"""The TDQS spec's "across the registry" figures, recomputed from the store.

One model, `RegistryStats`, feeds both the home page and `api/stats.json`, so the two can never
disagree. Shares are exact fractions in 0–1 made from their counts (`numbers.share_of`), printed
rounded once, half up; the API gives the nearest float. The TDQS mean is exact too (a sum of
integer tenths over a count). Other means are rounded to six decimals so that the JSON is
byte-stable across runs whatever order DuckDB's threads summed in.
"""

from __future__ import annotations

from fractions import Fraction

import duckdb
from tdqs import COHERENCE_DIMENSIONS, FLAGS, TIERS, TOOL_DIMENSIONS

from builder.numbers import Exact, share_of
from builder.pages.page import CamelView
from builder.tdqs import queries

Camel = CamelView


def _r(value: float | None) -> float | None:
    return None if value is None else round(float(value), 6)


PERCENTILES = (
    "linear interpolation between the two nearest ranks (DuckDB quantile_cont; Hyndman & Fan "
    "type 7, numpy's default)"
)
"""How median, p25 and p75 are taken; the home page and api/stats.json say so."""


class TdqsSummary(Camel):
    percentile_method: str = PERCENTILES
    mean: Exact | None
    median: float | None
    p25: float | None
    p75: float | None


class TierStat(Camel):
    count: int
    share: Exact


class DimensionStat(Camel):
    mean: float | None
    smell_rate: Exact | None


class ServerLevel(Camel):
    mean_min_gap: float | None
    """How far, on average, a server's worst tool sits below its mean TDQS."""
    share_with_outlier: Exact | None
    """Share of servers with at least one tool a full point or more below their mean."""
    overall_mean: float | None
    description_quality_mean: float | None
    coherence_mean: float | None
    coherence: dict[str, float | None]
    below_coverage_share: Exact | None
    shadowing_share: Exact | None


class RegistryStats(Camel):
    server_count: int
    tool_count: int
    scored_definitions: int
    """Distinct definitions scored (inputHash per tool of a server), current and superseded."""
    tdqs: TdqsSummary
    passing_share: Exact | None
    tiers: dict[str, TierStat]
    dimensions: dict[str, DimensionStat]
    smell_share: Exact | None
    flag_shares: dict[str, Exact]
    flag_counts: dict[str, int]
    stale_share: Exact | None
    server_level: ServerLevel


def registry_stats(con: duckdb.DuckDBPyConnection) -> RegistryStats:
    overview = queries.run(con, "overview")[0]
    tier_rows = {row["tier"]: row for row in queries.run(con, "tiers")}
    dimension_rows = {row["dimension"]: row for row in queries.run(con, "dimensions")}
    flag_rows = {row["flag"]: row for row in queries.run(con, "flags")}
    servers = queries.run(con, "servers_rollup")[0]
    tools, server_count = overview["tool_count"], servers["servers"]
    return RegistryStats(
        server_count=overview["server_count"],
        tool_count=tools,
        scored_definitions=overview["scored_definitions"],
        tdqs=TdqsSummary(
            mean=share_of(overview["tdqs_tenths_sum"] or 0, 10 * tools),
            median=_r(overview["tdqs_median"]),
            p25=_r(overview["tdqs_p25"]),
            p75=_r(overview["tdqs_p75"]),
        ),
        passing_share=share_of(overview["passing"], tools),
        tiers={
            t.tier: TierStat(
                count=tier_rows.get(t.tier, {}).get("count", 0),
                share=share_of(tier_rows.get(t.tier, {}).get("count", 0), tools) or Fraction(0),
            )
            for t in TIERS
        },
        dimensions={
            d.key: DimensionStat(
                mean=_r(dimension_rows.get(d.key, {}).get("mean")),
                smell_rate=share_of(dimension_rows[d.key]["smelly"], tools) if d.key in dimension_rows else None,
            )
            for d in TOOL_DIMENSIONS
        },
        smell_share=share_of(overview["smelly"], tools),
        flag_shares={f.name: share_of(int(flag_rows.get(f.name, {}).get("count", 0)), tools) or Fraction(0) for f in FLAGS},
        flag_counts={f.name: int(flag_rows.get(f.name, {}).get("count", 0)) for f in FLAGS},
        stale_share=share_of(overview["stale"], tools),
        server_level=ServerLevel(
            mean_min_gap=_r(servers["mean_min_gap"]),
            share_with_outlier=share_of(servers["with_outlier"], servers["rolled_up"]),
            overall_mean=_r(servers["overall_mean"]),
            description_quality_mean=_r(servers["description_quality_mean"]),
            coherence_mean=_r(servers["coherence_mean"]),
            coherence={d.key: _r(servers[d.key]) for d in COHERENCE_DIMENSIONS},
            below_coverage_share=share_of(servers["below_coverage"], server_count),
            shadowing_share=share_of(servers["shadowing"], server_count),
        ),
    )
