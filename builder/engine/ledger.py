"""The ledger a build leaves for the next one: every output it could lend, on disk, sorted by path.

A rebuild lends an output when the previous build wrote the same path from the same inputs and its
bytes are still those written (builder.engine.incremental). What that takes, per output, is kept
here, in a file beside the output: the rows of the outputs written (builder.engine.written), in a
tar where each member's record starts in the tar and its length, framed by a header and a trailer:

    {"version": 7, "kind": "tar", "engine": "<key>"}   the header: the writer's kind, and the key of
                                                       everything besides an output's own inputs
    ["servers/a/index.html", "<key>", null, 1536, 2048, 1200, 610, "<sha256>"]
    {"end": 81920}                                     the trailer: the tar's size (a folder: null)

A build reads it once, as a stream, beside its own planned outputs sorted the same way (`matched`):
nothing per output of the previous build is held in memory, however large the site. A ledger
without its trailer (cut short), of another version, kind or engine, or one that describes another
tar than the one on disk (`end`), lends nothing; a row out of order or of the wrong shape ends the
reading there. Lending stays safe whatever the file says: the writer checks each output's bytes
against the row's SHA-256 (and a tar's member's header against its path and size) before it lends
them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from builder.engine import written
from builder.engine.written import Row

VERSION = 7
TAIL = 4096
"""Bytes read from the end of a ledger to find its trailer."""

Item = TypeVar("Item")


def write(path: Path, kind: str, engine: str, rows: Iterable[Row]) -> None:
    """Writes a ledger's header and rows (sorted by path) into `path`, but not its end (`end`):
    until then it is not a ledger any build reads."""
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as file:
        file.write(json.dumps({"version": VERSION, "kind": kind, "engine": engine}) + "\n")
        file.writelines(written.encode(row) for row in rows)


def end(path: Path, size: int | None) -> None:
    """Ends the ledger written into `path` with its trailer: `size`, the tar's (None for a folder)."""
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps({"end": size}) + "\n")


def rows(path: Path, kind: str, engine: str, size: int | None) -> Iterator[Row]:
    """The rows of the ledger at `path`, if it is whole and describes a site of this kind, engine and
    size (a tar's, in bytes; None for a folder); none otherwise."""
    try:
        with open(path, "rb") as file:
            if _trailer(file) != {"end": size}:
                return
            file.seek(0)
            if _json(file.readline()) != {"version": VERSION, "kind": kind, "engine": engine}:
                return
            last = ""
            for line in file:
                row = written.decode(line)
                if row is None or row[0] <= last or (kind == "tar") != (row[3] is not None) or row[2] is not None:
                    return
                last = row[0]
                yield row
    except OSError:
        return


def _trailer(file: IO[bytes]) -> Any:
    end = file.seek(0, os.SEEK_END)
    file.seek(max(0, end - TAIL))
    tail = file.read()
    if not tail.endswith(b"\n"):
        return None
    return _json(tail[:-1].rpartition(b"\n")[2])


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def matched(planned: Iterable[tuple[str, str | None, Item]], previous: Iterable[Row]
            ) -> Iterator[tuple[Item, Row | None]]:
    """Every planned output (path, key, item; sorted by path, each path once), with the previous
    build's row of the same path and key, or None (always for an output with no key): one pass over
    both."""
    rest = iter(previous)
    row = next(rest, None)
    for path, key, item in planned:
        while row is not None and row[0] < path:
            row = next(rest, None)
        yield item, (row if key is not None and row is not None and row[0] == path and row[1] == key else None)
