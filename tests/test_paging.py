"""Long lists cut into pages: sizes, spans and the links around each page, worked out by hand."""

from __future__ import annotations

from builder.pages.paging import pager, split


def path(n: int) -> str:
    return "list/index.html" if n == 1 else f"list/{n}/index.html"


def test_split_keeps_every_row_once_in_order() -> None:
    rows = list(range(1, 251))
    pages = split(rows, 100)
    assert [len(p) for p in pages] == [100, 100, 50]
    assert [r for p in pages for r in p] == rows
    assert split([], 100) == [[]]


def test_the_pager_links_first_last_and_near_pages() -> None:
    middle = pager(7, 15, 1437, path, 100)
    assert (middle.first_row, middle.last_row) == (601, 700)
    assert middle.previous == "list/6/index.html" and middle.next == "list/8/index.html"
    assert [link.number for link in middle.links] == [1, 5, 6, 7, 8, 9, 15]
    last = pager(15, 15, 1437, path, 100)
    assert (last.first_row, last.last_row) == (1401, 1437) and last.next is None
    assert [link.number for link in last.links] == [1, 13, 14, 15]
    first = pager(1, 1, 0, path, 100)
    assert (first.first_row, first.last_row, first.previous, first.next) == (0, 0, None, None)
    assert [link.path for link in first.links] == ["list/index.html"]
