"""What a build wrote, kept on disk instead of in memory: one JSON line per output written or lent.

Every writer of a build (the build's own and each worker's, builder.engine.write and
builder.engine.artifact) appends a row for each output it writes, or lends from the previous
build, to a file of its own in the staging area's scratch folder: the path, the check of its bytes
(builder.engine.write.output_check), its weight (its bytes and their gzip size:
builder.engine.weight), in a tar where its record is (the segment, the offset and the length), and
the SHA-256 of its bytes, which the manifest lists (builder.publish.manifest) without reading the
site back. The build's process is handed the files' names, not the rows, so no process holds a
row for every output of a site. They are read back once, sorted by path, by DuckDB (`sorted_rows`):
to put the tar together and to write the ledger the next build lends from (builder.engine.ledger).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from builder.engine.weight import Weight
from builder.store.tables import encode_rows, read_rows, scratch

MEMORY = "128MB"
"""What DuckDB may hold while it sorts the rows; past it, it spills to the scratch folder."""
BATCH = 10_000

Row = tuple[str, str, str | None, int | None, int | None, int, int, str]
"""An output written: path, check, in a tar its record's segment, offset and length, its weight
(bytes, gzip size) and the SHA-256 of its bytes."""


COLUMNS = {"path": "VARCHAR", "check": "VARCHAR", "source": "VARCHAR", "offset": "BIGINT", "length": "BIGINT",
           "bytes": "BIGINT", "gzip": "BIGINT", "sha256": "VARCHAR"}


class WrittenLog:
    """Appends rows (`encode_rows`) to `folder/written-<name>.jsonl`, opened when the first row comes."""

    def __init__(self, folder: Path, name: str) -> None:
        self.file = folder / f"written-{name}.jsonl"
        self._handle: IO[bytes] | None = None

    def add(self, path: str, check: str, weight: Weight, sha256: str, place: tuple[str, int, int] | None = None
            ) -> None:
        if self._handle is None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.file, "ab", buffering=1 << 16)  # noqa: SIM115 - closed by close()
        self._handle.write(encode_rows(COLUMNS, [(path, check, *(place or (None, None, None)), *weight, sha256)]))

    def files(self) -> list[Path]:
        """The file, flushed, if a row was written to it."""
        if self._handle is None:
            return []
        self._handle.flush()
        return [self.file]

    def close(self) -> None:
        if self._handle is not None:
            handle, self._handle = self._handle, None
            handle.close()


def sorted_rows(files: list[Path], scratch_folder: Path) -> Iterator[Row]:
    """Every row of `files`, sorted by path (DuckDB, spilling into `scratch_folder` past `MEMORY`)."""
    existing = [str(f) for f in files if os.path.getsize(f) > 0]
    if not existing:
        return
    # One thread: two threads' JSON readers alone outgrow MEMORY (a registry's 321,000 rows).
    with scratch(scratch_folder, MEMORY, threads=1) as con:
        con.execute(f"SELECT * FROM {read_rows(COLUMNS)} ORDER BY path", [existing])  # columns as in COLUMNS
        while batch := con.fetchmany(BATCH):
            yield from batch
