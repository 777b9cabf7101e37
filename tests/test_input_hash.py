"""The fast inputHash equals tdqs's own `compute_input_hash` on every real definition and on
generated ones, including the cases where it must fall back to tdqs's serializer."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import shared_folder
from tdqs import ToolDefinition, compute_input_hash

from builder.tdqs.input_hash import canonical_definition, input_hash


def real_definitions() -> list[dict]:
    found = []
    for path in sorted(shared_folder("real-tools").rglob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        found.extend(document["tools"] if isinstance(document, dict) and "tools" in document else [document])
    return found


def test_every_real_definition_hashes_as_tdqs_does() -> None:
    definitions = real_definitions()
    assert len(definitions) > 300
    for raw in definitions:
        tool = ToolDefinition.model_validate(raw)
        assert input_hash(tool) == compute_input_hash(tool), raw["name"]


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=10), st.none() | st.text(max_size=30), values, st.none() | st.dictionaries(st.text(max_size=6), values, max_size=3))
def test_generated_definitions_hash_as_tdqs_does(name: str, description: str | None, schema: object, annotations: object) -> None:
    raw = {"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": {"p": schema, "10": 1.0, "é": [1e-7, 2.5]}},
           "annotations": annotations}
    tool = ToolDefinition.model_validate(raw)
    assert input_hash(tool) == compute_input_hash(tool)


def test_fallback_cases_use_tdqs_serializer() -> None:
    # A non-ASCII key and an exponent-form float: json.dumps would differ, so tdqs serializes.
    tool = ToolDefinition.model_validate({"name": "x", "inputSchema": {"properties": {"😀": {"minimum": 1e-7}}}})
    from tdqs import serialize_tool_definition

    assert canonical_definition(tool) == serialize_tool_definition(tool)


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**54), 2**54) | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=10), plain_values)
def test_definitions_written_as_they_are_hash_as_tdqs_does(name: str, schema: object) -> None:
    # No float or non-ASCII key forced in: many of these take the path that skips `normalise`.
    tool = ToolDefinition.model_validate({"name": name, "inputSchema": {"type": "object", "properties": {"p": schema}}})
    assert input_hash(tool) == compute_input_hash(tool)


def _reference_plain(value: object) -> bool:
    """`plain`, written the other way round: recursively, by what each value may be."""
    if value is None or type(value) in (bool, str):
        return True
    if type(value) is int:
        return abs(value) <= 2**53
    if type(value) is list:
        return all(_reference_plain(item) for item in value)
    if type(value) is dict:
        return all(type(key) is str and key.isascii() for key in value) and all(
            _reference_plain(item) for item in value.values())
    return False


@settings(max_examples=500, deadline=None)
@given(plain_values)
def test_a_plain_value_is_what_normalise_gives_back(value: object) -> None:
    from builder.jsjson import normalise, plain

    assert plain(value) == _reference_plain(value)
    if plain(value):
        assert json.dumps(normalise(value, sort_keys=True), sort_keys=True) == json.dumps(value, sort_keys=True)
