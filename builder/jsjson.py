"""JSON exactly as JavaScript's `JSON.stringify` writes it (tdqs's `stringify_json`), fast.

tdqs defines two byte sequences by JavaScript's serializer: the files `tdqs score --format json`
writes, and the canonical form of a definition that `inputHash` hashes. tdqs produces them in
Python one character at a time, which is most of the cost of generating or reading a
registry-sized corpus. Where `json.dumps` provably writes the same bytes, it is used; anything
else goes to tdqs. The conditions, checked by `normalise`:

- no float that either language writes in exponent form, integral floats as integers, no
  integer beyond 2^53 (JavaScript numbers are doubles);
- unsorted (`JSON.stringify`): no integer-like object key, which JavaScript lists first;
- sorted (`safe-stable-stringify`): ASCII keys only, where code-point and UTF-16 orders agree;
- no lone surrogate (JavaScript escapes it; Python cannot encode it), checked by the callers.
"""

from __future__ import annotations

import math
from typing import Any

_MAX_SAFE_INTEGER = 2**53


class Unsafe(Exception):
    """`json.dumps` would not write what JavaScript writes for this value."""


def normalise(value: Any, *, sort_keys: bool) -> Any:
    """`value` with integral floats as ints; raises `Unsafe` where the two writers differ."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE_INTEGER:
            raise Unsafe
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Unsafe
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
        if "e" in repr(value):
            raise Unsafe
        return value
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str) or (not key.isascii() if sort_keys else key.isdigit()):
                raise Unsafe
        return {key: normalise(item, sort_keys=sort_keys) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [normalise(item, sort_keys=sort_keys) for item in value]
    raise Unsafe


def plain(value: Any) -> bool:
    """Whether `normalise(value, sort_keys=True)` would give `value` back unchanged: nothing in it
    but None, booleans, strings, integers within 2^53, lists and dicts with ASCII string keys, each
    of exactly those types (no float, tuple or subclass). Checked without making anything, so that
    a definition without floats (most of them) is written by `json.dumps` as it is."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or item is None or kind is bool:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str or not key.isascii():
                    return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is not int or abs(item) > _MAX_SAFE_INTEGER:
            return False
    return True
