"""builder.indented_json writes what `json.dumps(value, indent=2, ensure_ascii=False)` writes: on
the input schemas of the real captures, on naughty strings as keys and values, on random JSON
values, and on what it leaves to json.dumps (tuples, subclasses, non-str keys, deep nesting, cycles)."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import shared_file, shared_folder

from builder.indented_json import MAX_DEPTH, dumps_indented


def _standard(value: Any, sort_keys: bool = False) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)


def _schemas(value: Any) -> list[Any]:
    if isinstance(value, dict):
        found = [value["inputSchema"]] if "inputSchema" in value else []
        return found + [s for item in value.values() for s in _schemas(item)]
    if isinstance(value, list):
        return [s for item in value for s in _schemas(item)]
    return []


def test_the_input_schemas_of_the_real_captures() -> None:
    schemas = [
        schema for file in sorted(shared_folder("real-tools").rglob("*.json"))
        for schema in _schemas(json.loads(file.read_text(encoding="utf-8")))
    ]
    assert len(schemas) > 50
    for schema in schemas:
        assert dumps_indented(schema) == _standard(schema)
        assert dumps_indented(schema, sort_keys=True) == _standard(schema, sort_keys=True)


def test_naughty_strings_as_keys_and_values() -> None:
    naughty = json.loads(shared_file("bad-input/naughty-strings.json").read_text(encoding="utf-8"))
    value = {"properties": {s: {"type": "string", "description": s, "enum": [s, None, 1]} for s in naughty}}
    text = dumps_indented(value)
    assert text == _standard(value)
    assert json.loads(text) == value
    assert dumps_indented(value, sort_keys=True) == _standard(value, sort_keys=True)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_random_json_values(value: Any) -> None:
    assert dumps_indented(value) == _standard(value)
    assert dumps_indented(value, sort_keys=True) == _standard(value, sort_keys=True)


def test_numbers_and_what_goes_to_json_dumps() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(MAX_DEPTH + 5):
        inner.append({"a": []})
        inner = inner[0]["a"]
    for value in (
        [math.nan, math.inf, -math.inf, -0.0, 1e300, 5e-324, 10**40, True, False, None],
        {"t": (1, [2, (3,)])}, {1: "a", 2.5: "b", False: "c", None: "d"}, OrderedDict(b=1, a=2),
        {"s": type("S", (str,), {})("x")}, [type("I", (int,), {})(3)], deep,
    ):
        assert dumps_indented(value) == _standard(value)
        if not isinstance(value, dict) or all(isinstance(key, str) for key in value):
            assert dumps_indented(value, sort_keys=True) == _standard(value, sort_keys=True)
    with pytest.raises(TypeError):  # json.dumps cannot sort keys of different types, nor can this
        dumps_indented({1: "a", "b": 2}, sort_keys=True)
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    with pytest.raises(ValueError, match="Circular"):
        dumps_indented(cycle)


def test_the_definition_diffs_pretty_print_as_json_dumps_did() -> None:
    """`pretty` (the text the definition diffs compare) over the real captures' tool definitions."""
    from tdqs import ToolDefinition

    from builder.tdqs.pages.definitions import document, pretty

    tools = [
        ToolDefinition.model_validate(tool) for file in sorted(shared_folder("real-tools").rglob("*.json"))
        for tool in _tools(json.loads(file.read_text(encoding="utf-8")))
    ]
    assert len(tools) > 50
    for tool in tools:
        assert pretty(tool) == json.dumps(document(tool), indent=2, sort_keys=True, ensure_ascii=False)


def _tools(value: Any) -> list[Any]:
    if isinstance(value, dict):
        found = [value] if "inputSchema" in value and "name" in value else []
        return found + [t for item in value.values() for t in _tools(item)]
    if isinstance(value, list):
        return [t for item in value for t in _tools(item)]
    return []
