"""What the lend step offers the workers: the outputs a worker holds that the previous build wrote
from the same inputs. The worker that holds an output decides, while it renders, whether to lend it.

The build's process matches the plan with the previous build's ledger by path and key
(builder.engine.incremental), without reading any output. Each match of an output a worker holds
is an offer: its position in the worker's list and the ledger's row of the previous bytes (place in
a tar, weight, SHA-256). The worker checks those bytes (its writer's `reuse`: a hash of each) and
lends them, or renders the output when they changed; so the hashing of
the previous site is spread over the workers, beside their rendering, instead of done by the
build's process before anything is rendered.

Offers are kept on disk, a file per worker in the staging area's scratch folder, in batches
(builder.engine.batches): a registry's rebuild offers a quarter of a million outputs, which no
process holds as rows.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import IO, Protocol

from builder.engine import batches
from builder.engine.written import Row

Offer = tuple[int, Row]
"""position, and the ledger's row (builder.engine.written)."""


class Lender(Protocol):
    """A worker's writer, as far as an offer goes (builder.engine.write, builder.engine.artifact)."""

    def reuse(self, row: Row) -> bool: ...


class Offers:
    """The offers to one worker, appended in plan order (by path) and read back once by it."""

    def __init__(self, folder: Path, name: str) -> None:
        self.file = folder / f"offers-{name}"
        self._handle: IO[bytes] | None = None
        self._batch: list[Offer] = []
        self.count = 0

    def add(self, offer: Offer) -> None:
        self._batch.append(offer)
        self.count += 1
        if len(self._batch) == batches.BATCH:
            self._flush()

    def _flush(self) -> None:
        if self._handle is None:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.file, "wb")  # noqa: SIM115 - closed by close()
        batches.write(self._handle, self._batch)
        self._batch = []

    def close(self) -> Path | None:
        """Ends the file; returns it, or None when nothing was offered."""
        if self._batch:
            self._flush()
        if self._handle is None:
            return None
        self._handle.close()
        self._handle = None
        return self.file


def taken(writer: Lender, file: Path | None, render: array[int]) -> tuple[int, array[int]]:
    """In a worker: lends each output offered in `file` whose previous bytes are still those the
    ledger describes; returns how many, and the positions to render: `render`'s and those of the
    offers it could not lend, in plan order."""
    lent = 0
    again = array("q")
    for position, row in batches.read_file(file) if file is not None else ():
        if writer.reuse(row):
            lent += 1
        else:
            again.append(position)
    if not again:
        return lent, render
    return lent, array("q", sorted([*render, *again]))
