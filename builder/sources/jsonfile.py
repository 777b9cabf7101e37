"""Reading third-party JSON without trusting it.

Every reader goes through here so that the failure modes of a file on disk (missing, unreadable,
not UTF-8, not JSON, absurdly large) become one Problem each, with the line and column where the
parser stopped, instead of an exception that takes the build down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builder.problems import ProblemLog

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A capture of the largest real servers is well under 1 MB; anything past this is not a capture."""


class Unreadable(Exception):
    """Raised by `load_json_text` with a reason a person can act on."""

    def __init__(self, json_path: str, reason: str) -> None:
        super().__init__(reason)
        self.json_path = json_path
        self.reason = reason


def relative_name(path: Path, data_dir: Path) -> str:
    try:
        return path.relative_to(data_dir).as_posix()
    except ValueError:
        return path.as_posix()


def load_json_text(path: Path, *, max_bytes: int | None = None) -> Any:
    max_bytes = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        size = path.stat().st_size
    except OSError as error:
        raise Unreadable("$", f"cannot read the file: {error.strerror or error}") from error
    if size > max_bytes:
        raise Unreadable("$", f"file is {size:,} bytes, over the {max_bytes:,}-byte limit for one input file")
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise Unreadable("$", f"cannot read the file: {error.strerror or error}") from error
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Unreadable("$", f"not UTF-8 text (byte {error.start})") from error
    if not text.strip():
        raise Unreadable("$", "the file is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise Unreadable(
            "$", f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from error
    except RecursionError as error:
        raise Unreadable("$", "not usable JSON: nested too deeply") from error


def read_json(path: Path, data_dir: Path, system: str, log: ProblemLog) -> Any | None:
    """The parsed document, or None after logging why the whole file was rejected."""
    name = relative_name(path, data_dir)
    try:
        document = load_json_text(path)
    except Unreadable as error:
        log.reject(name, system, error.json_path, error.reason)
        return None
    if document is None:  # JSON `null`: no reader accepts it, and None means "rejected" here
        log.reject(name, system, "$", "the document is null, not a JSON object or array")
        return None
    log.read(name, system)
    return document
