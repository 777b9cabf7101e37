"""The TDQS spec's "across the registry" figures, recomputed from the store.

One model, `RegistryStats`, feeds both the home page and `api/stats.json`, so the two can never
disagree. Shares are fractions in 0–1; figures are rounded to six decimals so that the JSON is
byte-stable across runs whatever order DuckDB's threads summed in.
"""

from __future__ import annotations

import duckdb
from tdqs import COHERENCE_DIMENSIONS, FLAGS, TIERS, TOOL_DIMENSIONS

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
    mean: float | None
    median: float | None
    p25: float | None
    p75: float | None


class TierStat(Camel):
    count: int
    share: float


class DimensionStat(Camel):
    mean: float | None
    smell_rate: float | None


class ServerLevel(Camel):
    mean_min_gap: float | None
    """How far, on average, a server's worst tool sits below its mean TDQS."""
    share_with_outlier: float | None
    """Share of servers with at least one tool a full point or more below their mean."""
    overall_mean: float | None
    description_quality_mean: float | None
    coherence_mean: float | None
    coherence: dict[str, float | None]
    below_coverage_share: float | None
    shadowing_share: float | None


class RegistryStats(Camel):
    server_count: int
    tool_count: int
    scored_definitions: int
    """Distinct definitions scored (inputHash per tool of a server), current and superseded."""
    tdqs: TdqsSummary
    passing_share: float | None
    tiers: dict[str, TierStat]
    dimensions: dict[str, DimensionStat]
    smell_share: float | None
    flag_shares: dict[str, float]
    flag_counts: dict[str, int]
    stale_share: float | None
    server_level: ServerLevel


def registry_stats(con: duckdb.DuckDBPyConnection) -> RegistryStats:
    overview = queries.run(con, "overview")[0]
    tier_rows = {row["tier"]: row for row in queries.run(con, "tiers")}
    dimension_rows = {row["dimension"]: row for row in queries.run(con, "dimensions")}
    flag_rows = {row["flag"]: row for row in queries.run(con, "flags")}
    servers = queries.run(con, "servers_rollup")[0]
    return RegistryStats(
        server_count=overview["server_count"],
        tool_count=overview["tool_count"],
        scored_definitions=overview["scored_definitions"],
        tdqs=TdqsSummary(
            mean=_r(overview["tdqs_mean"]),
            median=_r(overview["tdqs_median"]),
            p25=_r(overview["tdqs_p25"]),
            p75=_r(overview["tdqs_p75"]),
        ),
        passing_share=_r(overview["passing_share"]),
        tiers={
            t.tier: TierStat(
                count=tier_rows.get(t.tier, {}).get("count", 0),
                share=_r(tier_rows.get(t.tier, {}).get("share", 0.0)) or 0.0,
            )
            for t in TIERS
        },
        dimensions={
            d.key: DimensionStat(
                mean=_r(dimension_rows.get(d.key, {}).get("mean")),
                smell_rate=_r(dimension_rows.get(d.key, {}).get("smell_rate")),
            )
            for d in TOOL_DIMENSIONS
        },
        smell_share=_r(overview["smell_share"]),
        flag_shares={f.name: _r(flag_rows.get(f.name, {}).get("share", 0.0)) or 0.0 for f in FLAGS},
        flag_counts={f.name: int(flag_rows.get(f.name, {}).get("count", 0)) for f in FLAGS},
        stale_share=_r(overview["stale_share"]),
        server_level=ServerLevel(
            mean_min_gap=_r(servers["mean_min_gap"]),
            share_with_outlier=_r(servers["share_with_outlier"]),
            overall_mean=_r(servers["overall_mean"]),
            description_quality_mean=_r(servers["description_quality_mean"]),
            coherence_mean=_r(servers["coherence_mean"]),
            coherence={d.key: _r(servers[d.key]) for d in COHERENCE_DIMENSIONS},
            below_coverage_share=_r(servers["below_coverage_share"]),
            shadowing_share=_r(servers["shadowing_share"]),
        ),
    )
