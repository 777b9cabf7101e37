"""What the manifest says of each input file, from the one read a build makes of it (issue 46).

A build reads each file of the data folder once, through `datafolder.read_regular`. While one
source of a grading system is read (builder.engine.records), an `InputReads` is active: each file
read is hashed from the bytes already in memory and kept until the source is done, so that reading
it again for the same source (a server's folder is hashed for the read cache, then parsed; a
server without a usable score is read again as not scored) takes the bytes held instead of the
disk. When the source is done, each file it read becomes an `Input`, the manifest's row for it:
its path in the data folder, SHA-256, size, and when it says it was made (`generated_at`).

When a file says it was made is a JSON file's top-level `generatedAt` string, else the last
instant in its name. A reader that parsed the file (`jsonfile.read_json`) says what it found; the
rule is the same only where the reader's parse and `json.loads` read the same document, which is
so whenever the reader's parse succeeds (it refuses what `json.loads` would read otherwise: a key
named twice, NaN, text that is not UTF-8). A file no reader parsed is parsed here by the rule.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from builder.dates import days_before

NAMED_AT = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d+)?Z")
"""An instant in a file's name, as captures are named (`2026-05-16T08-53-48Z.tools.json`)."""

HELD_BYTES = 256 << 20
"""The most bytes one source's reads hold at once; a file read past it is not held (read again
from the disk if it is asked for again) and its date is found at once."""


@dataclass(frozen=True, slots=True)
class Input:
    """An input file: its path in the data folder, SHA-256, size, and when it says it was made."""

    path: str
    sha256: str
    size: int
    generated_at: str | None = None

    def age_days(self, data_as_of: str | None) -> int | None:
        """Whole days from `generated_at` to `data_as_of` (None when either is unknown)."""
        return days_before(self.generated_at, data_as_of)


def named_at(name: str) -> str | None:
    """The last instant a file's name holds, as an RFC 3339 time (None when it holds none)."""
    named = NAMED_AT.findall(PurePosixPath(name).name)
    if not named:
        return None
    day, hours, minutes, seconds, fraction = named[-1]
    return f"{day}T{hours}:{minutes}:{seconds}{fraction}Z"


def generated_at(name: str, raw: bytes) -> str | None:
    """When the file `name` with bytes `raw` says it was made: a JSON file's top-level
    `generatedAt` (a capture's, a report's), else the last instant its name holds, else None."""
    value = None
    if PurePosixPath(name).suffix == ".json":
        try:
            value = json.loads(raw).get("generatedAt")
        except (ValueError, AttributeError):
            value = None
    return value if isinstance(value, str) else named_at(name)


def generated_at_of_document(name: str, document: Any) -> str | None:
    """The same, for a file whose bytes a reader parsed into `document` (`generated_at`'s rule)."""
    value = document.get("generatedAt") if PurePosixPath(name).suffix == ".json" and isinstance(document, dict) else None
    return value if isinstance(value, str) else named_at(name)


_UNKNOWN = object()


class _Read:
    """One file read: its bytes while held, its size, and its digest and date once known (a source
    taken from the read cache has its files read for its key, never hashed for the manifest)."""

    __slots__ = ("date", "raw", "sha256", "size")

    def __init__(self, raw: bytes) -> None:
        self.raw: bytes | None = raw
        self.size = len(raw)
        self.sha256 = ""
        self.date: object = _UNKNOWN

    def known(self, name: str) -> Input:
        """The manifest's row for it; its bytes let go."""
        if not self.sha256:
            assert self.raw is not None
            self.sha256 = hashlib.sha256(self.raw).hexdigest()
        if self.date is _UNKNOWN:
            assert self.raw is not None
            self.date = generated_at(name, self.raw)
        self.raw = None
        return Input(name, self.sha256, self.size, self.date if isinstance(self.date, str) else None)


class InputReads:
    """The files of the data folder read while one source is read, by their path in it."""

    def __init__(self, data_dir: Path, held_bytes: int = HELD_BYTES) -> None:
        self.data_dir = data_dir
        self.held_bytes = held_bytes
        """The most bytes held at once (`HELD_BYTES`)."""
        self._reads: dict[str, _Read] = {}
        self._held = 0

    def _name(self, path: Path) -> str | None:
        try:
            return path.relative_to(self.data_dir).as_posix()
        except ValueError:
            return None

    def held(self, path: Path) -> bytes | None:
        """The bytes of `path` read before for this source, when they are held."""
        name = self._name(path)
        read = self._reads.get(name) if name is not None else None
        return read.raw if read is not None else None

    def record(self, path: Path, raw: bytes) -> None:
        """`path` was read whole: these are its bytes."""
        name = self._name(path)
        if name is None:
            return
        read = _Read(raw)
        self._reads[name] = read
        if self._held + len(raw) > self.held_bytes:
            read.known(name)  # its digest and date now, so its bytes need not be held
        else:
            self._held += len(raw)

    def parsed(self, path: Path, document: Any) -> None:
        """A reader parsed the bytes of `path` (read whole) into `document`."""
        name = self._name(path)
        read = self._reads.get(name) if name is not None else None
        if name is not None and read is not None and read.date is _UNKNOWN:
            read.date = generated_at_of_document(name, document)

    def inputs(self) -> tuple[Input, ...]:
        """Each file read, as the manifest lists it, by path; the bytes held are let go."""
        found = tuple(read.known(name) for name, read in sorted(self._reads.items()))
        self._held = 0
        return found


_ACTIVE: ContextVar[InputReads | None] = ContextVar("input_reads", default=None)
"""The reads of the source being read, in this thread (another thread of the build reads for no source)."""


def active() -> InputReads | None:
    """The reads of the source being read (None when no source is)."""
    return _ACTIVE.get()


@contextlib.contextmanager
def reading(data_dir: Path, held_bytes: int = HELD_BYTES) -> Iterator[InputReads]:
    """The files of `data_dir` read inside the block, recorded (`InputReads`)."""
    reads = InputReads(data_dir, held_bytes)
    token = _ACTIVE.set(reads)
    try:
        yield reads
    finally:
        _ACTIVE.reset(token)
