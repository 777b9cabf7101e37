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
from typing import Any

from tdqs import stringify_json

from builder.jsjson import Unsafe, normalise


def to_json_text(value: Any) -> str:
    """`stringify_json(value, indent=2) + "\\n"`."""
    try:
        text = json.dumps(normalise(value, sort_keys=False), indent=2, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate fails here; JavaScript would escape it
    except (Unsafe, UnicodeEncodeError):
        text = stringify_json(value, indent=2)
    return text + "\n"
