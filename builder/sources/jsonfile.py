"""Reading third-party JSON without trusting it.

Every reader goes through here so that the failure modes of a file on disk (missing, unreadable,
not UTF-8, not JSON, absurdly large) become one Problem each, with the line and column where the
parser stopped, instead of an exception that takes the build down.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from builder.engine.problems import ProblemLog, json_path
from builder.sources import input_files
from builder.sources.datafolder import Unreadable, read_regular

__all__ = ["MAX_FILE_BYTES", "Unreadable", "json_of_bytes", "load_json_text", "parse_json", "read_json", "relative_name"]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A capture of the largest real servers is well under 1 MB; anything past this is not a capture."""
MAX_INT_DIGITS = sys.get_int_max_str_digits()
"""Python's own limit for turning digits into an int (4,300 by default): a longer integer is
refused by name instead of ending the parse with an unexplained ValueError."""
_TOO_LONG = re.compile(r"value has (\d+) digits")


def relative_name(path: Path, data_dir: Path) -> str:
    try:
        return path.relative_to(data_dir).as_posix()
    except ValueError:
        return path.as_posix()


def load_json_text(path: Path, *, max_bytes: int | None = None) -> Any:
    return json_of_bytes(read_regular(path, MAX_FILE_BYTES if max_bytes is None else max_bytes))


def json_of_bytes(raw: bytes) -> Any:
    """The JSON document a file's bytes hold (UTF-8, a byte order mark allowed); `Unreadable` if none."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Unreadable("$", f"not UTF-8 text (byte {error.start})") from error
    if not text.strip():
        raise Unreadable("$", "the file is empty")
    return parse_json(text)


class _Duplicates(dict):  # type: ignore[type-arg]
    """An object that named a key twice, with the keys it repeated."""

    repeated: list[str]


class _Found(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _repeated(pairs: list[tuple[str, Any]], made: dict[str, Any], marked: list[bool]) -> dict[str, Any]:
    """The object of `pairs`, which named a key twice, marked with the keys it repeated."""
    seen: set[str] = set()
    repeated = _Duplicates(made)
    repeated.repeated = [key for key, _ in pairs if key in seen or seen.add(key)]  # type: ignore[func-returns-value]
    marked.append(True)
    return repeated


def _constant(name: str) -> Any:
    raise _Found(f"{name} is not a JSON number")


def parse_json(text: str, *, one_line: bool = False) -> Any:
    """`json.loads`, but a document that JSON parsers would read differently is refused: a key
    named twice in one object (one parser keeps the first value, another the last: never chosen
    silently here), an integer too long for Python, NaN or Infinity. Raises `Unreadable`.
    `one_line`: the text is one line of a JSON Lines file, so a parse error names the column only."""
    try:
        marked: list[bool] = []

        def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            # One call a JSON object (the parser's own dicts would keep the last of a repeated key).
            made = dict(pairs)
            return made if len(made) == len(pairs) else _repeated(pairs, made, marked)

        document = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=_constant)
    except json.JSONDecodeError as error:
        at = f"column {error.colno}" if one_line else f"line {error.lineno}, column {error.colno}"
        raise Unreadable("$", f"not valid JSON: {error.msg} at {at}") from error
    except _Found as error:
        raise Unreadable("$", f"not usable JSON: {error.reason}") from error
    except ValueError as error:  # an integer past Python's limit (a parse_int hook would cost every number a call)
        long = _TOO_LONG.search(str(error))
        reason = (f"an integer of {int(long.group(1)):,} digits, more than the {MAX_INT_DIGITS:,} a number in a "
                  "grading result can have") if long else str(error)
        raise Unreadable("$", f"not usable JSON: {reason}") from error
    except RecursionError as error:
        raise Unreadable("$", "not usable JSON: nested too deeply") from error
    duplicate = _walk(document, []) if marked else None  # a clean document is not walked
    if duplicate is not None:
        where, key = duplicate
        raise Unreadable(
            json_path(where), f"not usable JSON: the key {key!r} appears more than once in this object "
            "(JSON readers disagree on which value counts, so none is taken)",
        )
    return document


def _walk(value: Any, where: list[str | int]) -> tuple[list[str | int], str] | None:
    """Where the first object with a repeated key is, and the key."""
    if isinstance(value, _Duplicates):
        return where, value.repeated[0]
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _walk(item, [*where, key])
        if found is not None:
            return found
    return None


def read_json(path: Path, data_dir: Path, system: str, log: ProblemLog) -> Any | None:
    """The parsed document, or None after logging why the whole file was rejected."""
    name = relative_name(path, data_dir)
    try:
        document = load_json_text(path)
    except Unreadable as error:
        log.reject(name, system, error.json_path, error.reason)
        return None
    reads = input_files.active()
    if reads is not None:
        reads.parsed(path, document)
    if document is None:  # JSON `null`: no reader accepts it, and None means "rejected" here
        log.reject(name, system, "$", "the document is null, not a JSON object or array")
        return None
    log.read(name, system)
    return document
