"""Records handed over by the readers, appended to files as they arrive.

A registry's readers hand the build's process each server's DuckDB rows and search document. Kept
in memory until the store is loaded, they grew the process with the corpus (a quarter of its
memory at a tenth of the registry); appended to a file per table instead, they cost nothing to
hold, and DuckDB reads each file in one parallel pass (builder.store.tables.load_file).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from builder.store.tables import longest_line


class Spool:
    """Append-only files, one per name, in `folder` (emptied first: the spool of one build)."""

    def __init__(self, folder: Path) -> None:
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        self.folder = folder
        self._open: dict[str, BinaryIO] = {}
        self.longest: dict[str, int] = {}
        """The longest line appended under each name, in bytes."""

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.jsonl"

    def append(self, name: str, data: bytes) -> None:
        """`data`: whole lines, each ending with a newline."""
        if not data:
            return
        handle = self._open.get(name)
        if handle is None:
            handle = self._open[name] = open(self.path(name), "ab")  # noqa: SIM115 (closed by `finish`)
        handle.write(data)
        self.longest[name] = max(self.longest.get(name, 0), longest_line(data))

    def append_json(self, name: str, record: object) -> None:
        self.append(name, json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")

    def finish(self) -> None:
        """Everything appended is on disk, ready to be read."""
        while self._open:
            self._open.popitem()[1].close()

    def records(self, name: str) -> Iterator[Any]:
        """What `append_json` appended under `name`, in order."""
        path = self.path(name)
        if not path.exists():
            return
        with open(path, "rb") as lines:
            for line in lines:
                yield json.loads(line)

    def remove(self) -> None:
        """The files closed and removed: what a full disk kept them from writing goes with them."""
        while self._open:
            with contextlib.suppress(OSError):
                self._open.popitem()[1].close()
        shutil.rmtree(self.folder, ignore_errors=True)
