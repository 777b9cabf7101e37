"""What a build wrote, kept on disk instead of in memory: one JSON line per output written or lent.

Every writer of a build (the build's own and each worker's, builder.engine.write and
builder.engine.artifact) appends a row for each output it writes, or lends from the previous
build, to a file of its own in the staging area's scratch folder: the path, the check of its bytes
(builder.engine.write.output_check) and, in a tar, where its record is (the segment, the offset and
the length). The build's process is handed the files' names, not the rows, so no process holds a
row for every output of a site. They are read back once, sorted by path, by DuckDB (`sorted_rows`):
to put the tar together and to write the ledger the next build lends from (builder.engine.ledger).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import duckdb

MEMORY = "128MB"
"""What DuckDB may hold while it sorts the rows; past it, it spills to the scratch folder."""
BATCH = 10_000

Row = tuple[str, str, str | None, int | None, int | None]
"""An output written: path, check, and in a tar its record's segment, offset and length."""


class WrittenLog:
    """Appends rows to `folder/written-<name>.jsonl`, opened when the first row comes."""

    def __init__(self, folder: Path, name: str) -> None:
        self.file = folder / f"written-{name}.jsonl"
        self._handle: IO[str] | None = None

    def add(self, path: str, check: str, place: tuple[str, int, int] | None = None) -> None:
        if self._handle is None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.file, "a", encoding="utf-8", buffering=1 << 16)  # noqa: SIM115 - closed by close()
        row: dict[str, object] = {"path": path, "check": check}
        if place is not None:
            row["source"], row["offset"], row["length"] = place
        self._handle.write(json.dumps(row, ensure_ascii=False) + "\n")

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


def sorted_rows(files: list[Path], scratch: Path) -> Iterator[Row]:
    """Every row of `files`, sorted by path (DuckDB, spilling into `scratch` past `MEMORY`)."""
    existing = [str(f) for f in files if os.path.getsize(f) > 0]
    if not existing:
        return
    with contextlib.closing(duckdb.connect(":memory:")) as con:
        con.execute("SET memory_limit = ?", [MEMORY])
        con.execute("SET temp_directory = ?", [str(scratch / "duckdb")])
        con.execute("SET threads = 1")  # two threads' JSON readers alone outgrow MEMORY (a registry's 321,000 rows)
        con.execute(
            """
            SELECT path, "check", source, "offset", length
            FROM read_json(?, format = 'newline_delimited',
                           columns = {path: 'VARCHAR', "check": 'VARCHAR', source: 'VARCHAR',
                                      "offset": 'BIGINT', length: 'BIGINT'})
            ORDER BY path
            """,
            [existing],
        )
        while batch := con.fetchmany(BATCH):
            yield from batch
