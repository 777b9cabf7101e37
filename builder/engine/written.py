"""The rows of the outputs a build wrote: one format for what each writer wrote in a build and for
the ledger the next build lends from (builder.engine.ledger).

A row is one JSON array per line:

    ["servers/a/index.html", "<key>", "segment-41", 1536, 2048, 1200, 610, "<sha256>"]

the output's path; the key of its inputs (builder.engine.incremental; null for an output that is
always rendered); in a tar, the source its record is in (a segment of the build, the previous tar,
or null once it is in the tar: the ledger's), the record's offset there and its length (all null in
a folder); its bytes and their gzip size (builder.engine.weight); the SHA-256 of its bytes, which
the site's manifest lists (builder.publish.manifest) without reading the site back, and which a
rebuild checks the previous bytes against before it lends them (the writers' `reuse`:
builder.engine.write, builder.engine.artifact.PreviousTar).

Every writer of a build (the build's own and each worker's, builder.engine.write and
builder.engine.artifact) appends a row for each output it writes, or lends from the previous build,
to a file of its own in the staging area's scratch folder. The build's process is handed the files'
names, not the rows, so no process holds a row for every output of a site. They are read back once,
sorted by path, by DuckDB (`sorted_rows`): to put the tar together and to write the ledger.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from builder.store.tables import scratch

MEMORY = "128MB"
"""What DuckDB may hold while it sorts the rows; past it, it spills to the scratch folder."""
BATCH = 10_000

Row = tuple[str, str | None, str | None, int | None, int | None, int, int, str]
"""An output written: path, key, in a tar its record's source, offset and length, its weight (bytes,
gzip size) and the SHA-256 of its bytes."""

_TYPES = {"path": "VARCHAR", "key": "VARCHAR", "source": "VARCHAR", "offset": "BIGINT", "length": "BIGINT",
          "bytes": "BIGINT", "gzip": "BIGINT", "sha256": "VARCHAR"}
_COLUMNS = ", ".join(f"(j->>{number})::{kind} AS {name}" for number, (name, kind) in enumerate(_TYPES.items()))


def encode(row: Row) -> str:
    """`row` as its line."""
    return json.dumps(row, ensure_ascii=False) + "\n"


def decode(line: bytes | str) -> Row | None:
    """The row a line holds, or None if it holds none of the right shape."""
    try:
        item: Any = json.loads(line)
    except ValueError:
        return None
    if not isinstance(item, list) or len(item) != len(_TYPES):
        return None
    path, key, source, offset, length, size, gzipped, sha256 = item
    if not (isinstance(path, str) and isinstance(sha256, str)
            and all(v is None or isinstance(v, str) for v in (key, source))
            and all(type(v) is int and v >= 0 for v in (size, gzipped))):
        return None
    if offset is None and length is None:
        return path, key, source, None, None, size, gzipped, sha256
    if type(offset) is not int or type(length) is not int or offset < 0 or length <= 0:
        return None
    return path, key, source, offset, length, size, gzipped, sha256


class WrittenLog:
    """Appends rows to `folder/written-<name>.jsonl`, opened when the first row comes."""

    def __init__(self, folder: Path, name: str) -> None:
        self.file = folder / f"written-{name}.jsonl"
        self._handle: IO[str] | None = None

    def add(self, row: Row) -> None:
        if self._handle is None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.file, "a", encoding="utf-8", buffering=1 << 16)  # noqa: SIM115 - closed by close()
        self._handle.write(encode(row))

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
    # One thread: two threads' JSON readers alone outgrow MEMORY (a registry's 352,000 rows). The rows
    # are read into a table first: sorted as they are read, the registry's outgrew MEMORY too.
    with scratch(scratch_folder, MEMORY, threads=1) as con:
        con.execute(f"CREATE TABLE written AS SELECT {_COLUMNS} FROM read_json(?, format = 'newline_delimited', "
                    "records = false, columns = {'j': 'JSON'})", [existing])
        con.execute("SELECT * FROM written ORDER BY path")
        while batch := con.fetchmany(BATCH):
            yield from batch
