"""The TDQS home page (`index.html`), for a visitor first: a search box, the best servers of each
category (and of the whole registry), the newest changes; then the registry's statistics, computed
in DuckDB, as tables and charts, and the same figures as `api/stats.json`.

Written in plain words: how the figures are computed (the percentile method, the tier no score
reaches) is said on the rubric page, and dates are written as days (`12 Nov 2026`).
"""

from __future__ import annotations

from typing import Any

import duckdb
from tdqs import COHERENCE_DIMENSIONS, TIERS, TOOL_DIMENSIONS

from builder import charts, numbers, urls
from builder.dates import day_words
from builder.pages.page import Page, PageContext
from builder.tdqs import queries
from builder.tdqs.pages.categories import Category, CategorySummary, rank_key, summaries
from builder.tdqs.pages.changes import Changes
from builder.tdqs.pages.corpus import TdqsSection
from builder.tdqs.pages.server_list import TIERS as GRADED
from builder.tdqs.pages.server_list import ListEntry, ServerListRow
from builder.tdqs.pages.views import PASS_LINE, View
from builder.tdqs.stats import RegistryStats, registry_stats


class TierRow(View):
    tier: str
    meaning: str
    minimum: float | None
    count: int
    share: numbers.Exact


PLAIN_MEANINGS = {"F": "below D: no score reaches it (every score is at least 1.0)"}
"""Tier meanings said plainly where tdqs's own words are jargon (F is "reserved guard tier"); the
rubric page explains the F tier in full."""
CATEGORIES_SHOWN = 8
"""Categories on the home page (those with the most servers); the categories page lists all."""
BEST_SHOWN = 5
CHANGES_SHOWN = 5


class RecentChange(View):
    name: str
    identity: str
    page: str
    when: str
    """The day it was scored, in words."""
    scored_at: str
    summary: str
    """What moved, in a few words: `overall 3.1 → 3.6`, `2 tools changed`."""


class StatRow(View):
    key: str
    name: str
    weight: int
    mean: float | None
    smell_rate: numbers.Exact | None


class HomeContext(PageContext):
    search_path: str
    best: list[ServerListRow]
    """The best graded servers of the registry (BEST_SHOWN), ranked as a category's are."""
    categories: list[CategorySummary]
    """The categories with the most servers, each with its best servers."""
    category_count: int
    recent: list[RecentChange]
    data_as_of: str | None
    """The newest capture's day, in words."""
    stats: RegistryStats
    tiers: list[TierRow]
    dimensions: list[StatRow]
    flags: list[tuple[str, int, numbers.Exact]]
    coherence: list[tuple[str, float | None]]
    models: list[str]
    spec_versions: list[str]
    tier_chart: dict[str, Any]
    histogram_chart: dict[str, Any]


def recent_changes(every_change: Changes) -> list[RecentChange]:
    """The newest few changes of the changes pages, each in a line, with whose server it is."""
    found = []
    for change in every_change.newest(CHANGES_SHOWN):
        moved = len(change.tools)
        if change.new:
            parts = [f"new, overall {change.overall}"]
        elif change.overall_delta:  # the overall score moved (and is published before and after)
            parts = [f"overall {numbers.fixed(change.overall_before)} → {numbers.fixed(change.overall_after)}"]
        else:
            parts = list(change.changes)  # the overall tier's line, if it moved
        if moved:
            parts.append(f"{moved} tool{'s' if moved != 1 else ''} changed")
        found.append(RecentChange(
            name=change.server_name, identity=change.server_identity,
            page=change.server_page, when=day_words(change.scored_at), scored_at=change.scored_at,
            summary=", ".join(parts) or "rescored",
        ))
    return found


def home_page(con: duckdb.DuckDBPyConnection, corpus: TdqsSection, entries: list[ListEntry],
              categories: list[Category], every_change: Changes) -> tuple[Page, dict[str, Any]]:
    stats = registry_stats(con)
    meanings: dict[str, Any] = {t.tier: t for t in TIERS}
    tiers = [
        TierRow(tier=key, meaning=PLAIN_MEANINGS.get(key, meanings[key].meaning), minimum=meanings[key].minimum,
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
        search_path=urls.SEARCH,
        best=[entry.row() for entry in sorted((e for e in entries if e.tier in GRADED), key=rank_key)[:BEST_SHOWN]],
        categories=summaries(categories[:CATEGORIES_SHOWN]),
        category_count=len(categories),
        recent=recent_changes(every_change),
        data_as_of=day_words(corpus.data_as_of) if corpus.data_as_of else None,
        stats=stats,
        tiers=tiers,
        dimensions=dimensions,
        flags=[(name, stats.flag_counts[name], share) for name, share in stats.flag_shares.items()],
        coherence=[(d.name, stats.server_level.coherence[d.key]) for d in COHERENCE_DIMENSIONS],
        models=corpus.models,
        stand_in_models=corpus.stand_in_models,
        spec_versions=corpus.spec_versions,
        tier_chart=charts.bar(
            "Tools by tier", [t.tier for t in tiers], [t.count for t in tiers], y_title="tools",
            colours=[charts.TIER_COLOURS[t.tier] for t in tiers],
            text=[numbers.percent(t.share) for t in tiers],
        ),
        histogram_chart=charts.histogram(
            "TDQS distribution", [row["tdqs_tenths"] / 10 for row in histogram],
            [row["count"] for row in histogram], x_title="TDQS", y_title="tools", range_=(1, 5), pass_line=PASS_LINE,
        ),
    )
    return Page(urls.HOME, "tdqs/home.html", context), stats.model_dump(mode="json", by_alias=True)
