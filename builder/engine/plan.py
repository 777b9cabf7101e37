"""The build's plan: every output it makes, the outputs its workers hold as rows on disk.

A registry's workers hold a quarter of a million outputs (each server's and each tool's pages and
files). Of each, the build's process needs only the path, the key and who renders it; held as
objects (an `Owned` record each, as they were until November 2026, and the sets and sorted lists
the check and the lending made of them) that was about 400 bytes an output, over 100 MiB at full scale, kept to the end of the
build. So a reader appends each output its workers hold as a row to a file instead (`OwnedRows`,
by builder.engine.records as each source is taken in), and the build reads the rows back when a
step needs them: sorted by path, through DuckDB (`Plan.sorted`), to check that every path is safe
and unique (`Plan.check`) and to lend what the previous build can lend
(builder.engine.incremental); the page paths for the sitemap (`Plan.page_paths`). The outputs the
build's process renders itself (the corpus-wide pages and files, a few thousand) stay objects
(`Plan.held`) and join the same sorted rows.
"""

from __future__ import annotations

import contextlib
import itertools
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple

from builder.pages.page import Output, Page
from builder.store.tables import encode_rows, read_rows, scratch
from builder.urls import check_output_path

OWNED_COLUMNS = {"path": "VARCHAR", "key": "VARCHAR", "page": "BOOLEAN", "owner": "INTEGER", "position": "BIGINT"}
"""A row of `OwnedRows`: where the output goes, what it is made from, whether it is an HTML page,
the worker that holds it and its position in that worker's list of outputs."""
MEMORY = "128MB"
"""What DuckDB may hold while it sorts the rows; past it, it spills to the scratch folder."""
BATCH = 10_000
HELD = -1
"""The part of an output the build's process holds (`Planned.part`)."""


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
    """The outputs one reader's workers hold, a row each, appended to `file` as they are planned."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.count = 0
        self._handle: IO[bytes] | None = None

    def add(self, rows: Sequence[tuple[str, str | None, bool, int, int]]) -> None:
        """(path, key, page, owner, position) each."""
        if not rows:
            return
        if self._handle is None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.file, "ab", buffering=1 << 16)  # noqa: SIM115 - closed by finish()
        self._handle.write(encode_rows(OWNED_COLUMNS, rows))
        self.count += len(rows)

    def finish(self) -> None:
        """Every row added is on disk."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            handle.close()

    def page_paths(self) -> Iterator[str]:
        """The paths of its HTML pages, in the order planned."""
        for path, page in self._read(("path", "page")):
            if page:
                yield path

    def _read(self, columns: tuple[str, ...]) -> Iterator[tuple[str, bool]]:
        self.finish()
        if not self.count:
            return
        with scratch(self.file.parent, MEMORY, threads=1) as con:
            names = ", ".join(f'"{name}"' for name in columns)
            con.execute(f"SELECT {names} FROM {read_rows(OWNED_COLUMNS)}", [str(self.file)])
            while batch := con.fetchmany(BATCH):
                yield from batch


@dataclass
class Plan:
    """Every output of a build: those its process holds (`held`), and those each reader's workers
    hold (`owned`, in the order of the readers)."""

    held: list[Output]
    owned: Sequence[OwnedRows] = ()
    scratch: Path | None = None
    """Where DuckDB spills while it sorts, and the held outputs' rows are written (a temporary
    folder when None)."""

    def page_paths(self) -> list[str]:
        """Every HTML page's path (the sitemap's)."""
        paths = [o.path for o in self.held if isinstance(o, Page)]
        for part in self.owned:
            paths.extend(part.page_paths())
        return paths

    def sorted(self) -> Iterator[Planned]:
        """Every output, sorted by path (as Python sorts strings: DuckDB compares their UTF-8
        bytes, which order the same way)."""
        with contextlib.ExitStack() as stack:
            folder = self.scratch or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="scorecards-plan-")))
            folder.mkdir(parents=True, exist_ok=True)
            held = folder / "plan-held.jsonl"
            with open(held, "wb") as file:
                rows = ((o.path, o.key, isinstance(o, Page), HELD, i) for i, o in enumerate(self.held))
                while batch := list(itertools.islice(rows, BATCH)):
                    file.write(encode_rows(OWNED_COLUMNS, batch))
            parts = [(HELD, held), *((number, part.file) for number, part in enumerate(self.owned) if part.count)]
            for part in self.owned:
                part.finish()
            select = " UNION ALL ".join(
                f'SELECT path, key, {number} AS part, owner, position FROM {read_rows(OWNED_COLUMNS)}'
                for number, _ in parts
            )
            con = stack.enter_context(scratch(folder, MEMORY, threads=1))
            con.execute(f"SELECT * FROM ({select}) ORDER BY path", [str(file) for _, file in parts])
            while batch := con.fetchmany(BATCH):
                for row in batch:
                    yield Planned(*row)

    def check(self) -> None:
        """Every output path is safe and planned once (links are checked from what was rendered,
        builder.engine.links, so no page declares them)."""
        last: str | None = None
        for planned in self.sorted():
            check_output_path(planned.path)
            if planned.path == last:
                raise ValueError(f"two outputs want the same path: {planned.path}")
            last = planned.path

