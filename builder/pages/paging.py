"""Long lists as pages of a fixed number of rows that work without JavaScript.

At registry scale a list of every server on one page was 8 MB and 200,000 DOM elements: no phone
renders that. So a list is cut into pages of `PER_PAGE` rows, in each of a few orders a visitor
asks for (each order its own sequence of pages, linked from the column headings), with
next/previous links. Sorting and filtering over the whole list still work, in the browser, from
a compact JSON index the page loads only when the visitor asks (static/tables.js).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

PER_PAGE = 50
"""Rows a page. A hundred rows of the servers list (1,700 elements) cost a simulated phone half a
second of table layout: Lighthouse's mobile performance 94 on a loaded machine; fifty halve it."""
NEARBY = 2
"""Page links shown on each side of the current page, besides the first and the last."""

Row = TypeVar("Row")


class PageLink(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    path: str


class Pager(BaseModel):
    """Where one page of a list stands: its rows' span, and links to the pages around it."""

    model_config = ConfigDict(frozen=True)

    number: int
    count: int
    """How many pages the list has in this order."""
    total_rows: int
    first_row: int
    """1-based index of the page's first row (0 for an empty list)."""
    last_row: int
    previous: str | None
    next: str | None
    links: list[PageLink]
    """The first and last pages and those near this one, in order (gaps between them are elided)."""


def split(rows: Sequence[Row], per_page: int = PER_PAGE) -> list[Sequence[Row]]:
    """`rows` in pages of `per_page`; an empty list is one empty page (the list page still exists)."""
    if not rows:
        return [rows]
    return [rows[start : start + per_page] for start in range(0, len(rows), per_page)]


def pager(number: int, count: int, total_rows: int, path_of: Callable[[int], str], per_page: int = PER_PAGE) -> Pager:
    """The pager of page `number` (1-based) of `count`; `path_of(n)` is page n's output path."""
    shown = sorted({1, count} | set(range(max(1, number - NEARBY), min(count, number + NEARBY) + 1)))
    first_row = (number - 1) * per_page + 1 if total_rows else 0
    return Pager(
        number=number, count=count, total_rows=total_rows, first_row=first_row,
        last_row=min(number * per_page, total_rows),
        previous=path_of(number - 1) if number > 1 else None,
        next=path_of(number + 1) if number < count else None,
        links=[PageLink(number=n, path=path_of(n)) for n in shown],
    )
