"""The TDQS section: home statistics, the server list, a page per server and per tool, the
rubric, and the JSON API beside them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import duckdb
from tdqs import COHERENCE_DIMENSIONS, SPEC_VERSION, TIERS, TOOL_DIMENSIONS

from builder import charts, numbers, queries, urls
from builder.config import SiteConfig
from builder.pages import tdqs_publish as publish
from builder.pages.page import DataFile, NavItem, Page
from builder.pages.rubric import rubric_page
from builder.pages.tdqs_corpus import TdqsSection
from builder.pages.tdqs_server_list import server_list_outputs
from builder.pages.tdqs_unscored import unscored_tool_pages
from builder.pages.tdqs_views import (
    BadgeView,
    HomeContext,
    ServerContext,
    StatRow,
    TierRow,
    ToolContext,
    provenance,
    server_context,
    server_scores,
    tool_context,
    tool_row,
)
from builder.problems import Problem
from builder.publish.badges import BadgeSet
from builder.publish.bulk import bulk_files
from builder.search import SearchDoc
from builder.sources.tdqs.reader import Server, ToolRecord
from builder.stats.tdqs import registry_stats


def api_json(document: Any, *, compact: bool = False) -> str:
    """Per-server records are compact (a registry has fifteen thousand of them); the few
    site-wide files are indented for people reading them."""
    if compact:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def nav(corpus: TdqsSection) -> list[NavItem]:
    return [
        NavItem("Servers", urls.SERVERS),
        NavItem("Changes", publish.CHANGES),
        NavItem("Rubric", urls.RUBRIC),
        NavItem("Data", publish.DOWNLOADS),
    ]


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
    histogram = queries.run(con, "tdqs_histogram")
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
        spec_versions=sorted({version for s in corpus.summaries for version in s.spec_versions}),
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
            [row["count"] for row in histogram], x_title="TDQS", y_title="tools",
        ),
    )
    return Page(urls.HOME, "tdqs/home.html", context), stats.model_dump(mode="json", by_alias=True)


def server_api(server: Server) -> dict[str, Any]:
    capture = server.current
    return {
        "id": server.server_id,
        "displayName": server.display_name,
        "description": server.meta.description,
        "repositoryUrl": server.meta.repository_url,
        "homepageUrl": server.meta.homepage_url,
        "provenance": provenance(capture, server).model_dump(mode="json", by_alias=True),
        "scores": server_scores(capture).model_dump(mode="json", by_alias=True),
        "coherence": {
            d.key: capture.server.rollup.coherence_justifications[d.key].score for d in COHERENCE_DIMENSIONS
        },
        "shadowingRisks": [
            risk.model_dump(mode="json", by_alias=True) for risk in capture.server.rollup.shadowing_risks
        ],
        "tools": [
            tool_row(tool).model_dump(mode="json", by_alias=True) for tool in capture.tools
        ],
        "captures": [
            {"id": c.capture_id, "scoredAt": c.generated_at, **server_scores(c).model_dump(mode="json", by_alias=True)}
            for c in server.captures
        ],
    }


HISTOGRAM_FROM = 61
"""From this many tools a bar per tool is unreadable: the chart becomes a histogram of tenths."""


def tools_chart(server: Server) -> dict[str, Any]:
    """A bar per tool, worst first, from the axis; past 60 tools a histogram of the tools' TDQS in
    tenths, each bar in its tier's colour (every value in a bar shares one tier)."""
    tools = sorted(server.current.tools, key=lambda t: (t.checked.tdqs, t.name))
    if len(tools) >= HISTOGRAM_FROM:
        counts = Counter(t.checked.tdqs for t in tools)
        tiers = {t.checked.tdqs: t.checked.tier for t in tools}
        values = sorted(counts)
        return charts.bar(
            f"TDQS of the {len(tools)} tools (histogram)", [f"{v:.1f}" for v in values], [counts[v] for v in values],
            x_title="TDQS", y_title="tools", colours=[charts.TIER_COLOURS[tiers[v]] for v in values],
        )
    return charts.bar(
        "Tool scores, worst first", [t.name for t in tools], [t.checked.tdqs for t in tools],
        x_title="TDQS", horizontal=True, range_=(0, 5),
        colours=[charts.TIER_COLOURS[t.checked.tier] for t in tools],
    )


def server_outputs(
    server: Server, problems: dict[str, list[Problem]], config: SiteConfig, badges: BadgeSet
) -> Iterator[Page | DataFile]:
    capture = server.current
    file_problems = [p for p in problems.get(capture.file, []) if p.severity == "warning"]
    api_path = urls.server_api(server.slug)
    key = server.digest
    badge, endpoint = publish.server_badge(server, config, badges)
    yield replace(endpoint, key=key)
    def context() -> ServerContext:
        charts_ = {"tools": tools_chart(server), "history": publish.server_history_chart(server)}
        feed = publish.server_feed_path(server)
        return server_context(server, file_problems, api_path, charts_, badge, feed)

    yield Page(urls.server_page(server.slug), "tdqs/server.html", context, key=key)
    yield DataFile(api_path, lambda: api_json(server_api(server), compact=True), key=key)
    yield publish.server_feed(server, config)
    for tool in capture.tools:
        tool_badge = publish.tool_badge(server, tool, config, badges)
        yield Page(
            urls.tool_page(server.slug, tool.slug), "tdqs/tool.html",
            partial(_tool_context, server, tool, file_problems, tool_badge), key=key,
        )
    yield from unscored_tool_pages(server)


def _tool_context(server: Server, tool: ToolRecord, problems: list[Problem], badge: BadgeView) -> ToolContext:
    return tool_context(server, tool, problems, badge, publish.tool_history_chart(server, tool))


def outputs(con: duckdb.DuckDBPyConnection, corpus: TdqsSection, config: SiteConfig) -> Iterator[Page | DataFile]:
    """The section's corpus-wide pages and files, made from the server summaries and the
    statistics; each server's own outputs were planned where it was read (tdqs_section)."""
    home, stats = home_page(con, corpus)
    yield home
    yield DataFile(urls.STATS_API, api_json({"specVersion": SPEC_VERSION, **stats}))
    yield from server_list_outputs(con, corpus)
    yield rubric_page()
    yield publish.changes_page([row for s in corpus.summaries for row in s.changes])
    yield publish.downloads_page()
    yield from bulk_files(con)
    yield publish.site_feed([entry for s in corpus.summaries for entry in s.feed], config)
    yield from corpus.outputs
    yield from corpus.badges.files()


def search_docs(corpus: TdqsSection) -> Iterator[SearchDoc]:
    yield from (summary.search for summary in corpus.summaries)
    yield from (summary.search for summary in corpus.unscored)
