"""The build's plan: every output it makes, the outputs its workers hold as rows on disk.

A registry's workers hold a quarter of a million outputs (each server's and each tool's pages and
files). Of each, the build's process needs only the path, the key and who renders it; held as an
object each (with the sets and sorted lists the check and the lending made of them) that was about
400 bytes an output, over 100 MiB at full scale, kept to the end of the build. So a reader writes
each output its workers hold as a row instead (`OwnedRows`, filled by builder.engine.records as each
source is taken in), in sorted runs of at most `RUN` rows (pickled in batches:
builder.engine.batches), and the build reads them back merged, sorted by path (`Plan.sorted`), for
each step that needs them: the check that every path is safe and unique (`Plan.check`), the
lending (builder.engine.incremental), the sitemap's page paths (`Plan.page_paths`). The outputs the
build's process renders itself (the corpus-wide pages and files, a few thousand) stay objects
(`Plan.held`) and join the same merge.

The runs are sorted and merged by Python, not DuckDB: a DuckDB sort of a registry's rows held
about 100 MiB while the build read it (its JSON reader and its sort need that much at the least),
and the merge holds one batch per run.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from builder.engine import batches
from builder.pages.page import Output, Page
from builder.urls import check_output_path

RUN = 50_000
"""Rows an `OwnedRows` sorts in memory before it writes them as a run."""
HELD = -1
"""The part of an output the build's process holds (`Planned.part`)."""

OwnedRow = tuple[str, str | None, bool, int, int]
"""Where the output goes, what it is made from, whether it is an HTML page, the worker that holds
it and its position in that worker's list of outputs."""


class Planned(NamedTuple):
    """One output of the plan, as its sorted rows give it."""

    path: str
    key: str | None
    part: int
    """Which `OwnedRows` of the plan holds it, or HELD."""
    owner: int
    """The worker that holds it (HELD for the build's own)."""
    position: int
    """Its position in that worker's list of outputs, or in `Plan.held`."""


class OwnedRows:
    """The outputs one reader's workers hold, a row each (`OwnedRow`), written to files in `folder`
    as they are planned: runs of at most `RUN` rows, each sorted by path."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self.runs: list[Path] = []
        self._rows: list[OwnedRow] = []

    def add(self, rows: Sequence[OwnedRow]) -> None:
        self._rows.extend(rows)
        self.count += len(rows)
        if len(self._rows) >= RUN:
            self._write_run()

    def finish(self) -> None:
        """Every row added is on disk."""
        self._write_run()

    def _write_run(self) -> None:
        if not self._rows:
            return
        self._rows.sort(key=itemgetter(0))
        self.folder.mkdir(parents=True, exist_ok=True)
        run = self.folder / f"owned-{len(self.runs)}.pickle"
        with open(run, "wb", buffering=1 << 16) as file:
            batches.write(file, self._rows)
        self.runs.append(run)
        self._rows = []

    def sorted(self) -> Iterator[OwnedRow]:
        """Every row, sorted by path: the runs merged."""
        self.finish()
        return heapq.merge(*(batches.read_file(run) for run in self.runs), key=itemgetter(0))

    def page_paths(self) -> Iterator[str]:
        """The paths of its HTML pages."""
        self.finish()
        for run in self.runs:
            for path, _, page, _, _ in batches.read_file(run):
                if page:
                    yield path


@dataclass
class Plan:
    """Every output of a build: those its process holds (`held`), and those each reader's workers
    hold (`owned`, in the order of the readers)."""

    held: list[Output]
    owned: Sequence[OwnedRows] = ()

    def page_paths(self) -> list[str]:
        """Every HTML page's path (the sitemap's)."""
        paths = [o.path for o in self.held if isinstance(o, Page)]
        for part in self.owned:
            paths.extend(part.page_paths())
        return paths

    def sorted(self) -> Iterator[Planned]:
        """Every output, sorted by path (as Python sorts strings, and DuckDB, which compares their
        UTF-8 bytes: builder.engine.written sorts the rows of what was written that way)."""
        held = sorted((Planned(o.path, o.key, HELD, HELD, i) for i, o in enumerate(self.held)), key=itemgetter(0))
        parts = [_planned(number, part) for number, part in enumerate(self.owned)]
        return heapq.merge(held, *parts, key=itemgetter(0))

    def check(self) -> None:
        """Every output path is safe and planned once (links are checked from what was rendered,
        builder.engine.links, so no page declares them)."""
        last: str | None = None
        for planned in self.sorted():
            check_output_path(planned.path)
            if planned.path == last:
                raise ValueError(f"two outputs want the same path: {planned.path}")
            last = planned.path


def _planned(number: int, part: OwnedRows) -> Iterator[Planned]:
    for path, key, _, owner, position in part.sorted():
        yield Planned(path, key, number, owner, position)
