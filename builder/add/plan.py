"""What `add` will do, decided before it does anything: one `Filing` per file to write or rows to
append, and the one-line error that stops it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from builder.urls import portable_name

SAFE_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
"""A folder or file name taken from third-party text: no separators, no `..`, no hidden names."""


class AddError(Exception):
    """A file that cannot be filed: one line naming the file, the JSON path and the reason."""

    def __init__(self, file: str | Path, json_path: str, reason: str) -> None:
        super().__init__(f"{file}: {json_path}: {reason}")


@dataclass(frozen=True)
class Filing:
    """One file of the data folder to write (`rows` empty) or to append rows to (CLEO)."""

    source: Path
    """The operator's file, named in the output and in errors."""
    target: str
    """Where it goes, relative to the data folder, with forward slashes."""
    content: bytes
    """The bytes to write; for an append, the rows that are new, each ending in a newline."""
    kind: str
    """What it is, in the operator's words: `tdqs ScoreReport`, `FlowMCP single-test grading` …"""
    system: str
    """Which reader checks it: tdqs, flowmcp, scoring-protocol, cleo."""
    append: bool = False
    rows: int = 0
    """For an append: rows of the source that are new."""
    duplicates: int = 0
    """For an append: rows of the source already present (or repeated in it), skipped."""
    update: bool = False
    """The file may already be there and is rewritten with `content`: a server.json that `add
    --category` adds categories to (keeping everything else it holds)."""


def safe_segment(value: object) -> str | None:
    """`value` when it can name a folder or file as it is, on every system (`urls.portable_name`:
    not `nul`, `con`, `lpt9` …, not ending in a dot), else None."""
    return value if isinstance(value, str) and SAFE_SEGMENT.match(value) and portable_name(value) else None
