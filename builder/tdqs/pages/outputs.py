"""The TDQS section's outputs: the section-wide pages and files (the home page from `home`, the
server list, the rubric, changes, downloads, the feed and the bulk files) and, with
`server_outputs`, each server's own (its page and API JSON from `server`, its tools' pages from
`tool`, its feed, badges and card, and pages for its tools not scored yet)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import duckdb
from tdqs import SPEC_VERSION

from builder import urls
from builder.config import SiteConfig
from builder.engine.problems import Problem
from builder.pages.page import DataFile, NavItem, Output, Page
from builder.publish.badges import BadgeSet
from builder.tdqs import queries
from builder.tdqs.bulk import bulk_files
from builder.tdqs.pages import publish
from builder.tdqs.pages.card import card_file, server_card_view
from builder.tdqs.pages.categories import categories_of, category_outputs
from builder.tdqs.pages.changes import changes_pages, every_change
from builder.tdqs.pages.compare import compare_outputs
from builder.tdqs.pages.corpus import TdqsSection
from builder.tdqs.pages.home import home_page
from builder.tdqs.pages.rubric import rubric_page
from builder.tdqs.pages.server import ServerContext, server_api, server_context, tools_chart
from builder.tdqs.pages.server_list import list_entries, server_list_outputs
from builder.tdqs.pages.siblings import OtherTools
from builder.tdqs.pages.tool import tool_page_context
from builder.tdqs.pages.unscored import unscored_tool_pages
from builder.tdqs.reader import Server


def api_json(document: Any, *, compact: bool = False) -> str:
    """Per-server records are compact (a registry has fifteen thousand of them); the few
    site-wide files are indented for people reading them."""
    if compact:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def nav(corpus: TdqsSection) -> list[NavItem]:
    return [
        NavItem("Servers", urls.SERVERS),
        NavItem("Categories", urls.CATEGORIES),
        NavItem("Changes", urls.CHANGES),
        NavItem("Rubric", urls.RUBRIC),
        NavItem("Data", publish.DOWNLOADS),
    ]


def server_outputs(
    server: Server, problems: dict[str, list[Problem]], config: SiteConfig, badges: BadgeSet
) -> Iterator[Page | DataFile]:
    capture = server.current
    file_problems = [p for p in problems.get(capture.file, []) if p.severity == "warning"]
    api_path = urls.server_api(server.slug)
    key = server.digest
    badge, endpoint = publish.server_badge(server, config, badges)
    yield replace(endpoint, key=key)
    yield card_file(server)
    def context() -> ServerContext:
        charts_ = {"tools": tools_chart(server), "history": publish.server_history_chart(server)}
        feed = publish.server_feed_path(server)
        return server_context(server, file_problems, api_path, charts_, badge, feed, server_card_view(server, config),
                              sorted(problems))

    yield Page(urls.server_page(server.slug), "tdqs/server.html", context, key=key)
    yield DataFile(api_path, lambda: api_json(server_api(server), compact=True), key=key)
    yield publish.server_feed(server, config)
    siblings = OtherTools.of_server(server)
    for tool in capture.tools:
        tool_badge = publish.tool_badge(server, tool, config, badges)
        yield Page(
            urls.tool_page(server.slug, tool.slug), "tdqs/tool.html",
            partial(tool_page_context, server, tool, file_problems, tool_badge, siblings), key=key,
        )
    yield from unscored_tool_pages(server, siblings)


def page_dates(con: duckdb.DuckDBPyConnection, corpus: TdqsSection) -> dict[str, str]:
    """Each server's folder (its page, its tools' pages) → when its newest capture was scored, or,
    not scored yet, captured: the sitemap's lastmod."""
    dates = {urls.page_dir(urls.server_page(row["slug"])) + "/": row["newest"] for row in queries.run(con, "newest")}
    dates.update((urls.page_dir(urls.server_page(s.slug)) + "/", s.captured_at) for s in corpus.unscored)
    return dates


def outputs(con: duckdb.DuckDBPyConnection, corpus: TdqsSection, config: SiteConfig) -> Iterator[Output]:
    """The section's corpus-wide pages and files, made from the store's tables (the statistics,
    the servers list) and what the section gathered of each server's summary; each server's own outputs were planned where it was read (`section`)."""
    entries = list_entries(con, corpus)
    categories = categories_of(entries)
    all_changes = every_change(con)
    home, stats = home_page(con, corpus, entries, categories, all_changes)
    yield home
    yield DataFile(urls.STATS_API, api_json({"specVersion": SPEC_VERSION, **stats}))
    yield from server_list_outputs(con, corpus, entries)
    yield from category_outputs(categories, corpus.stand_in_models)
    yield from compare_outputs(con)
    yield rubric_page()
    yield from changes_pages(all_changes, corpus.stand_in_models)
    yield publish.downloads_page()
    yield from bulk_files(con)
    yield publish.site_feed(all_changes, config)
    yield from corpus.outputs
    yield from corpus.badges.files()


