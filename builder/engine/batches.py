"""Rows a build keeps on disk for itself and reads back later in the same build (the plan's runs,
builder.engine.plan; this build's keys, builder.engine.incremental): pickled in batches.

A registry has a third of a million such rows. A JSON line each cost about 2 µs to write and as
much to read, for every row on every pass; a pickled batch of `BATCH` rows costs a tenth of that,
and reading one holds no more than one batch. Nothing else reads these files: they live in the
build's cache folder, are written and read by the same build, and are never published.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, Any

BATCH = 1000


def write(file: IO[bytes], rows: Iterable[tuple[Any, ...]]) -> None:
    """Appends `rows` to `file`, `BATCH` at a time."""
    it = iter(rows)
    while batch := list(islice(it, BATCH)):
        pickle.dump(batch, file, protocol=pickle.HIGHEST_PROTOCOL)


def read(file: IO[bytes]) -> Iterator[Any]:
    """Every row `write` appended to `file`, from where it stands, in order."""
    while True:
        try:
            batch = pickle.load(file)
        except EOFError:
            return
        yield from batch


def read_file(path: Path) -> Iterator[Any]:
    """Every row `write` appended to the file at `path`, in order."""
    with open(path, "rb") as file:
        yield from read(file)
