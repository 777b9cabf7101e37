"""A tool's definition across captures: what changed, since when, and the text diff.

A score belongs to one definition (its inputHash); when the server publishes a new one, the old
score goes stale. A maintainer then needs to see what changed, from which capture on, line by line:
a unified diff of the two definitions as pretty-printed JSON (keys sorted, so a reordering alone
shows nothing). The diff is plain text; templates escape it like any other third-party text.
"""

from __future__ import annotations

import difflib
import itertools
import json
from typing import Any

from tdqs import ToolDefinition

from builder.indented_json import dumps_indented
from builder.pages.page import CamelView
from builder.tdqs.reader import Definition, Server

MAX_DIFF_LINES = 400
"""A definition rewritten wholesale still gets a readable page: the rest of the diff is cut."""


class DefinitionChange(CamelView):
    before_capture: str
    before_date: str
    after_capture: str
    after_date: str
    summary: list[str]
    """The change in words: "description changed", "parameter `q` added" …"""
    diff: str
    """Unified diff of the two definitions, pretty-printed."""


def as_json(value: Any) -> str:
    """A JSON value as JSON text (`false`, `null`, `"text"`), never as Python writes it."""
    return json.dumps(value, ensure_ascii=False)


def document(tool: ToolDefinition) -> dict[str, Any]:
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True)


def pretty(tool: ToolDefinition) -> str:
    """`json.dumps(document(tool), indent=2, sort_keys=True, ensure_ascii=False)`, by
    builder.indented_json (the standard library indents in pure Python)."""
    return dumps_indented(document(tool), sort_keys=True)


def schema_text(tool: ToolDefinition) -> str:
    """The raw input schema, indented, keys in the order the server sent them (as
    `json.dumps(…, indent=2, ensure_ascii=False)` writes it, faster: builder.indented_json)."""
    return dumps_indented(tool.input_schema or {})


def diff(before: ToolDefinition, after: ToolDefinition, before_label: str, after_label: str) -> str:
    lines = list(difflib.unified_diff(
        pretty(before).splitlines(), pretty(after).splitlines(), before_label, after_label, lineterm="",
    ))
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… {len(lines) - MAX_DIFF_LINES} more lines"]
    return "\n".join(lines)


def _properties(tool: ToolDefinition) -> dict[str, Any]:
    schema = tool.input_schema or {}
    properties = schema.get("properties")
    return properties if isinstance(properties, dict) else {}


def summary(before: ToolDefinition, after: ToolDefinition) -> list[str]:
    """What moved, in words, in a fixed order: title, description, each parameter, required,
    the rest of the input schema, annotations, output schema."""
    said: list[str] = []
    if before.title != after.title:
        said.append("title changed")
    if before.description != after.description:
        said.append("description added" if not before.description else
                    "description removed" if not after.description else "description changed")
    old, new = _properties(before), _properties(after)
    for name in [*old, *(n for n in new if n not in old)]:
        if name not in new:
            said.append(f"parameter {name} removed")
        elif name not in old:
            said.append(f"parameter {name} added")
        elif old[name] != new[name]:
            said.append(f"parameter {name} changed")
    old_schema = {k: v for k, v in (before.input_schema or {}).items() if k != "properties"}
    new_schema = {k: v for k, v in (after.input_schema or {}).items() if k != "properties"}
    if old_schema.get("required") != new_schema.get("required"):
        said.append("required parameters changed")
    old_schema.pop("required", None)
    new_schema.pop("required", None)
    if old_schema != new_schema:
        said.append("input schema changed")
    if before.annotations != after.annotations:
        said.append("annotations changed")
    if before.output_schema != after.output_schema:
        said.append("output schema added" if not before.output_schema else
                    "output schema removed" if not after.output_schema else "output schema changed")
    return said or ["definition changed"]


def versions(server: Server, name: str) -> list[tuple[str, str, Definition]]:
    """(capture id, date, definition) of every captured tools/list that lists the tool, oldest first."""
    return [
        (listed.capture_id, listed.captured_at[:10], listed.definitions[name])
        for listed in server.tool_lists if name in listed.definitions
    ]


def changes(server: Server, name: str) -> list[DefinitionChange]:
    """Every change of the tool's definition between consecutive tools/lists that list it, newest first."""
    found = []
    seen = versions(server, name)
    for (a_id, a_date, a), (b_id, b_date, b) in itertools.pairwise(seen):
        if a.input_hash == b.input_hash:
            continue
        found.append(DefinitionChange(
            before_capture=a_id, before_date=a_date, after_capture=b_id, after_date=b_date,
            summary=summary(a.tool, b.tool), diff=diff(a.tool, b.tool, a_id, b_id),
        ))
    return found[::-1]


def first_seen(server: Server, name: str, input_hash: str) -> tuple[str, str] | None:
    """(capture id, date) of the first tools/list in which the tool has this definition, counting
    only the run of captures that ends with the newest (a definition reverted to is new again)."""
    start = None
    for capture_id, date, definition in versions(server, name):
        matches = definition.input_hash == input_hash
        start = (start or (capture_id, date)) if matches else None
    return start
