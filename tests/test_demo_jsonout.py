"""The demo's fast JSON writer writes exactly the bytes `tdqs.stringify_json(value, indent=2)`
writes, including for the values where Python's `json` and JavaScript's `JSON.stringify` differ
(those fall back to tdqs's own writer)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tdqs import stringify_json

from scorecards_demo.jsonout import to_json_text

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(VALUES)
def test_matches_tdqs_for_any_json_value(value: Any) -> None:
    assert to_json_text(value) == stringify_json(value, indent=2) + "\n"


def test_matches_tdqs_where_the_two_languages_differ() -> None:
    awkward = {
        "2": "integer-like keys come first in JavaScript",
        "a": [1.0, 3.5, 1e-7, 1e21, 2**53 + 1, -0.0],
        "lone": "\ud800",
        "controls": "\u0000\u001f\u007f\u2028",
        "10": {},
    }
    assert to_json_text(awkward) == stringify_json(awkward, indent=2) + "\n"
