"""What a grading system gives the build: a reader, a loader, its pages and its navigation.

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
from builder.engine.owners import Owners
from builder.engine.problems import ProblemLog
from builder.engine.search import SearchDoc
from builder.pages.page import DataFile, NavItem, Page


@dataclass(frozen=True)
class GradingSystem:
    key: str
    read: Callable[[Path, ProblemLog, SiteConfig, Path | None, int], Any | None]
    """Reads and validates the system's files under the data directory; None when it has none.
    A system may plan its records' own pages as it reads them (TDQS does, see
    builder.tdqs.pages.section), so it is given the site settings, and the build's cache folder
    (None when there is none), where it may keep what it read for the next build."""
    load: Callable[[duckdb.DuckDBPyConnection, Any], None]
    """Loads the validated records into DuckDB tables named `<key>_…`."""
    outputs: Callable[[duckdb.DuckDBPyConnection, Any, SiteConfig], Iterable[Page | DataFile]]
    """Every page and data file of the system's section."""
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
    owners: Callable[[Any], Owners | None] = lambda corpus: None
    """The worker processes that read the corpus and hold its `Owned` outputs, if it was read so."""
    search_docs: Callable[[Any], Iterable[SearchDoc]] | None = None
    """Compact search documents for Pagefind (see builder.engine.search); None indexes the system's
    rendered pages, where its templates mark `data-pagefind-body`."""
