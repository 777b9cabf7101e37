"""The TDQS section's published extras: badges, history charts, recent changes, feeds, downloads."""

from __future__ import annotations

import itertools
from typing import Any

from builder import charts, urls
from builder.config import SiteConfig
from builder.dates import instant_key
from builder.newest import Newest
from builder.pages.page import DataFile, Page, PageContext
from builder.publish.badges import Badge, BadgeSet, shields_endpoint_badge
from builder.publish.card_view import snippet_base
from builder.publish.feeds import FeedEntry, atom
from builder.tdqs.bulk import DATASETS, FOLDER
from builder.tdqs.identity import identity
from builder.tdqs.pages.views import BadgeView, View, overall_change, server_history, server_scores, tool_changes
from builder.tdqs.reader import STAND_IN_PREFIX, Capture, Server, ToolRecord

CHANGES = "changes/index.html"
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


def server_entries(server: Server) -> list[FeedEntry]:
    entries = []
    for index, point in enumerate(server_history(server)):
        if index and not point.changes:
            continue
        score = f"{point.tier} {point.tdqs:.1f}" if point.tier and point.tdqs is not None else "not published"
        # Whose server, as its page says it (issue 49): same-named servers (forks) are told apart in a feed reader.
        who = identity(server.server_id, server.meta.repository_url).label
        title = f"{server.display_name} ({who}): {'first scored' if index == 0 else 'rescored'}, overall {score}"
        summary = "; ".join(point.changes) if point.changes else f"First capture: overall {score}."
        entries.append(FeedEntry(f"servers/{server.server_id}/{point.capture_id}", title, point.scored_at,
                                 urls.server_page(server.slug), summary))
    return entries


class ToolChange(View):
    """One tool's move between two consecutive captures of its server."""

    name: str
    page: str | None
    """The tool's page, when it has one (it is in the server's current tools)."""
    tdqs_before: float | None
    tdqs_after: float | None
    delta: float | None
    """after − before, rounded to the tenth both are given in; None when the tool was added or removed."""
    changes: list[str]


class ChangeRow(View):
    server_slug: str
    server_page: str
    server_name: str
    server_identity: str
    """Whose server it is (builder.tdqs.identity), under its name."""
    scored_at: str
    changes: list[str]
    """The server-level line: every change of the overall score, with its tier change when there is one."""
    overall_before: float | None
    overall_after: float | None
    overall_delta: float | None
    """None when either capture's overall score is not published (below 80% coverage)."""
    tools: list[ToolChange]


def _delta(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else round(after - before, 1)


def change_rows(server: Server) -> list[ChangeRow]:
    """Each capture that changed something, against the one before it: the overall score's net
    delta (a change inside a tier included: 3.5 → 3.8 is a change, not "no change"), and every tool
    that moved with its TDQS delta and a link to its page."""
    pages = {tool.name: urls.tool_page(server.slug, tool.slug) for tool in server.current.tools}
    who = identity(server.server_id, server.meta.repository_url).label
    rows = []
    for previous, capture in itertools.pairwise(server.captures):
        before = {t.name: t for t in previous.tools}
        after = {t.name: t for t in capture.tools}
        tools = []
        for name in sorted(set(before) | set(after)):
            moved = tool_changes(before.get(name), after.get(name))
            if not moved:
                continue
            old = before[name].checked.tdqs if name in before else None
            new = after[name].checked.tdqs if name in after else None
            tools.append(ToolChange(name=name, page=pages.get(name), tdqs_before=old, tdqs_after=new,
                                    delta=_delta(old, new), changes=moved))
        old_scores, new_scores = server_scores(previous), server_scores(capture)
        overall = overall_change(old_scores, new_scores)
        lines = [overall] if overall else []
        if not tools and not lines:
            continue
        rows.append(ChangeRow(
            server_slug=server.slug, server_page=urls.server_page(server.slug), server_name=server.display_name,
            server_identity=who, scored_at=capture.generated_at,
            changes=lines, overall_before=old_scores.overall_score, overall_after=new_scores.overall_score,
            overall_delta=_delta(old_scores.overall_score, new_scores.overall_score), tools=tools,
        ))
    return rows


HISTORY = urls.download_file("tool-scores-history", "csv.gz")
"""Every tool's scores in every capture: the full history behind the changes page and the feed."""
CHANGES_SHOWN = 50
"""The changes page keeps a recent window, so it stays light however large the registry: the
full history is every capture's scores in the bulk data (`tool-scores-history`)."""


class ChangesContext(PageContext):
    rows: list[ChangeRow]
    total: int
    """How many changes the corpus holds, of which `rows` are the newest."""
    history_path: str


def change_order(row: ChangeRow) -> tuple[str, str]:
    """The changes page lists changes by this, greatest (newest) first: by the instant, never the text."""
    return instant_key(row.scored_at), row.server_slug


def changes_page(newest: Newest[ChangeRow], stand_ins: list[str]) -> Page:
    """`newest`: every server's changes, of which the newest CHANGES_SHOWN are kept; `stand_ins`:
    the corpus's stand-in models (the page says its scores may be theirs)."""
    return Page(CHANGES, "tdqs/changes.html", ChangesContext(
        title="Recent changes", description="What moved between consecutive captures of each server, newest first.",
        rows=newest.items, total=newest.total, history_path=HISTORY, stand_in_models=stand_ins))


def server_feed(server: Server, config: SiteConfig) -> DataFile:
    """Written only when the server changed: the feed is made when it is rendered, not planned."""
    title = f"{server.display_name}: TDQS changes"
    path = server_feed_path(server)
    return DataFile(path, lambda: atom(title, path, server_entries(server), config), key=server.digest)


def site_feed(newest: Newest[FeedEntry], config: SiteConfig) -> DataFile:
    """`newest`: every server's feed entries, of which the newest the feed shows are kept."""
    return DataFile(SITE_FEED, atom(f"{config.title}: grade changes", SITE_FEED, newest.items, config, history=HISTORY))


class DownloadsContext(PageContext):
    datasets: list[tuple[str, str, list[tuple[str, str]]]]


def downloads_page() -> Page:
    return Page(DOWNLOADS, "tdqs/downloads.html", DownloadsContext(
        title="Bulk data", description="The whole corpus as Parquet, CSV and JSON Lines.",
        datasets=[(d.name, d.description, list(d.columns)) for d in DATASETS]))
