"""The TDQS section's published extras: badges, history charts, feeds, downloads."""

from __future__ import annotations

from typing import Any

from builder import charts, urls
from builder.config import SiteConfig
from builder.pages.page import DataFile, Page, PageContext
from builder.publish.badges import Badge, BadgeSet, shields_endpoint_badge
from builder.publish.card_view import snippet_base
from builder.publish.feeds import MAX_ENTRIES, FeedEntry, atom
from builder.tdqs.bulk import DATASETS, FOLDER
from builder.tdqs.pages.changes import HISTORY, ChangeRow, Changes, change_rows
from builder.tdqs.pages.views import BadgeView, server_history, server_scores
from builder.tdqs.reader import STAND_IN_PREFIX, Capture, Server, ToolRecord

SITE_FEED = "feed.xml"
DOWNLOADS = f"{FOLDER}/index.html"


def server_feed_path(server: Server) -> str:
    return f"servers/{server.slug}/feed.xml"


def badge_label(capture: Capture) -> str:
    """A stand-in's score says so on the badge too, wherever the badge is pasted."""
    model = capture.report.model or ""
    return "TDQS (stand-in)" if model.startswith(STAND_IN_PREFIX) else "TDQS"


def _snippet(config: SiteConfig, label: str, svg: str, page: str) -> str:
    base = snippet_base(config)
    return f"[![{label}]({urls.absolute(base, svg)})]({urls.absolute(base, page)})"


def _stable_snippet(config: SiteConfig, label: str, endpoint: str, page: str) -> str | None:
    """shields.io's endpoint badge over the stable endpoint: the pasted Markdown keeps showing the
    current grade after a rescore. shields.io fetches the JSON itself, so it needs the absolute URL."""
    if not config.has_absolute_base:
        return None
    base = config.absolute_base
    image = shields_endpoint_badge(urls.absolute(base, endpoint))
    return f"[![{label}]({image})]({urls.absolute(base, page)})"


def _view(badges: BadgeSet, badge: Badge, page: str, endpoint: str, config: SiteConfig, *, stable: bool) -> BadgeView:
    svg = badges.svg_path(badge)
    markdown = _snippet(config, f"{badge.label} {badge.message}", svg, page)
    return BadgeView(
        svg_path=svg, endpoint_path=endpoint, markdown=markdown, stable_endpoint=stable,
        stable_markdown=_stable_snippet(config, badge.label, endpoint, page) if stable else None,
    )


def server_badge(server: Server, config: SiteConfig, badges: BadgeSet) -> tuple[BadgeView, DataFile]:
    """The server's badge, and its stable shields.io endpoint beside the scorecard."""
    scores = server_scores(server.current)
    badge = Badge(badge_label(server.current), scores.overall_tier, scores.overall_score)
    page = urls.server_page(server.slug)
    endpoint = urls.badge_endpoint(page)
    return _view(badges, badge, page, endpoint, config, stable=True), DataFile(endpoint, badge.endpoint())


def tool_badge(server: Server, tool: ToolRecord, config: SiteConfig, badges: BadgeSet) -> BadgeView:
    """A tool's badge: SVG and endpoint JSON are the ones shared by every tool with its grade."""
    badge = Badge(badge_label(server.current), tool.checked.tier, tool.checked.tdqs)
    page = urls.tool_page(server.slug, tool.slug)
    return _view(badges, badge, page, badges.endpoint_path(badge), config, stable=False)


def server_history_chart(server: Server) -> dict[str, Any] | None:
    if len(server.captures) < 2:
        return None
    points = server_history(server)
    return charts.line("Overall score across captures", [p.scored_at for p in points],
                       [p.tdqs for p in points], y_title="overall", range_=(1, 5), dates=True)


def tool_history_chart(server: Server, tool: ToolRecord) -> dict[str, Any] | None:
    if len(server.captures) < 2:
        return None
    x, y = [], []
    for capture in server.captures:
        match = next((t for t in capture.tools if t.name == tool.name), None)
        x.append(capture.generated_at)
        y.append(match.checked.tdqs if match else None)
    if sum(value is not None for value in y) < 2:
        return None
    return charts.line("TDQS across captures", x, y, y_title="TDQS", range_=(1, 5), dates=True)


def feed_entry(row: ChangeRow) -> FeedEntry:
    """A change as a feed entry: whose server it is, as its page says it (issue 49: same-named
    servers, forks, are told apart in a feed reader), and what moved."""
    title = f"{row.server_name} ({row.server_identity}): {'first scored' if row.new else 'rescored'}, overall {row.overall}"
    summary = "; ".join(row.lines) or f"First capture: overall {row.overall}."
    return FeedEntry(row.entry_key, title, row.scored_at, row.server_page, summary)


def server_entries(server: Server) -> list[FeedEntry]:
    return [feed_entry(row) for row in change_rows(server)]


def server_feed(server: Server, config: SiteConfig) -> DataFile:
    """Written only when the server changed: the feed is made when it is rendered, not planned."""
    title = f"{server.display_name}: TDQS changes"
    path = server_feed_path(server)
    return DataFile(path, lambda: atom(title, path, server_entries(server), config), key=server.digest)


def site_feed(changes: Changes, config: SiteConfig) -> DataFile:
    """The newest of every change (builder.tdqs.pages.changes), as the changes pages begin."""
    entries = [feed_entry(row) for row in changes.newest(MAX_ENTRIES)]
    return DataFile(SITE_FEED, atom(f"{config.title}: grade changes", SITE_FEED, entries, config, history=HISTORY))


class DownloadsContext(PageContext):
    datasets: list[tuple[str, str, list[tuple[str, str]]]]


def downloads_page() -> Page:
    return Page(DOWNLOADS, "tdqs/downloads.html", DownloadsContext(
        title="Bulk data", description="The whole corpus as Parquet, CSV and JSON Lines.",
        datasets=[(d.name, d.description, list(d.columns)) for d in DATASETS]))
