"""The changes pages: every change of every server, newest first, `paging.PER_PAGE` rows a page.

A change is a server's capture: its first (the server is new, "first scored, overall B 3.2") or a
later one that moved something against the one before it (the overall score, a tool). The same
rows make the feeds (builder.tdqs.pages.publish): an entry of a feed is a row of these pages, so
the feed and the pages cannot disagree about what changed or in which order.

At registry scale there are tens of thousands of changes, so each server's rows go to DuckDB
(`tdqs_changes`, each row's view as JSON beside the keys it is ordered by), and the pages, the
home page's newest few and the site feed are a query's answer in one order: newest instant first
(`instant_key`, never the timestamp's text), then the feed entry's id. A page's rows stay JSON
text until it is rendered.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

import duckdb

from builder import urls
from builder.dates import instant_key
from builder.pages.page import Page, PageContext
from builder.pages.paging import PER_PAGE, Pager, pager
from builder.store.tables import encode_rows
from builder.tdqs import queries
from builder.tdqs.identity import identity
from builder.tdqs.pages.views import View, overall_change, server_scores, tool_changes
from builder.tdqs.reader import Server

TABLE = "tdqs_changes"
COLUMNS = {"entry_key": "VARCHAR", "instant": "VARCHAR", "new": "BOOLEAN", "row": "VARCHAR"}
"""A change as stored: its feed entry's id and instant (what the changes are ordered by), whether
the server was new, and the `ChangeRow` as JSON."""


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
    server_id: str
    server_slug: str
    server_page: str
    server_name: str
    server_identity: str
    """Whose server it is (builder.tdqs.identity), under its name."""
    capture_id: str
    scored_at: str
    new: bool
    """The server's first capture: nothing before it to change from."""
    changes: list[str]
    """The server-level line: every change of the overall score, with its tier change when there is one."""
    overall_before: float | None
    overall_after: float | None
    overall_tier_after: str | None
    overall_delta: float | None
    """None when either capture's overall score is not published (below 80% coverage), or it is new."""
    tools: list[ToolChange]

    @property
    def entry_key(self) -> str:
        """Its feed entry's stable id: `servers/<server-id>/<capture-id>`."""
        return f"servers/{self.server_id}/{self.capture_id}"

    @property
    def overall(self) -> str:
        """The overall grade after it, in words: `B 3.2`, or `not published`."""
        tier, score = self.overall_tier_after, self.overall_after
        return f"{tier} {score:.1f}" if tier and score is not None else "not published"

    @property
    def lines(self) -> list[str]:
        """What moved, a line each: the overall score's, then each tool's (none for a new server)."""
        return [*self.changes, *(f"{t.name}: {', '.join(t.changes)}" for t in self.tools)]


def _delta(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else round(after - before, 1)


def change_rows(server: Server) -> list[ChangeRow]:
    """The server's first capture ("new"), then each capture that changed something against the
    one before it: the overall score's net delta (a change inside a tier included: 3.5 → 3.8 is a
    change, not "no change"), and every tool that moved with its TDQS delta and a link to its page."""
    pages = {tool.name: urls.tool_page(server.slug, tool.slug) for tool in server.current.tools}
    who = identity(server.server_id, server.meta.repository_url).label
    first = server_scores(server.captures[0])
    same = {"server_id": server.server_id, "server_slug": server.slug, "server_page": urls.server_page(server.slug),
            "server_name": server.display_name, "server_identity": who}
    rows = [ChangeRow(
        **same, capture_id=server.captures[0].capture_id, scored_at=server.captures[0].generated_at, new=True,
        changes=[], overall_before=None, overall_after=first.overall_score, overall_tier_after=first.overall_tier,
        overall_delta=None, tools=[],
    )]
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
            **same, capture_id=capture.capture_id, scored_at=capture.generated_at, new=False,
            changes=lines, overall_before=old_scores.overall_score, overall_after=new_scores.overall_score,
            overall_tier_after=new_scores.overall_tier,
            overall_delta=_delta(old_scores.overall_score, new_scores.overall_score), tools=tools,
        ))
    return rows


def table_rows(rows: list[ChangeRow]) -> bytes:
    """A server's changes as rows of `TABLE`, encoded for loading."""
    return encode_rows(COLUMNS, ((row.entry_key, instant_key(row.scored_at), row.new, row.model_dump_json())
                                 for row in rows))


@dataclass(frozen=True)
class Changes:
    """Every change, newest first, `PER_PAGE` to a page as the changes pages show them: each page's
    `ChangeRow`s as JSON lines, compressed, made rows when the page is rendered. A registry's 20,464
    changes are held from the plan to the render: about 17 MiB of JSON as text."""

    pages: list[bytes]
    total: int
    """How many changes there are."""
    new: int
    """How many of them are new servers."""

    def page(self, number: int) -> list[ChangeRow]:
        """The changes on page `number` (from 1)."""
        if number > len(self.pages):
            return []
        return [ChangeRow.model_validate_json(row) for row in zlib.decompress(self.pages[number - 1]).split(b"\n")]

    def newest(self, count: int) -> list[ChangeRow]:
        rows: list[ChangeRow] = []
        for number in range(1, -(-count // PER_PAGE) + 1):
            rows.extend(self.page(number))
        return rows[:count]


def every_change(con: duckdb.DuckDBPyConnection) -> Changes:
    """Every change in the store, newest first (queries/changes.sql)."""
    cursor = con.execute(queries.sql("changes"))
    pages: list[bytes] = []
    total = new = 0
    while found := cursor.fetchmany(PER_PAGE):
        pages.append(zlib.compress("\n".join(row for row, _ in found).encode("utf-8")))
        total += len(found)
        new += sum(1 for _, is_new in found if is_new)
    return Changes(pages, total, new)


HISTORY = urls.download_file("tool-scores-history", "csv.gz")
"""Every tool's scores in every capture: the full history behind the changes pages and the feed."""


class ChangesContext(PageContext):
    rows: list[ChangeRow]
    total: int
    """How many changes there are, on every page."""
    new: int
    """How many of them are new servers."""
    pager: Pager
    history_path: str


def _context(all_changes: Changes, number: int, count: int, stand_ins: list[str]) -> ChangesContext:
    return ChangesContext(
        title="Recent changes" if number == 1 else f"Recent changes, page {number}",
        description="What moved between consecutive captures of each server, and each new server, newest first.",
        rows=all_changes.page(number), total=all_changes.total, new=all_changes.new,
        pager=pager(number, count, all_changes.total, urls.changes_page),
        history_path=HISTORY, stand_in_models=stand_ins,
    )


def changes_pages(all_changes: Changes, stand_ins: list[str]) -> Iterator[Page]:
    """`changes/`, `changes/2/` …: every change, newest first; `stand_ins`: the corpus's stand-in
    models (the pages say their scores may be theirs)."""
    count = max(1, len(all_changes.pages))
    for number in range(1, count + 1):
        yield Page(urls.changes_page(number), "tdqs/changes.html", partial(_context, all_changes, number, count,
                                                                           stand_ins))
