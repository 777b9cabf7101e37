"""The files' JSON, byte for byte as `tdqs score --format json` writes it, but fast.

The data-directory format is defined as `tdqs.stringify_json(value, indent=2) + "\\n"`, which
follows `JSON.stringify` and quotes strings one character at a time in Python — half the cost
of writing a registry-sized corpus. For values where `json.dumps` provably writes the same bytes
(no integer-like object keys, which JavaScript reorders; no float that either language writes in
exponent form, integral floats written as integers; no integer beyond 2^53; no lone surrogate)
this uses `json.dumps`; anything else goes through `stringify_json` itself. The tests compare
the two on every file of a generated corpus.
"""

from __future__ import annotations

import json
import math
from typing import Any

from tdqs import stringify_json

_MAX_SAFE_INTEGER = 2**53


class _Unsafe(Exception):
    pass


def _normalise(value: Any) -> Any:
    """`value` with integral floats as ints; raises `_Unsafe` where the two writers differ."""
    if isinstance(value, str) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE_INTEGER:
            raise _Unsafe
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Unsafe
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
        if "e" in repr(value):
            raise _Unsafe
        return value
    if isinstance(value, dict):
        normalised: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str) or key.isdigit():
                raise _Unsafe
            normalised[key] = _normalise(item)
        return normalised
    if isinstance(value, list | tuple):
        return [_normalise(item) for item in value]
    raise _Unsafe


def to_json_text(value: Any) -> str:
    """`stringify_json(value, indent=2) + "\\n"`."""
    try:
        text = json.dumps(_normalise(value), indent=2, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate fails here; JavaScript would escape it
    except (_Unsafe, UnicodeEncodeError):
        text = stringify_json(value, indent=2)
    return text + "\n"
