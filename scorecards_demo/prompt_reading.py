"""Reading back the two user prompts tdqs builds, which is all the stand-in is given.

The stand-in gets exactly what a real model gets, so it has to recover the definition from the
prompt text. The templates are fixed (`tdqs.build_tool_scoring_prompt`,
`tdqs.build_server_coherence_prompt`); the free-text parts (description, sibling names) come
from third parties and may contain anything, so every section is located from the rigid
template text around it, searching from the end where the JSON blocks make that unambiguous,
and nothing here raises: an unreadable part reads as empty.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_SIGNALS = re.compile(
    r"\n\nCONTEXT SIGNALS:\n"
    r"- Parameter count: (?P<params>\d+)\n"
    r"- Required parameters: (?P<required>\d+)\n"
    r"- Schema description coverage: (?P<coverage>\d+)%\n"
    r"- Parameters with enums: (?P<enums>\d+)\n"
    r"- Has output schema: (?P<output>true|false)\n"
    r"- Has nested objects: (?P<nested>true|false)\n"
    r"\n<sibling-tools>\n(?P<siblings>.*)\n</sibling-tools>\n\nRespond with JSON only\.\Z",
    re.DOTALL,
)
_TOOL_LINE = re.compile(
    r"^- (?P<name>.+?) \[cost (?P<cost>\d+): (?P<required>\d+) required, depth (?P<depth>\d+), "
    r"(?P<unions>\d+) union choices\]: (?P<text>.*)$"
)
_CANDIDATE_LINE = re.compile(
    r"^(?P<tool>.+) \(cost (?P<cost>\d+)\) may be shadowed by (?P<sibling>.+) "
    r"\(cost (?P<sibling_cost>\d+)\)$"
)


@dataclass(frozen=True)
class ToolPrompt:
    name: str
    title: str | None
    description: str
    input_schema: dict[str, Any]
    annotations: dict[str, Any] | None
    param_count: int
    required_count: int
    coverage: int
    has_output_schema: bool
    has_nested_objects: bool
    siblings: tuple[str, ...]
    own_text: str
    """The prompt without the sibling list: the part that describes this tool alone, which the
    stand-in's jitter is seeded from, so adding a sibling does not re-roll an unchanged tool."""


@dataclass(frozen=True)
class PromptTool:
    name: str
    description: str
    invocation_cost: int
    required_count: int


@dataclass(frozen=True)
class PromptCandidate:
    tool: str
    cheaper_sibling: str
    invocation_cost: int
    cheaper_sibling_invocation_cost: int


@dataclass(frozen=True)
class CoherencePrompt:
    server_name: str
    tools: tuple[PromptTool, ...]
    candidates: tuple[PromptCandidate, ...]


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _between(text: str, start: str, end: str) -> str:
    """The text after the first `start` and before the next `end`; empty when either is absent."""
    head = text.find(start)
    if head < 0:
        return ""
    head += len(start)
    tail = text.find(end, head)
    return text[head:tail] if tail >= 0 else ""


def read_tool_prompt(user: str) -> ToolPrompt:
    signals = _SIGNALS.search(user)
    body_end = signals.start() if signals else len(user)
    annotations_at = user.rfind("\n\n<annotations>\n", 0, body_end)
    schema_at = user.rfind('"\n\n<input-schema>\n', 0, annotations_at if annotations_at >= 0 else body_end)
    description_at = user.find('\n\nDESCRIPTION:\n"')
    description = ""
    if 0 <= description_at < schema_at:
        description = user[description_at + len('\n\nDESCRIPTION:\n"') : schema_at]
    schema_text = _between(user[max(schema_at, 0) :], "<input-schema>\n", "\n</input-schema>")
    annotations_text = (
        _between(user[annotations_at:], "<annotations>\n", "\n</annotations>") if annotations_at >= 0 else ""
    )
    header = user[: description_at if description_at >= 0 else 0]
    name = _between(header + "\n", "TOOL NAME: ", "\nTITLE: ")
    title = header.split("\nTITLE: ", 1)[1] if "\nTITLE: " in header else "null"
    siblings_text = signals.group("siblings") if signals else "None"
    return ToolPrompt(
        name=name,
        title=None if title == "null" else title,
        description=description,
        input_schema=_json_object(schema_text) or {},
        annotations=_json_object(annotations_text),
        param_count=int(signals.group("params")) if signals else 0,
        required_count=int(signals.group("required")) if signals else 0,
        coverage=int(signals.group("coverage")) if signals else 100,
        has_output_schema=signals is not None and signals.group("output") == "true",
        has_nested_objects=signals is not None and signals.group("nested") == "true",
        siblings=() if siblings_text == "None" else tuple(siblings_text.split("\n")),
        own_text=user[: signals.start("siblings")] if signals else user,
    )


def read_coherence_prompt(user: str) -> CoherencePrompt:
    server_name = _between(user, "SERVER NAME: ", "\nTOOL COUNT: ")
    tools_start = user.find("\n\n<tools>\n")
    tools_end = user.rfind("\n</tools>\n\n<shadow-candidates>\n")
    tools: list[PromptTool] = []
    if 0 <= tools_start < tools_end:
        for line in user[tools_start + len("\n\n<tools>\n") : tools_end].split("\n"):
            match = _TOOL_LINE.match(line)
            if match is not None:
                tools.append(
                    PromptTool(
                        name=match.group("name"),
                        description=match.group("text"),
                        invocation_cost=int(match.group("cost")),
                        required_count=int(match.group("required")),
                    )
                )
            elif tools:
                # A description with line breaks continues on the following lines.
                last = tools[-1]
                tools[-1] = PromptTool(
                    name=last.name,
                    description=f"{last.description}\n{line}",
                    invocation_cost=last.invocation_cost,
                    required_count=last.required_count,
                )
    candidates: list[PromptCandidate] = []
    block = user[tools_end:] if tools_end >= 0 else ""
    for line in _between(block, "<shadow-candidates>\n", "\n</shadow-candidates>").split("\n"):
        match = _CANDIDATE_LINE.match(line)
        if match is not None:
            candidates.append(
                PromptCandidate(
                    tool=match.group("tool"),
                    cheaper_sibling=match.group("sibling"),
                    invocation_cost=int(match.group("cost")),
                    cheaper_sibling_invocation_cost=int(match.group("sibling_cost")),
                )
            )
    return CoherencePrompt(server_name=server_name, tools=tuple(tools), candidates=tuple(candidates))
