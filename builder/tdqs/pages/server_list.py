"""The servers list: every server of the registry, as pages of a fixed number of rows.

One page of fifteen thousand rows is megabytes of HTML that no phone lays out in time, so the list
is cut into pages of `paging.PER_PAGE` rows, each a plain HTML page that works without JavaScript:
one sequence of pages per order a visitor asks for (best score, name, tool count, newest score),
one per tier (a filter, with the count of each tier over the whole list), and next/previous links.
Page 1 of the score order is `servers/index.html`, as before; the others live under
`servers-by/`, beside `servers/`, so no server's slug can name one of them.

With JavaScript, static/tables.js filters and sorts the whole list in the browser from
`api/server-list.json`, which it loads only when the visitor first types or sorts. Each row's cells
are made once, here (`Cell`): the template renders them, and the JSON carries the same texts, so
a row looks the same whether the page or the script drew it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import duckdb
from pydantic import BaseModel, ConfigDict
from tdqs import TIERS as TDQS_TIERS

from builder import numbers, urls
from builder.dates import day_words
from builder.pages.page import DataFile, Page, PageContext
from builder.pages.paging import PER_PAGE, Pager, pager, split
from builder.tdqs import queries
from builder.tdqs.identity import identity
from builder.tdqs.models import CurrentScores
from builder.tdqs.pages.corpus import TdqsSection
from builder.tdqs.pages.unscored import UnscoredSummary

TIERS = tuple(definition.tier for definition in TDQS_TIERS)
"""The tier letters, best first, as the tdqs rubric defines them."""
NOT_PUBLISHED = "not published"
"""A scored server below 80% coverage: its overall score is not published."""
NOT_SCORED = "not scored"
INDEX = "api/server-list.json"


class Cell(BaseModel):
    """One cell of a row: what it sorts by and what it shows."""

    model_config = ConfigDict(frozen=True)

    sort: float | str
    text: str
    tier: str | None = None
    """A tier letter: the text is shown as that tier's badge."""
    state: bool = False
    """The text is a state ("not scored yet"), shown muted."""
    datetime: str | None = None
    """The text is this timestamp in words, shown in a `<time>` element."""
    prefix: str = ""

    def compact(self) -> list[object]:
        return [self.sort, self.text, self.tier, self.state, self.datetime, self.prefix]


class Column(BaseModel):
    model_config = ConfigDict(frozen=True)

    heading: str
    numeric: bool
    order: str | None
    """The list order this column's heading links to, if it has one of its own."""


COLUMNS = (
    Column(heading="Server", numeric=False, order="name"),
    Column(heading="Overall", numeric=True, order="score"),
    Column(heading="Scored", numeric=False, order="date"),
    Column(heading="Description quality", numeric=True, order=None),
    Column(heading="Coherence", numeric=True, order=None),
    Column(heading="Mean TDQS", numeric=True, order=None),
    Column(heading="Min TDQS", numeric=True, order=None),
    Column(heading="Tools", numeric=True, order="tools"),
    Column(heading="Tools with smells", numeric=True, order=None),
    Column(heading="Flagged", numeric=True, order=None),
)


class ServerListRow(BaseModel):
    """A server as the list shows it; `scores` is None when it has no usable score yet."""

    model_config = ConfigDict(frozen=True)

    server_id: str
    slug: str
    display_name: str
    identity: str
    """Whose server it is, shown under its name (builder.tdqs.identity)."""
    find: str
    """What else "Find a server" finds it by, besides its name and identity (which shows its id,
    repository and owner, builder.tdqs.identity): its repository's URL, as a maintainer pastes it."""
    page: str
    tier: str
    """Its overall tier, or NOT_PUBLISHED, or NOT_SCORED: what the tier filter goes by."""
    reason: str | None
    """Why it is not scored yet."""
    when: str
    """When its current capture was scored (or, not scored, captured)."""
    tool_count: int
    overall: float | None
    mean: float | None
    cells: list[Cell]
    """The cells after the server's name, one per column of COLUMNS[1:]."""

    def cell(self, heading: str) -> Cell:
        """The cell under the column `heading` (`Overall`): for pages that show a few of them."""
        return self.cells[[column.heading for column in COLUMNS[1:]].index(heading)]


def _scored_cells(scores: CurrentScores, when: str, smelly: int, flagged: int) -> list[Cell]:
    published = scores.coverage_ok
    dq = scores.description_quality_score
    return [
        Cell(sort=scores.overall_score if scores.overall_score is not None else -1,
             text=numbers.fixed(scores.overall_score) if published else "below 80% coverage",
             tier=scores.overall_tier if published else None, state=not published),
        Cell(sort=when, text=day_words(when), datetime=when),
        Cell(sort=dq if dq is not None else -1, text=numbers.fixed(dq) if published else "—",
             tier=scores.description_quality_tier if published else None),
        Cell(sort=scores.coherence_score, text=numbers.fixed(scores.coherence_score), tier=scores.coherence_tier),
        Cell(sort=scores.mean_tdqs, text=numbers.fixed(scores.mean_tdqs)),
        Cell(sort=scores.min_tdqs, text=numbers.fixed(scores.min_tdqs)),
        Cell(sort=scores.tool_count, text=str(scores.scored_tool_count) if scores.scored_tool_count == scores.tool_count
             else f"{scores.scored_tool_count} of {scores.tool_count}"),
        Cell(sort=smelly, text=str(smelly)),
        Cell(sort=flagged, text=str(flagged)),
    ]


def _unscored_cells(captured_at: str, tool_count: int) -> list[Cell]:
    dash = Cell(sort=-2, text="—")
    return [
        Cell(sort=-2, text="not scored yet", state=True),
        Cell(sort=captured_at, text=day_words(captured_at), datetime=captured_at, prefix="captured "),
        dash, dash, dash, dash,
        Cell(sort=tool_count, text=f"0 of {tool_count}" if tool_count else "—"),
        dash, dash,
    ]


SCORE_FIELDS = tuple(CurrentScores.model_fields)
"""The columns of `queries/server_list.sql` a scored server's `CurrentScores` is made of."""
_AT = {name: position for position, name in enumerate(SCORE_FIELDS)}


@dataclass(frozen=True, slots=True)
class ScoredServer:
    """A scored server as the list query returns it: its current scores as the values of
    `SCORE_FIELDS`, made into a `CurrentScores` only when a page showing its row is rendered."""

    server_id: str
    slug: str
    display_name: str
    score_values: tuple[Any, ...]
    repository_url: str | None = None
    categories: tuple[str, ...] = ()

    @property
    def scores(self) -> CurrentScores:
        return CurrentScores(**dict(zip(SCORE_FIELDS, self.score_values, strict=True)))

    @property
    def tool_count(self) -> int:
        return int(self.score_values[_AT["tool_count"]])

    @property
    def tier(self) -> str:
        """Its overall tier, or NOT_PUBLISHED below 80% coverage: read from the values, as the list's
        views ask it of every server once per tier (making the scores each time cost a second at
        registry scale)."""
        tier = self.score_values[_AT["overall_tier"]]
        return str(tier) if self.score_values[_AT["coverage_ok"]] and tier else NOT_PUBLISHED


@dataclass(frozen=True, slots=True)
class ListEntry:
    """A server's place in the list, compact: its row (`row()`, with its cells) is made only when a
    page showing it is rendered, so the build holds fifteen thousand of these, not of rows."""

    server: ScoredServer | UnscoredSummary
    when: str
    """When its current capture was scored (or, not scored, captured)."""
    smelly: int = 0
    flagged: int = 0

    @property
    def display_name(self) -> str:
        return self.server.display_name

    @property
    def slug(self) -> str:
        return self.server.slug

    @property
    def tool_count(self) -> int:
        return self.server.tool_count

    @property
    def categories(self) -> tuple[str, ...]:
        return self.server.categories

    @property
    def overall(self) -> float | None:
        """The published overall score (None below 80% coverage or not scored)."""
        server = self.server
        if isinstance(server, UnscoredSummary) or server.tier == NOT_PUBLISHED:
            return None
        value = server.score_values[_AT["overall_score"]]
        return None if value is None else float(value)

    @property
    def tier(self) -> str:
        server = self.server
        return NOT_SCORED if isinstance(server, UnscoredSummary) else server.tier

    def _who(self) -> dict[str, str]:
        s = self.server
        who = identity(s.server_id, s.repository_url)
        return {"identity": who.label, "find": s.repository_url or ""}

    def row(self) -> ServerListRow:
        s = self.server
        if isinstance(s, UnscoredSummary):
            return ServerListRow(
                server_id=s.slug, slug=s.slug, display_name=s.display_name, **self._who(),
                page=urls.server_page(s.slug),
                tier=NOT_SCORED, reason=s.reason, when=s.captured_at, tool_count=s.tool_count, overall=None,
                mean=None, cells=_unscored_cells(s.captured_at, s.tool_count),
            )
        scores = s.scores
        return ServerListRow(
            server_id=s.server_id, slug=s.slug, display_name=s.display_name, **self._who(),
            page=urls.server_page(s.slug), tier=self.tier, reason=None, when=self.when, tool_count=scores.tool_count,
            overall=scores.overall_score, mean=scores.mean_tdqs,
            cells=_scored_cells(scores, self.when, self.smelly, self.flagged),
        )


def list_entries(con: duckdb.DuckDBPyConnection, corpus: TdqsSection) -> list[ListEntry]:
    """Every server, scored and not, best overall score first (the query's order), then those
    not scored yet by name. A scored server's entry is made from the query's row: the build's
    process keeps no per-server summary of its own."""
    entries = [
        ListEntry(
            ScoredServer(found["server_id"], found["slug"], found["display_name"],
                         tuple(found[name] for name in SCORE_FIELDS), found["repository_url"],
                         tuple(found["categories"] or ())),
            found["generated_at"], found["smelly_tools"], found["flagged_tools"],
        )
        for found in queries.run(con, "server_list")
    ]
    entries += [ListEntry(s, s.captured_at)
                for s in sorted(corpus.unscored, key=lambda s: (s.display_name.lower(), s.slug))]
    return entries


def _by_name(row: ListEntry) -> tuple[str, str]:
    return row.display_name.lower(), row.slug


ORDERS: dict[str, tuple[str, Callable[[list[ListEntry]], list[ListEntry]]]] = {
    "score": ("best overall score first", lambda rows: rows),
    "name": ("by name, A to Z", lambda rows: sorted(rows, key=_by_name)),
    "tools": ("most tools first", lambda rows: sorted(rows, key=lambda r: (-r.tool_count, *_by_name(r)))),
    "date": ("most recently scored first", lambda rows: sorted(
        sorted(rows, key=_by_name), key=lambda r: r.when, reverse=True)),
}
"""Each order's label and how it sorts the list (given in score order). Sorting is stable, so
ties keep the order before them: by name for dates, by name for tool counts."""


def tier_view(tier: str) -> str:
    return "tier-" + tier.lower().replace(" ", "-")


class ViewLink(BaseModel):
    model_config = ConfigDict(frozen=True)

    label: str
    path: str
    count: int | None = None
    current: bool = False


class ServersContext(PageContext):
    rows: list[ServerListRow]
    columns: list[Column]
    order: str
    """The order of the rows (a key of ORDERS), or the tier view's order (score)."""
    summary: str
    """What this sequence of pages lists, in words: "1,504 servers, best overall score first"."""
    pager: Pager
    orders: list[ViewLink]
    tiers: list[ViewLink]
    """All servers, then each tier present, with its count over the whole list."""
    order_paths: dict[str, str]
    """Page 1 of each order, for the column headings."""
    whole_list: bool
    """The page holds the whole list (its own rows can be sorted and filtered in place); otherwise
    the script sorts and filters `index_path`."""
    index_path: str
    tier_filter: str | None
    """The tier this view shows, if it is a tier's."""
    csv_path: str


def tier_order(tier: str) -> int:
    """A tier's place in a ranking: A … F, then not published, then not scored."""
    return TIERS.index(tier) if tier in TIERS else len(TIERS) + (tier == NOT_SCORED)


def _list_json(entries: list[ListEntry]) -> str:
    """The whole list for the browser, in score order: per row its page, name, tier, reason, cells,
    identity and what else "Find a server" finds it by (static/tables.js)."""
    body = {
        "columns": [column.heading for column in COLUMNS],
        "rows": [
            [r.page, r.display_name, r.tier, r.reason, [c.compact() for c in r.cells], r.identity, r.find]
            for r in (entry.row() for entry in entries)
        ],
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def _page_context(entries: list[ListEntry], **fields: Any) -> ServersContext:
    return ServersContext(rows=[entry.row() for entry in entries], **fields)


def server_list_outputs(con: duckdb.DuckDBPyConnection, corpus: TdqsSection,
                        entries: list[ListEntry] | None = None) -> Iterator[Page | DataFile]:
    """`entries`: `list_entries(con, corpus)`, when the caller has them already."""
    rows = entries if entries is not None else list_entries(con, corpus)
    counts = Counter(row.tier for row in rows)
    tiers = sorted(counts, key=tier_order)
    views: dict[str, tuple[str, list[ListEntry]]] = {
        key: (label, sort(rows)) for key, (label, sort) in ORDERS.items()
    }
    for tier in tiers:
        views[tier_view(tier)] = (f"best overall score first, tier {tier}" if tier in TIERS else tier,
                                  [row for row in rows if row.tier == tier])
    unscored = counts[NOT_SCORED]
    everything = f"{len(rows):,} servers" + (f" ({unscored:,} not scored yet)" if unscored else "")
    yield DataFile(INDEX, partial(_list_json, rows))
    for key, (label, view_rows) in views.items():
        pages = split(view_rows)
        shown_tier = next((t for t in tiers if tier_view(t) == key), None)
        for number, page_rows in enumerate(pages, start=1):
            path = urls.server_list_page(key, number)
            summary = f"{everything}, {label}" if shown_tier is None else f"{len(view_rows):,} of {everything}: {label}"
            yield Page(path, "tdqs/servers.html", partial(
                _page_context, list(page_rows),
                title="All servers" if number == 1 and key == "score" else f"Servers, {label}, page {number}",
                description=f"{len(rows)} MCP servers with their TDQS scores.",
                columns=list(COLUMNS), order="score" if shown_tier else key, summary=summary,
                pager=pager(number, len(pages), len(view_rows), partial(urls.server_list_page, key)),
                orders=[ViewLink(label=label_, path=urls.server_list_page(k, 1), current=k == key)
                        for k, (label_, _) in ORDERS.items()],
                tiers=[ViewLink(label="all", path=urls.server_list_page("score", 1), count=len(rows),
                                current=shown_tier is None)]
                + [ViewLink(label=t, path=urls.server_list_page(tier_view(t), 1), count=counts[t],
                            current=t == shown_tier) for t in tiers],
                order_paths={k: urls.server_list_page(k, 1) for k in ORDERS},
                whole_list=len(rows) <= PER_PAGE, index_path=INDEX, tier_filter=shown_tier,
                csv_path=urls.download_file("servers", "csv.gz"), stand_in_models=corpus.stand_in_models,
            ))
