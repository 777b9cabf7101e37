"""tdqs's `inputHash`, computed fast where that is provably exact (see builder.jsjson).

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

from tdqs import ToolDefinition, serialize_tool_definition

from builder.jsjson import Unsafe, normalise, plain


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
        safe = document if plain(document) else normalise(document, sort_keys=True)
        text = json.dumps(safe, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        text.encode("utf-8")  # a lone surrogate fails here; JavaScript would escape it
    except (Unsafe, UnicodeEncodeError, RecursionError):
        return serialize_tool_definition(tool)
    return text


def input_hash(tool: ToolDefinition) -> str:
    """`tdqs.compute_input_hash(tool)`: the first 16 hex characters of SHA-256 of the canonical form."""
    return hashlib.sha256(canonical_definition(tool).encode("utf-8")).hexdigest()[:16]
