"""The newest few of a long stream: what a page or feed that shows a recent window keeps of it.

The changes page shows the newest 50 changes and the site feed the newest 100 entries, of every
server's; a registry has hundreds of thousands. Kept whole until the end, they grew the build's
process with the corpus; `Newest` keeps the window and a count as servers arrive.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Newest(Generic[T]):
    """The `keep` greatest of the items added by `key`, greatest first, exactly as
    `sorted(everything, key=key, reverse=True)[:keep]` gives them (equal keys in the order they were
    added: Python's sort is stable, reversed too), and `total`, how many were added.

    Keeping the window as items arrive gives the same window: an item that `keep` others precede
    among some of the items is preceded by them among all of them."""

    def __init__(self, keep: int, key: Callable[[T], Any]) -> None:
        self.keep = keep
        self.key = key
        self.items: list[T] = []
        self.total = 0

    def add(self, items: Iterable[T]) -> None:
        arrived = list(items)
        if arrived:
            self.total += len(arrived)
            # heapq.nlargest is documented to equal sorted(..., key=key, reverse=True)[:n], ties included.
            self.items = heapq.nlargest(self.keep, [*self.items, *arrived], key=self.key)
