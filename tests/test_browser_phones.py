"""Issue 49, "Visitors": tables on a phone and the owner/repository line, in a real browser over a
generated registry.

At 390 px every page kind with a data table keeps the column that says what a row is (a server's
name, a tool's name, a dimension, a measure, a file's system, a download's column) in view while
the others scroll sideways, no wider than 45% of the screen, and a column of sentences beside it
keeps at least 120 px (the changes page gave "What changed" 81 px and rows of 1,500 px, under a
144 px date column). Dimension scores are right-aligned, as figures in tables are. At 1920 px the
owner/repository line under a server's name is one line in every list row.

Server and tool names are read from the corpus's own files, never from the builder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from browser import chromium, served

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

BASE = "/scorecards/"
PHONE = 390
MAX_STICKY = 0.45
PROSE_MIN = 120

MEASURE = """(table) => {
  const box = (c) => c.getBoundingClientRect();
  const rows = [...table.querySelectorAll('tbody tr')].filter((r) => !r.classList.contains('group')).slice(0, 3);
  const cells = (row) => [...row.children].map((c) => ({
    text: c.innerText.trim(), sticky: getComputedStyle(c).position === 'sticky',
    width: box(c).width, align: getComputedStyle(c).textAlign, cls: c.className}));
  const headings = [...table.querySelectorAll('thead tr:first-child > *')].map((c) => ({text: c.innerText.trim(), width: box(c).width}));
  const before = rows.map(cells);
  const scroller = getComputedStyle(table).overflowX === 'auto' ? table : table.closest('.table-wrap');
  if (!scroller) { return {headings, rows: before, stuck: rows.map(() => null), scrolled: 0}; }
  scroller.scrollLeft = scroller.scrollWidth;
  const left = box(scroller).left + parseFloat(getComputedStyle(scroller).borderLeftWidth);
  const stuck = rows.map((r) => { const s = [...r.children].find((c) => getComputedStyle(c).position === 'sticky');
    return s ? box(s).left - left : null; });
  const scrolled = scroller.scrollLeft;
  scroller.scrollLeft = 0;
  return {headings, rows: before, stuck, scrolled};
}"""


@dataclass(frozen=True)
class Table:
    """A table on a page: found by a heading of its own; `names` is the column heading of the
    cell that says what a row is, `prose` a column of sentences that must keep its share."""

    page: str
    heading: str
    names: str
    prose: str | None = None
    known: str | None = None
    """'servers' or 'tools': the identifying cell's link must be one of the corpus's names."""


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Table], dict[str, set[str]]]]:
    root = tmp_path_factory.mktemp("phones")
    data, out = root / "data", root / "site"
    generate_demo(data, servers=60, tools=150, seed=5, history_share=0.3, fork_share=0.3, workers=1)
    build(data, out, SiteConfig(base_url=BASE))
    servers, tools = set(), set()
    for folder in (data / "servers").iterdir():
        servers.add(json.loads((folder / "server.json").read_text(encoding="utf-8"))["displayName"])
        newest = sorted(folder.glob("*.score.json"))[-1]
        tools |= {tool["name"] for tool in json.loads(newest.read_text(encoding="utf-8"))["tools"]}
    server = sorted(out.glob("servers/*/tools/*/index.html"))[0].parents[2].name
    tool = next(p.parent.name for p in sorted((out / "servers" / server / "tools").glob("*/index.html")))
    category = max((p.parent.name for p in out.glob("categories/*/index.html")),
                   key=lambda c: (out / "categories" / c / "index.html").read_text(encoding="utf-8").count("<tr>"))
    tables = [
        Table("servers/", "Server", "Server", known="servers"),
        Table("servers-by/score/2/", "Server", "Server", known="servers"),
        Table(f"categories/{category}/", "Rank", "Server", known="servers"),
        Table("changes/", "What changed", "Server", prose="What changed", known="servers"),
        Table(f"servers/{server}/", "TDQS", "Tool", known="tools"),
        Table(f"servers/{server}/", "Anchor, justification", "Dimension", prose="Anchor, justification"),
        Table(f"servers/{server}/tools/{tool}/", "Anchor, justification", "Dimension", prose="Anchor, justification"),
        Table(f"compare/{server}/", "Measure", "Measure"),
        Table("problems/", "System", "System"),
        Table("", "Meaning", "Tier", prose="Meaning"),
        Table("", "Weight", "Dimension"),
        Table("downloads/", "Column", "Column", prose="Meaning"),
    ]
    with served(out, BASE) as url:
        yield url, tables, {"servers": servers, "tools": tools}


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def _measure(page, table: Table) -> dict:  # type: ignore[no-untyped-def]
    found = page.locator("table.data").filter(has=page.locator("thead th", has_text=table.heading)).first
    return found.evaluate(MEASURE)


def test_every_table_keeps_the_cell_that_names_its_row_in_view_on_a_phone(registry, browser) -> None:
    base, tables, names = registry
    page = browser.new_page(viewport={"width": PHONE, "height": 844})
    failures: list[str] = []
    opened = None
    for table in tables:
        if opened != table.page:
            page.goto(base + table.page, wait_until="networkidle")
            opened = table.page
        where = f"{table.page or 'home'} [{table.heading}]"
        got = _measure(page, table)
        headings = [h["text"] for h in got["headings"]]
        column = next(i for i, h in enumerate(headings) if h.startswith(table.names))
        assert got["rows"], where
        for row, stuck in zip(got["rows"], got["stuck"], strict=True):
            if table.prose:
                prose = next(i for i, h in enumerate(headings) if h.startswith(table.prose))
                if row[prose]["width"] < PROSE_MIN:
                    failures.append(f"{where}: {table.prose!r} is {row[prose]['width']:.0f} px wide, under {PROSE_MIN}")
            sticky = [i for i, cell in enumerate(row) if cell["sticky"]]
            if sticky[:1] != [column]:
                failures.append(f"{where}: the sticky column is {[headings[i] for i in sticky]}, not {table.names}")
                continue
            cell = row[column]
            if table.known and not any(cell["text"].startswith(name) for name in names[table.known]):
                failures.append(f"{where}: the sticky cell {cell['text']!r} names no {table.known[:-1]} of the corpus")
            if cell["width"] > MAX_STICKY * PHONE:
                failures.append(f"{where}: the sticky cell is {cell['width']:.0f} px wide, over {MAX_STICKY:.0%} of {PHONE}")
            if got["scrolled"] and abs(stuck) > 1:
                failures.append(f"{where}: scrolled sideways, the sticky cell sits {stuck:.0f} px from the edge")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    page.close()
    assert overflow <= 2
    assert not failures, "\n".join(dict.fromkeys(failures))


def test_dimension_scores_are_right_aligned(registry, browser) -> None:
    base, tables, _ = registry
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    checked = 0
    for table in tables:
        if table.names not in ("Dimension", "Measure") or table.page == "":
            continue
        page.goto(base + table.page, wait_until="networkidle")
        got = _measure(page, table)
        headings = [h["text"] for h in got["headings"]]
        for row in got["rows"]:
            for heading, cell in zip(headings[1:], row[1:], strict=True):
                if heading != table.prose and re.match(r"([A-F] )?\d(\.\d)?\b", cell["text"]):
                    assert cell["align"] == "right", (table.page, table.heading, cell)
                    assert "num" in cell["cls"].split(), (table.page, table.heading, cell)
                    checked += 1
    page.close()
    assert checked >= 10


def test_the_owner_and_repository_line_of_list_rows_is_one_line_at_1920(registry, browser) -> None:
    base, tables, _ = registry
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    lines = 0
    for path in dict.fromkeys(t.page for t in tables if t.known == "servers"):
        page.goto(base + path, wait_until="networkidle")
        heights = page.eval_on_selector_all(
            "table.data td .who",
            "(all) => all.map((w) => [w.innerText, w.getBoundingClientRect().height, parseFloat(getComputedStyle(w).lineHeight)])")
        assert heights, path
        wrapped = [(text, height, line) for text, height, line in heights if abs(height - line) > 1]
        assert not wrapped, (path, wrapped[:5], f"{len(wrapped)} of {len(heights)}")
        lines += len(heights)
    page.close()
    assert lines >= 50

