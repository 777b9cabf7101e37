"""Servers side by side: `compare/?s=<slug>&s=<slug>` for any two to four, and one static page per
scored server, `compare/<slug>/`, with its nearest neighbours.

A static site cannot hold a page per pair of fifteen thousand servers. So the page a visitor
chooses (ticked on the servers list, category pages or search results, up to four, and kept while
they browse: static/pick.js) is one page, `compare/`, whose query string
holds the choice: static/compare.js fills its table from each server's API JSON
(`api/servers/<slug>.json`, published anyway), inserting every text with `textContent`. Without
JavaScript that page says where the static comparisons are.

Each scored server's page links to its own static comparison, `compare/<slug>/`: the server and
up to three neighbours a reader would weigh it against, the servers of the same name first (a
registry holds forks and re-uploads under one name), then the next server up the list (better
scored) and the next one down. That is one extra page per scored server, no more, and it works
without JavaScript. Both pages draw a server's column from the same `Cell`s as the servers list,
and static/compare.js writes the texts the same way (a browser test checks they agree).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from fractions import Fraction
from functools import partial
from typing import Any

import duckdb
from pydantic import BaseModel, ConfigDict
from tdqs import COHERENCE_DIMENSIONS, TOOL_DIMENSIONS

from builder import numbers, urls
from builder.dates import day_words
from builder.pages.page import Page, PageContext
from builder.store.queries import PackedRows
from builder.tdqs import queries
from builder.tdqs.identity import identity
from builder.tdqs.pages.server_list import Cell

NEIGHBOURS = 3
"""Servers shown beside the one a static comparison is for: four columns fit a desktop table."""


class CompareRow(BaseModel):
    """One measure across the compared servers: its label and one cell per server (none on the
    chosen page, whose script fills the row named by `key`)."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    cells: list[Cell]


class CompareServer(BaseModel):
    model_config = ConfigDict(frozen=True)

    server_id: str
    slug: str
    display_name: str
    identity: str
    """Whose server it is, as its page says it under its name (builder.tdqs.identity): owner/repository, else its id."""
    page: str


class CompareContext(PageContext):
    servers: list[CompareServer]
    """The columns, left to right; empty on the chosen page (the script fills it)."""
    groups: list[tuple[str, list[CompareRow]]]
    """Each table body's heading and its rows: scores, tool dimensions, coherence, coverage."""
    chosen: bool
    """The page of the visitor's choice (`compare/`), which static/compare.js fills."""
    list_path: str


SCORES, TOOLS, COHERENCE, COVERAGE = (
    "Scores", "Tool dimensions (mean over the scored tools)", "Coherence dimensions", "Coverage and freshness",
)
MEASURES: tuple[tuple[str, str, str], ...] = (
    (SCORES, "overall", "Overall"),
    (SCORES, "description_quality", "Description quality"),
    (SCORES, "coherence", "Coherence"),
    (SCORES, "mean_tdqs", "Mean TDQS"),
    (SCORES, "min_tdqs", "Min TDQS"),
    *((TOOLS, d.key, d.name) for d in TOOL_DIMENSIONS),
    *((COHERENCE, d.key, d.name) for d in COHERENCE_DIMENSIONS),
    (COVERAGE, "coverage", "Tools scored"),
    (COVERAGE, "scored", "Scored"),
)
"""(group, key, label) of each row, in order. static/compare.js fills the rows by key."""


def _grade(score: float | None, tier: str | None, published: bool = True) -> Cell:
    if not published or score is None:
        return Cell(sort=-1, text="not published", state=True)
    return Cell(sort=score, text=numbers.fixed(score), tier=tier)


def measures(found: dict[str, Any]) -> dict[str, Cell]:
    """The cell of every measure (by key) a comparison shows of one server, a row of the
    `compare` query. static/compare.js makes the same texts from the server's API JSON."""
    ok = bool(found["coverage_ok"])
    scored = int(found["scored"])
    cells = {
        "overall": _grade(found["overall_score"], found["overall_tier"], ok),
        "description_quality": _grade(found["description_quality_score"], found["description_quality_tier"], ok),
        "coherence": _grade(found["coherence_score"], found["coherence_tier"]),
        "mean_tdqs": Cell(sort=found["mean_tdqs"], text=numbers.fixed(found["mean_tdqs"])),
        "min_tdqs": Cell(sort=found["min_tdqs"], text=numbers.fixed(found["min_tdqs"])),
    }
    for dimension in TOOL_DIMENSIONS:
        if not scored:
            cells[dimension.key] = Cell(sort=-1, text="—")
            continue
        mean = Fraction(int(found[dimension.key]), scored)
        cells[dimension.key] = Cell(sort=float(mean), text=numbers.fixed(mean, 2))
    for coherence in COHERENCE_DIMENSIONS:
        value = int(found[coherence.key])
        cells[coherence.key] = Cell(sort=value, text=f"{value} of 5")
    tools, counted = int(found["tool_count"]), int(found["scored_tool_count"])
    cells["coverage"] = Cell(sort=counted, text=f"{counted} of {tools}" + ("" if ok else " (below 80%: not published)"))
    when = str(found["generated_at"])
    cells["scored"] = Cell(sort=when, text=day_words(when), datetime=when)
    return cells


def _server(found: dict[str, Any]) -> CompareServer:
    return CompareServer(server_id=found["server_id"], slug=found["slug"], display_name=found["display_name"],
                         identity=identity(found["server_id"], found["repository_url"]).label,
                         page=urls.server_page(found["slug"]))


def neighbours(names: list[str]) -> list[list[int]]:
    """For each server of the list (`names`: their display names, in list order), the positions of
    the servers its static comparison shows beside it: those of the same name (ignoring case)
    nearest in the list, then the next server up, the next one down, then the second one down (or
    up: at either end of the list); at most NEIGHBOURS."""
    named: dict[str, list[int]] = {}
    for position, name in enumerate(names):
        named.setdefault(name.casefold(), []).append(position)
    result = []
    for position, name in enumerate(names):
        same = sorted((p for p in named[name.casefold()] if p != position), key=lambda p: (abs(p - position), p))
        chosen: list[int] = []
        for candidate in [*same, position - 1, position + 1, position + 2, position - 2]:
            if 0 <= candidate < len(names) and candidate != position and candidate not in chosen:
                chosen.append(candidate)
            if len(chosen) == NEIGHBOURS:
                break
        result.append(chosen)
    return result


def _groups(columns: list[dict[str, Cell]]) -> list[tuple[str, list[CompareRow]]]:
    grouped: dict[str, list[CompareRow]] = {}
    for group, key, label in MEASURES:
        grouped.setdefault(group, []).append(CompareRow(key=key, label=label, cells=[c[key] for c in columns]))
    return list(grouped.items())


class _Columns:
    """Each server's column of the static comparisons (its heading and its cells), made from its row
    when a page first shows it and kept for the next few pages: they are rendered in list order, and
    a server is shown by its own page and its neighbours', up to four pages in a row."""

    KEPT = 8

    def __init__(self, listed: PackedRows) -> None:
        self.listed = listed
        self._kept: dict[int, tuple[CompareServer, dict[str, Cell]]] = {}

    def __getitem__(self, position: int) -> tuple[CompareServer, dict[str, Cell]]:
        column = self._kept.get(position)
        if column is None:
            found = self.listed[position]
            column = self._kept[position] = (_server(found), measures(found))
            if len(self._kept) > self.KEPT:
                del self._kept[next(iter(self._kept))]  # the one made first
        return column


def _static_context(columns: _Columns, shown: list[int]) -> CompareContext:
    servers = [columns[p][0] for p in shown]
    first = servers[0].display_name
    names = ", ".join(server.display_name for server in servers[1:]) or "no other server (it is the only one)"
    return CompareContext(
        title=f"{first} compared",
        description=f"The MCP server {first} side by side with {names}: scores, tiers, "
                    "tool dimensions, coherence, coverage and freshness.",
        servers=servers,
        groups=_groups([columns[p][1] for p in shown]),
        chosen=False, list_path=urls.SERVERS,
    )


def _chosen_context() -> CompareContext:
    return CompareContext(
        title="Compare servers",
        description="Two to four MCP servers side by side: scores, tiers, tool dimensions, coherence, coverage "
                    "and freshness.",
        servers=[], groups=_groups([]), chosen=True, list_path=urls.SERVERS,
    )


def _key(listed: PackedRows, shown: list[int]) -> str:
    """What a static comparison is made from: its servers' rows (so a rebuild reuses it until one changes)."""
    text = repr([sorted(listed[p].items()) for p in shown])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def compare_outputs(con: duckdb.DuckDBPyConnection) -> Iterator[Page]:
    """The chosen comparison's page and each scored server's static comparison."""
    listed = queries.run_packed(con, "compare")
    columns = _Columns(listed)
    yield Page(urls.COMPARE, "tdqs/compare.html", _chosen_context())
    for position, others in enumerate(neighbours([str(found["display_name"]) for found in listed])):
        shown = [position, *others]
        yield Page(urls.compare_page(listed[position]["slug"]), "tdqs/compare.html",
                   partial(_static_context, columns, shown), key=_key(listed, shown))
