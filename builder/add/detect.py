"""Which kind of grading result a file is, from its content alone (never from its name: a tdqs
report saved as `report.json` is as much a ScoreReport as `2026-06-01T00-00-00Z.score.json`).

The markers are the fields each format cannot do without; whether the rest is right is for the
system's own reader to say (`stage`), so a broken file of a known kind is reported with the reader's
JSON path and reason instead of "unknown file".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from builder.add.plan import AddError
from builder.sources.datafolder import read_regular
from builder.sources.jsonfile import MAX_FILE_BYTES, Unreadable, json_of_bytes

Kind = Literal["tdqs", "flowmcp-entry", "scoring-report", "cleo"]
KNOWN = ("a tdqs ScoreReport, a FlowMCP grading entry, a Scoring Protocol v1 report "
         "or CLEO GRADES.jsonl rows")


@dataclass(frozen=True)
class Detected:
    kind: Kind
    document: Any
    """The parsed JSON document; for CLEO, None (its rows are read line by line)."""
    raw: bytes


def detect(path: Path) -> Detected:
    raw = read_file(path)
    try:
        document = json_of_bytes(raw)
    except Unreadable as error:
        if _looks_like_json_lines(raw):
            return Detected("cleo", None, raw)
        raise AddError(path, error.json_path, error.reason) from error
    if not isinstance(document, dict):
        raise AddError(path, "$", f"a JSON {type(document).__name__ if document is not None else 'null'} "
                       f"is not a grading result scorecards knows ({KNOWN})")
    keys = set(document)
    if "specVersion" in keys or {"serverScore", "tools"} <= keys:
        return Detected("tdqs", document, raw)
    if "gradingId" in keys or {"area", "gradings"} <= keys:
        return Detected("flowmcp-entry", document, raw)
    if ("prompts" in keys or "scores" in keys) and "scoringProtocol" in keys:
        raise AddError(path, "$", "a Scoring Protocol prompts.json or scores.json is not added by `scorecards add`: "
                       "copy it to scoring-reports/<schemaIdSlug>/ beside its reports")
    if "scoringProtocol" in keys or "schemaIdSlug" in keys:
        return Detected("scoring-report", document, raw)
    if "sessionId" in keys:
        return Detected("cleo", document, raw)
    if "tools" in keys:
        raise AddError(path, "$", "this looks like a tools/list result: add it with --tools beside the tdqs "
                       "ScoreReport that scored it")
    raise AddError(path, "$", f"not a grading result scorecards knows ({KNOWN})")


def read_file(path: Path) -> bytes:
    """The operator's file, read once; one over the size limit is refused before it is read."""
    try:
        return read_regular(path.resolve(), MAX_FILE_BYTES)
    except (Unreadable, OSError) as error:
        reason = error.reason if isinstance(error, Unreadable) else f"cannot read the file: {error.strerror or error}"
        raise AddError(path, "$", reason) from None


def _looks_like_json_lines(raw: bytes) -> bool:
    """Several JSON documents, one a line, the first a CLEO GradeResult."""
    for line in raw.split(b"\n"):
        if line.strip():
            try:
                first = json.loads(line.decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                return False
            return isinstance(first, dict) and "sessionId" in first
    return False
