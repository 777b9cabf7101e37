"""Which kind of grading result a file is, from its content alone (never from its name: a tdqs
report saved as `report.json` is as much a ScoreReport as `2026-06-01T00-00-00Z.score.json`).

Every grading system's kinds (`GradingSystem.adds`) are asked in turn, in the order of the
systems: the first whose markers (the fields its format cannot do without) the file has is its
kind; whether the rest is right is for the system's own reader to say, so a broken file of a known
kind is reported with the reader's JSON path and reason instead of "unknown file".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from builder.engine.adding import AddError, AddKind, Detected, read_file
from builder.sources.jsonfile import Unreadable, json_of_bytes


def detect(path: Path, kinds: Sequence[AddKind]) -> Detected:
    raw = read_file(path)
    known = _known(kinds)
    try:
        document = json_of_bytes(raw)
    except Unreadable as error:
        lines = next((kind for kind in kinds if kind.json_lines and _first_row_matches(kind, raw)), None)
        if lines is not None:
            return Detected(lines, None, raw)
        raise AddError(path, error.json_path, error.reason) from error
    if not isinstance(document, dict):
        raise AddError(path, "$", f"a JSON {type(document).__name__ if document is not None else 'null'} "
                       f"is not a grading result scorecards knows ({known})")
    for kind in kinds:
        if kind.matches(document):
            refused = kind.refuses(document)
            if refused:
                raise AddError(path, "$", refused)
            return Detected(kind, document, raw)
    for kind in kinds:
        hint = kind.hint(document)
        if hint:
            raise AddError(path, "$", hint)
    raise AddError(path, "$", f"not a grading result scorecards knows ({known})")


def _known(kinds: Sequence[AddKind]) -> str:
    names = [kind.name for kind in kinds]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def _first_row_matches(kind: AddKind, raw: bytes) -> bool:
    """Several JSON documents, one a line, the first of this kind."""
    for line in raw.split(b"\n"):
        if line.strip():
            try:
                first = json.loads(line.decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                return False
            return isinstance(first, dict) and kind.matches(first)
    return False
