"""What a grading system gives the build: a description of its inputs, its pages and its navigation.

Every system implements the same interface, called the same way: its inputs are described by the
record protocol (builder.engine.records) and read by the engine, the same way for every system,
and nothing in the build knows a system by name or branches on one: every system is read,
loaded and planned in turn. What differs between systems is declared here (`indexes_pages`),
not inferred.

The interface alone, so that a system's pages can say what they implement without importing the
registry of systems (builder.systems), which imports every system's pages: the build depends on
this interface and the registry, each system on this interface, and no module on a system it is
imported by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import duckdb

from builder.config import SiteConfig
from builder.engine.adding import AddKind
from builder.engine.problems import FileOwner
from builder.engine.records import RecordSystem
from builder.pages.page import NavItem, Output


@dataclass(frozen=True)
class GradingSystem:
    key: str
    records: RecordSystem[Any, Any]
    """How its inputs are read (builder.engine.records); the functions below are given the corpus
    its records gathered (`Records.corpus`)."""
    outputs: Callable[[duckdb.DuckDBPyConnection, Any, SiteConfig], Iterable[Output]]
    """Every page and data file of the system's section that the build's process holds (those a
    worker holds are rows on disk: builder.engine.plan)."""
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
    load: Callable[[duckdb.DuckDBPyConnection, Any], None] = lambda con, corpus: None
    """Loads into DuckDB tables named `<key>_…` what the records' rows (`Contribution.rows`,
    loaded by the engine) do not hold."""
    schemas: Callable[[], dict[str, dict[str, Any]]] = lambda: {}
    """The JSON Schemas of the system's data files, by the file name they are published under in
    docs/schemas (builder.engine.json_schema); `python -m builder.schemas` writes every system's."""
    adds: tuple[AddKind, ...] = ()
    """The kinds of file `scorecards add` files for it (builder.engine.adding), asked in order."""
    file_owners: Callable[[Any], dict[str, FileOwner]] = lambda corpus: {}
    """Whose page each input file with a problem belongs to (a server's), by the file's path: the
    data problems pages link each such file to it."""
    indexes_pages: bool = True
    """Whether Pagefind indexes the system's rendered pages (its templates mark
    `data-pagefind-body`); a system whose records give search documents instead (a registry's)
    leaves its pages out of the index."""
