"""JSON Schemas for synthetic tools, in the dialects MCP SDKs actually emit.

The three styles matter to the site, not just to realism: a TypeScript server built with zod
writes `additionalProperties: false` and a `$schema`, a Python server built with pydantic writes a
`title` on every property and the `anyOf [..., null]` nullable idiom (which tdqs must not count as
a union choice), and a hand-written one writes the bare minimum. Nested required objects are
what give tools an invocation cost, and so shadow candidates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from scorecards_demo.fields import COMPOSITES
from scorecards_demo.vocabulary import FieldSpec

SchemaStyle = Literal["plain", "zod", "pydantic"]

_FORMATS = {"date": "date", "date-time": "date-time", "email": "email", "uri": "uri"}
_DEFAULTS: dict[str, object] = {"limit": 25, "top_k": 10, "max_rows": 100}


@dataclass(frozen=True)
class Param:
    """One top-level parameter of a tool as it will be published."""

    field: FieldSpec
    required: bool
    description: str | None
    union: bool = False
    """Typed `anyOf: [string, integer]`, as servers that accept an ID or a number do."""


def _scalar(field: FieldSpec) -> dict[str, Any]:
    if field.kind in _FORMATS:
        return {"type": "string", "format": _FORMATS[field.kind]}
    if field.kind == "object":
        children = COMPOSITES.get(field.name)
        if children is None:
            return {"type": "object", "additionalProperties": {"type": "string"}}
        return {
            "type": "object",
            "properties": {child.name: _scalar(child) for child in children},
            "required": [child.name for child in children if child.required],
        }
    schema: dict[str, Any] = {"type": field.kind}
    if field.enum:
        schema["enum"] = list(field.enum)
    return schema


def _property(param: Param, style: SchemaStyle) -> dict[str, Any]:
    field = param.field
    value = {"anyOf": [{"type": "string"}, {"type": "integer"}]} if param.union else _scalar(field)
    if field.array:
        value = {"type": "array", "items": value}
    schema: dict[str, Any] = {}
    if style == "pydantic":
        schema["title"] = field.name.replace("_", " ").title()
        if not param.required and field.kind != "object":
            schema["anyOf"] = [value, {"type": "null"}]
            schema["default"] = _DEFAULTS.get(field.name)
        else:
            schema.update(value)
    else:
        schema.update(value)
        if not param.required and field.name in _DEFAULTS:
            schema["default"] = _DEFAULTS[field.name]
    if param.description is not None:
        schema["description"] = param.description
    return schema


def input_schema(
    params: tuple[Param, ...], style: SchemaStyle, *, tool_name: str, nest_filters: bool
) -> dict[str, Any]:
    """`nest_filters` wraps every optional parameter into one `filters` object, as some servers
    do; the tool then has nested objects without any change to what it requires."""
    properties: dict[str, Any] = {}
    optional: dict[str, Any] = {}
    for param in params:
        target = optional if nest_filters and not param.required else properties
        target[param.field.name] = _property(param, style)
    if len(optional) > 1:
        properties["filters"] = {
            "type": "object",
            "description": "Optional filters.",
            "properties": optional,
        }
    else:
        properties.update(optional)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = [param.field.name for param in params if param.required]
    if required:
        schema["required"] = required
    if style == "zod":
        schema["additionalProperties"] = False
        schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    elif style == "pydantic":
        schema["title"] = f"{tool_name}Arguments"
    return schema


def output_schema(fields: tuple[FieldSpec, ...], *, many: bool) -> dict[str, Any]:
    """A structured-content schema: the record's fields, or a page of them for list tools."""
    record: dict[str, Any] = {
        "type": "object",
        "properties": {field.name: _scalar(field) for field in fields},
    }
    if not many:
        return record
    return {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": record},
            "next_cursor": {"type": ["string", "null"]},
        },
        "required": ["items"],
    }
