"""`json.dumps(value, indent=2, ensure_ascii=False)`, the same text, written faster (and with
`sort_keys=True`, as the definition diffs write both definitions).

With an indent, the standard library encodes in pure Python: a generator per nested object,
yielding every bracket, separator and key on its own. Every tool page shows its input schema
indented (builder.tdqs.pages.definitions.schema_text), which made that encoder a fifth of a tool
page's context. This writes the same characters into one list by recursion, with the pieces the
standard encoder itself uses (`json.encoder.encode_basestring`, `int.__repr__`, `float.__repr__`)
for what JSON parsing gives: dicts with str keys, lists, str, int, float, bool and None. Anything
else (a tuple, a subclass, a non-str key, a cycle) is left to `json.dumps` itself, whole.
tests/test_indented_json.py compares the two on real captures, naughty strings and random values.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

INDENT = "  "
_INFINITY = float("inf")
MAX_DEPTH = 200
"""Nesting deeper than this goes to json.dumps: two frames a level here stay under Python's limit."""


class _Unusual(Exception):
    """A value this encoder leaves to json.dumps."""


def dumps_indented(value: Any, sort_keys: bool = False) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)`."""
    parts: list[str] = []
    try:
        _write(value, parts, "\n", sort_keys)
    except _Unusual:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)
    return "".join(parts)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _write(value: Any, parts: list[str], newline: str, sort_keys: bool) -> None:
    """`newline`: a line break and the indent of the line `value` starts on."""
    kind = type(value)
    if kind is str:
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif kind is float:
        parts.append(_float(value))
    elif kind is dict:
        _write_dict(value, parts, newline, sort_keys)
    elif kind is list:
        _write_list(value, parts, newline, sort_keys)
    else:
        raise _Unusual


def _write_dict(value: dict[Any, Any], parts: list[str], newline: str, sort_keys: bool) -> None:
    if not value:
        parts.append("{}")
        return
    if len(newline) > MAX_DEPTH * len(INDENT):  # deep: json.dumps decides (its recursion limit, not ours)
        raise _Unusual
    inner = newline + INDENT
    separator = "{" + inner
    items = value.items()
    if sort_keys:
        # json.dumps sorts the items; its keys are distinct, so that is their order by key alone.
        # A non-str key (json.dumps sorts and writes those its own way) goes to json.dumps below.
        if any(type(key) is not str for key in value):
            raise _Unusual
        items = sorted(items)  # type: ignore[assignment]
    for key, item in items:
        if type(key) is not str:
            raise _Unusual
        parts.append(separator)
        parts.append(encode_basestring(key))
        parts.append(": ")
        _write(item, parts, inner, sort_keys)
        separator = "," + inner
    parts.append(newline + "}")


def _write_list(value: list[Any], parts: list[str], newline: str, sort_keys: bool) -> None:
    if not value:
        parts.append("[]")
        return
    if len(newline) > MAX_DEPTH * len(INDENT):
        raise _Unusual
    inner = newline + INDENT
    separator = "[" + inner
    for item in value:
        parts.append(separator)
        _write(item, parts, inner, sort_keys)
        separator = "," + inner
    parts.append(newline + "]")
