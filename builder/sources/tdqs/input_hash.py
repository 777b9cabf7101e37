"""tdqs's `inputHash` and `definitionBytes`, computed fast where that is provably exact.

tdqs serializes a definition the way JavaScript's `safe-stable-stringify` does, one character
at a time in Python: at registry scale (a quarter of a million definitions) that is nine tenths
of reading the data. For definitions where `json.dumps(…, sort_keys=True)` writes the very same
bytes — every key ASCII (so code-point and UTF-16 key order agree), no float written in exponent
form, integral floats written as integers, no integer beyond 2^53, no lone surrogate — the bytes
are produced by `json.dumps`; anything else goes to tdqs's own `serialize_tool_definition`.
tdqs stays the reference: the tests compare both on every real definition and on generated ones.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from tdqs import ToolDefinition, serialize_tool_definition

_MAX_SAFE_INTEGER = 2**53


class _Unsafe(Exception):
    pass


def _normalise(value: Any) -> Any:
    if value is None or isinstance(value, bool | str):
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
        for key in value:
            if not isinstance(key, str) or not key.isascii():
                raise _Unsafe
        return {key: _normalise(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(item) for item in value]
    raise _Unsafe


def canonical_definition(tool: ToolDefinition) -> str:
    """The string tdqs hashes: `serialize_tool_definition(tool)`."""
    document = {
        "annotations": tool.annotations,
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "name": tool.name,
        "outputSchema": tool.output_schema,
        "title": tool.title,
    }
    try:
        text = json.dumps(_normalise(document), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        text.encode("utf-8")  # a lone surrogate fails here; JavaScript would escape it
    except (_Unsafe, UnicodeEncodeError, RecursionError):
        return serialize_tool_definition(tool)
    return text


def input_hash(tool: ToolDefinition) -> str:
    """`tdqs.compute_input_hash(tool)`: the first 16 hex characters of SHA-256 of the canonical form."""
    return hashlib.sha256(canonical_definition(tool).encode("utf-8")).hexdigest()[:16]
