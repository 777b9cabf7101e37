"""The only part of `add` that writes, and only after every file was planned and checked.

A target that exists is compared byte for byte: the same bytes are "already there" and nothing is
written; different bytes stop the whole command before any write, since `add` never replaces a
file. New files are created exclusively (`x` mode), so a file that appears meanwhile is never
written over either. The one exception is a server.json that `add --category` adds categories to:
it is planned from the file as it is, keeps everything in it, and is replaced whole.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from builder.add.plan import AddError, Filing


def conflicts(data: Path, filings: Sequence[Filing]) -> list[bool]:
    """For each filing, True when its file is already there with these bytes; AddError when a
    different file has its name (in the data folder or earlier in the same command)."""
    planned: dict[str, bytes] = {}
    there = []
    for filing in filings:
        path = data / filing.target
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise AddError(filing.source, "$", f"{filing.target} is in the way and is not a file")
        if filing.append:
            there.append(not filing.content)
            continue
        if filing.update:  # planned from the file as it is: the same bytes mean nothing to add
            there.append(path.exists() and path.read_bytes() == filing.content)
            continue
        earlier = planned.get(filing.target)
        if earlier is not None and earlier != filing.content:
            raise AddError(filing.source, "$", f"another file of this command also goes to {filing.target}; "
                           "add them one at a time")
        planned[filing.target] = filing.content
        if path.exists() and path.read_bytes() != filing.content:
            raise AddError(filing.source, "$", f"{filing.target} already holds a different file, "
                           "and add never replaces one")
        there.append(path.exists() or earlier is not None)
    return there


def apply(data: Path, filings: Sequence[Filing], there: Sequence[bool]) -> None:
    for filing, done in zip(filings, there, strict=True):
        if done:
            continue
        path = data / filing.target
        path.parent.mkdir(parents=True, exist_ok=True)
        if filing.append:
            _append(path, filing.content)
        elif filing.update:
            _replace(path, filing.content)
        else:
            with open(path, "xb") as handle:
                handle.write(filing.content)


def _append(path: Path, rows: bytes) -> None:
    """Appends after a newline, so a file whose last line was not ended keeps that line whole."""
    with open(path, "ab+") as handle:
        handle.seek(0, 2)
        if handle.tell():
            handle.seek(-1, 2)
            if handle.read(1) != b"\n":
                handle.write(b"\n")
        handle.write(rows)


def _replace(path: Path, content: bytes) -> None:
    """Writes beside the file, then renames over it: a reader sees the old file or the new one."""
    staged = path.with_name(path.name + ".add-tmp")
    with open(staged, "xb") as handle:
        handle.write(content)
    os.replace(staged, path)
