"""The grading systems the site presents, each a reader → loader → pages slice.

Adding a system is adding one entry here: nothing in the build knows a system by name, and no
system knows about another, so FlowMCP or CLEO data never touches the TDQS path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from builder.config import SiteConfig
from builder.owners import Owners
from builder.pages.page import DataFile, NavItem, Page
from builder.problems import ProblemLog


@dataclass(frozen=True)
class GradingSystem:
    key: str
    read: Callable[[Path, ProblemLog, SiteConfig, Path | None], Any | None]
    """Reads and validates the system's files under the data directory; None when it has none.
    A system may plan its records' own pages as it reads them (TDQS does, see
    builder.pages.tdqs_section), so it is given the site settings, and the build's cache folder
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
    owners: Callable[[Any], Owners | None] = lambda corpus: None
    """The worker processes that read the corpus and hold its `Owned` outputs, if it was read so."""
    search_docs: Callable[[Any], Iterable[SearchDoc]] | None = None
    """Compact search documents for Pagefind (see builder.search); None indexes the system's
    rendered pages, where its templates mark `data-pagefind-body`."""


@dataclass(frozen=True)
class SearchDoc:
    """One document of the search source: rendered with `template` from `context`, at the output
    path of the page it stands for."""

    path: str
    template: str
    context: Any
    html: str | None = None
    """The document already rendered (by the worker process that read the record), if it was."""


def all_systems() -> list[GradingSystem]:
    """Imported lazily so a broken optional system cannot stop `scorecards --help`."""
    from builder.pages import tdqs as tdqs_pages
    from builder.pages.tdqs_section import read_section
    from builder.store.tdqs import load_tdqs

    systems: list[GradingSystem] = [
        GradingSystem(
            key="tdqs",
            read=read_section,
            load=lambda con, section: load_tdqs(con, (summary.rows for summary in section.summaries)),
            outputs=tdqs_pages.outputs,
            nav=tdqs_pages.nav,
            stand_in_models=lambda corpus: corpus.stand_in_models,
            data_as_of=lambda corpus: corpus.data_as_of,
            owners=lambda section: section.owners,
            search_docs=tdqs_pages.search_docs,
        ),
    ]
    # Each further system registers itself below, in the order its section appears in the navigation.
    from builder.pages import cleo as cleo_pages

    systems.append(cleo_pages.system())
    from builder.pages import flowmcp as flowmcp_pages

    systems.append(flowmcp_pages.system())
    return systems
