"""The TDQS home page (`index.html`): the registry's statistics, computed in DuckDB, as tables and
charts, and the same figures as `api/stats.json`.
"""

from __future__ import annotations

from typing import Any

import duckdb
from tdqs import COHERENCE_DIMENSIONS, TIERS, TOOL_DIMENSIONS

from builder import charts, numbers, urls
from builder.pages.page import Page, PageContext
from builder.tdqs import queries
from builder.tdqs.pages.corpus import TdqsSection
from builder.tdqs.pages.views import PASS_LINE, View
from builder.tdqs.stats import RegistryStats, registry_stats


class TierRow(View):
    tier: str
    meaning: str
    minimum: float | None
    count: int
    share: float


class StatRow(View):
    key: str
    name: str
    weight: int
    mean: float | None
    smell_rate: float | None


class HomeContext(PageContext):
    stats: RegistryStats
    tiers: list[TierRow]
    dimensions: list[StatRow]
    flags: list[tuple[str, int, float]]
    coherence: list[tuple[str, float | None]]
    models: list[str]
    spec_versions: list[str]
    tier_chart: dict[str, Any]
    dimension_chart: dict[str, Any]
    histogram_chart: dict[str, Any]


def home_page(con: duckdb.DuckDBPyConnection, corpus: TdqsSection) -> tuple[Page, dict[str, Any]]:
    stats = registry_stats(con)
    meanings = {t.tier: t for t in TIERS}
    tiers = [
        TierRow(tier=key, meaning=meanings[key].meaning, minimum=meanings[key].minimum,
                count=value.count, share=value.share)
        for key, value in stats.tiers.items()
    ]
    dimensions = [
        StatRow(key=d.key, name=d.name, weight=d.weight, mean=stats.dimensions[d.key].mean,
                smell_rate=stats.dimensions[d.key].smell_rate)
        for d in TOOL_DIMENSIONS
    ]
    histogram = queries.run(con, "histogram")
    context = HomeContext(
        title="MCP tool definition scorecards",
        description=(
            f"TDQS scorecards for {stats.server_count} MCP servers and {stats.tool_count} tools, "
            "with the statistics of the whole corpus."
        ),
        stats=stats,
        tiers=tiers,
        dimensions=dimensions,
        flags=[(name, stats.flag_counts[name], share) for name, share in stats.flag_shares.items()],
        coherence=[(d.name, stats.server_level.coherence[d.key]) for d in COHERENCE_DIMENSIONS],
        models=corpus.models,
        spec_versions=corpus.spec_versions,
        tier_chart=charts.bar(
            "Tools by tier", [t.tier for t in tiers], [t.count for t in tiers], y_title="tools",
            colours=[charts.TIER_COLOURS[t.tier] for t in tiers],
            text=[numbers.percent(t.share) for t in tiers],
        ),
        dimension_chart=charts.bar(
            "Dimension means", [d.name for d in dimensions], [d.mean or 0 for d in dimensions],
            x_title="mean score (1–5)", horizontal=True, range_=(0, 5),
        ),
        histogram_chart=charts.histogram(
            "TDQS distribution", [row["tdqs_tenths"] / 10 for row in histogram],
            [row["count"] for row in histogram], x_title="TDQS", y_title="tools", range_=(1, 5), pass_line=PASS_LINE,
        ),
    )
    return Page(urls.HOME, "tdqs/home.html", context), stats.model_dump(mode="json", by_alias=True)
