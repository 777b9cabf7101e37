"""The ledger a build leaves for the next one: every output it could lend, on disk, sorted by path.

A rebuild lends an output when the previous build wrote the same path from the same inputs and its
bytes are still those written (builder.engine.incremental). What that takes, per output, is kept
here, in a file beside the output, one JSON line each, sorted by path:

    {"version": 6, "kind": "tar"}                                        the header: the writer's kind
    ["servers/a/index.html", "<key>", "<check>", "<sha256>", 1536, 2048, 1200, 610]
                                                                           path, key, check, the SHA-256 of the
                                                                           output's bytes (which the site's manifest
                                                                           lists), in a tar where the member's record
                                                                           starts and its length, and the output's
                                                                           bytes and gzip size (builder.engine.weight)
    {"end": 81920}                                                         the trailer: the tar's size (a folder: null)

A build reads it once, as a stream, beside its own planned outputs sorted the same way (`matched`):
nothing per output of the previous build is held in memory, however large the site. A ledger
without its trailer (cut short), of another version or kind, or one that describes another tar
than the one on disk (`end`), lends nothing; a row out of order or of the wrong shape ends the
reading there. Lending stays safe whatever the file says: the writer checks each output's bytes
against the row's check before it lends them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

VERSION = 6
TAIL = 4096
"""Bytes read from the end of a ledger to find its trailer."""

Place = tuple[int, int] | None
"""Where a tar member's record is (offset, length); None in a folder."""
Weight = tuple[int, int]
"""An output's bytes and gzip size (builder.engine.weight)."""
Row = tuple[str, str, str, Place, Weight, str]
"""An output the previous build wrote: path, key, check, place, weight, SHA-256."""
Item = TypeVar("Item")
Left = TypeVar("Left")
Right = TypeVar("Right")


def write(path: Path, kind: str, entries: Iterable[Row]) -> None:
    """Writes a ledger's header and rows (sorted by path) into `path`, but not its end (`end`):
    until then it is not a ledger any build reads."""
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as file:
        file.write(json.dumps({"version": VERSION, "kind": kind}) + "\n")
        for output, key, check, place, weight, sha256 in entries:
            row = [output, key, check, sha256, *(place or ()), *weight]
            file.write(json.dumps(row, ensure_ascii=False) + "\n")


def end(path: Path, size: int | None) -> None:
    """Ends the ledger written into `path` with its trailer: `size`, the tar's (None for a folder)."""
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps({"end": size}) + "\n")


def rows(path: Path, kind: str, size: int | None) -> Iterator[Row]:
    """The rows of the ledger at `path`, if it is whole and describes a site of this kind and size
    (a tar's, in bytes; None for a folder); none otherwise."""
    try:
        with open(path, "rb") as file:
            if _trailer(file) != {"end": size}:
                return
            file.seek(0)
            if _json(file.readline()) != {"version": VERSION, "kind": kind}:
                return
            last = ""
            for line in file:
                row = _row(_json(line))
                if row is None or row[0] <= last:
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


def _row(item: Any) -> Row | None:
    if not isinstance(item, list) or len(item) not in (6, 8) or not all(isinstance(v, str) for v in item[:4]):
        return None
    if not all(type(v) is int and v >= 0 for v in item[4:]):
        return None
    weight = (item[-2], item[-1])
    if len(item) == 6:
        return item[0], item[1], item[2], None, weight, item[3]
    offset, length = item[4], item[5]
    if length <= 0:
        return None
    return item[0], item[1], item[2], (offset, length), weight, item[3]


def joined(left: Iterable[tuple[str, Left]], right: Iterable[tuple[str, Right]]) -> Iterator[tuple[str, Left, Right]]:
    """The paths both streams hold (each sorted by path, each path once), with what each holds
    there: one pass over both."""
    rest = iter(right)
    item = next(rest, None)
    for path, value in left:
        while item is not None and item[0] < path:
            item = next(rest, None)
        if item is None:
            return
        if item[0] == path:
            yield path, value, item[1]


def matched(planned: Iterable[tuple[str, str, Item]], previous: Iterable[Row]) -> Iterator[tuple[Item, Row | None]]:
    """Every planned output (path, key, item; sorted by path, each path once), with the previous
    build's row of the same path and key, or None: one pass over both."""
    rest = iter(previous)
    row = next(rest, None)
    for path, key, item in planned:
        while row is not None and row[0] < path:
            row = next(rest, None)
        yield item, (row if row is not None and row[0] == path and row[1] == key else None)
