"""CLEO rows are appended to `sessions/GRADES.jsonl`, as CLEO itself appends to its own file.

The whole file is checked by the CLEO reader first: a line the build would skip refuses the file,
since `add` is the moment to notice it. A row already in the data folder (in any `sessions/*.jsonl`,
compared as JSON values, so spacing, key order and `38` against `38.0` do not matter) or repeated in the file is skipped and
counted, so adding the same GRADES.jsonl again changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builder.cleo import read
from builder.cleo.reader import FOLDER, SYSTEM, grade_files
from builder.engine.adding import AddKind, AddRequest, Detected, Filing, check_staged

TARGET = f"{FOLDER}/GRADES.jsonl"


def plan_rows(source: Path, found: Detected, request: AddRequest) -> list[Filing]:
    """`request.rows_planned`: the rows earlier files of the same command append (updated here)."""
    data, planned = request.data, request.rows_planned
    lines = _lines(found)
    # As the file is (so the reader's line numbers are the operator's), or the one compact line.
    staged = found.raw if found.document is None else lines[0] + b"\n"
    check_staged(read, [(TARGET, staged, source)])
    seen = {_key(line) for path in grade_files(data) or [] for line in path.read_bytes().split(b"\n")}
    seen |= planned
    new: list[bytes] = []
    for line in lines:
        key = _key(line)
        if key not in seen:
            seen.add(key)
            planned.add(key)
            new.append(line + b"\n")
    return [Filing(source, TARGET, b"".join(new), "CLEO GRADES.jsonl rows", SYSTEM, append=True,
                   rows=len(new), duplicates=len(lines) - len(new))]


def _lines(found: Detected) -> list[bytes]:
    """The rows as JSON Lines: the file's non-blank lines, or one compact line for a single
    (perhaps pretty-printed) GradeResult object."""
    raw = found.raw.removeprefix(b"\xef\xbb\xbf")
    if found.document is not None:
        return [json.dumps(found.document, ensure_ascii=False, separators=(",", ":")).encode()]
    return [line.rstrip(b"\r") for line in raw.split(b"\n") if line.strip()]


def _key(line: bytes) -> Any:
    """A row's identity: its JSON value, numbers by value (`38` is `38.0`), keys in any order; a
    line that is not JSON by its bytes."""
    try:
        return _value(json.loads(line.decode("utf-8-sig")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return line.strip()


def _value(item: Any) -> Any:
    """`item` as a hashable value that equals another exactly when the JSON values are equal:
    Python's numbers already compare by value (38 == 38.0); a boolean is kept apart from 1 and 0."""
    if isinstance(item, dict):
        return ("object", frozenset((key, _value(value)) for key, value in item.items()))
    if isinstance(item, list):
        return ("array", tuple(_value(value) for value in item))
    if isinstance(item, bool):
        return ("boolean", item)
    if isinstance(item, (int, float)):
        return ("number", item)
    return item


KIND = AddKind(
    name="CLEO GRADES.jsonl rows",
    system=SYSTEM,
    matches=lambda document: "sessionId" in document,
    plan=plan_rows,
    json_lines=True,
)
