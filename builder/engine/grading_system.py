"""What a grading system gives the build: a reader, a loader, its pages and its navigation.

Every system implements the same interface, called the same way: `read` takes one `ReadContext`
(whatever a system does not need of it, it leaves), and nothing in the build knows a system by
name or branches on one. What differs between systems is declared here (`indexes_pages`), not
inferred.

The interface alone, so that a system's pages can say what they implement without importing the
registry of systems (builder.systems), which imports every system's pages: the build depends on
this interface and the registry, each system on this interface, and no module on a system it is
imported by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from builder.config import SiteConfig
from builder.engine.problems import ProblemLog
from builder.engine.search import SearchDoc
from builder.engine.workers import Workers
from builder.pages.page import NavItem, Output


@dataclass(frozen=True)
class ReadContext:
    """What every system's reader is given."""

    data_dir: Path
    log: ProblemLog
    """Where the problems of the files read are logged (never raised)."""
    config: SiteConfig
    """The site settings: a system may plan its records' own pages as it reads them (TDQS does,
    see builder.tdqs.pages.section)."""
    cache: Path | None = None
    """The build's cache folder (None when there is none), where a system may keep what it read
    for the next build."""
    workers: int = 1
    """How many processes may read the corpus (and later render what they read); 1: this one."""


@dataclass(frozen=True)
class GradingSystem:
    key: str
    read: Callable[[ReadContext], Any | None]
    """Reads and validates the system's files under the data directory; None when it has none."""
    load: Callable[[duckdb.DuckDBPyConnection, Any], None]
    """Loads the validated records into DuckDB tables named `<key>_…`."""
    outputs: Callable[[duckdb.DuckDBPyConnection, Any, SiteConfig], Iterable[Output]]
    """Every page and data file of the system's section (`Owned` where a worker holds it)."""
    nav: Callable[[Any], list[NavItem]]
    """Its entries in the site navigation."""
    stand_in_models: Callable[[Any], list[str]] = lambda corpus: []
    """Models named in the corpus that are stand-ins, so every page can say so."""
    data_as_of: Callable[[Any], str | None] = lambda corpus: None
    """The newest timestamp in the corpus (never the build's clock: builds are reproducible)."""
    page_dates: Callable[[duckdb.DuckDBPyConnection, Any], dict[str, str]] = lambda con, corpus: {}
    """When the data of the system's pages was captured, by folder (`servers/<slug>/` → its newest
    capture's timestamp): a page takes the date of the nearest folder above it, else `data_as_of`.
    The sitemap's `lastmod` (builder.publish.sitemap). Asked once the corpus is loaded."""
    owners: Callable[[Any], Workers | None] = lambda corpus: None
    """The worker processes that read the corpus and hold its `Owned` outputs, if it was read so."""
    search_docs: Callable[[Any], Iterable[SearchDoc]] = lambda corpus: ()
    """Compact search documents for Pagefind (see builder.engine.search), asked for before `load`."""
    indexes_pages: bool = True
    """Whether Pagefind indexes the system's rendered pages (its templates mark
    `data-pagefind-body`): the build then loads and plans the system before it starts Pagefind.
    A system that gives `search_docs` instead (a registry's) is loaded and planned while Pagefind
    indexes and its workers render."""
