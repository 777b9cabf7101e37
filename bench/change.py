"""A day in the life of a registry: 1% of the servers get a new capture.

For each chosen server the newest tools/list is taken and a handful of its tools change the way
maintainers change them (a description improved with when-to-use and side-effect sentences, a
description cut back to its first sentence, a parameter description added, a tool added, a tool
removed); the rest stay byte-identical, so their inputHash does not move. The new list is scored
by the real `tdqs.score_server` with the demo's deterministic stand-in model, stamped one day
after the corpus's newest capture, and written beside the old captures. index.json is then
updated for exactly those servers, as `scorecards index` would write it, without reading the
other 99%.

Deterministic: the same corpus and seed choose the same servers and make the same edits.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tdqs import parse_tool_definitions, score_server, stringify_json

from bench.corpus import INDEX, replace_file
from builder.engine.problems import ProblemLog
from builder.tdqs import layout
from builder.tdqs.models import RegistryIndex
from builder.tdqs.reader import read_server
from builder.tdqs.registry_index import dump_index, index_server
from scorecards_demo.standin import StandInLlm

NEW_CAPTURE_AT = datetime(2026, 6, 2, tzinfo=UTC)
"""After every demo capture (they all lie before 2026-06-01): the change is the newest data."""


@dataclass(frozen=True)
class Change:
    servers: list[str]
    tools_edited: int
    tools_added: int
    tools_removed: int


def _stamp(moment: datetime) -> str:
    return f"{moment:%Y-%m-%dT%H:%M:%S}.000Z"


def _newest_tools(folder: Path) -> list[dict[str, Any]]:
    newest = sorted(folder.glob(f"*{layout.TOOLS_SUFFIX}"))[-1]
    return json.loads(newest.read_text(encoding="utf-8"))["tools"]


def _improve(tool: dict[str, Any], sibling: str | None) -> None:
    text = (tool.get("description") or f"Runs {tool['name']}.").rstrip()
    alternative = f" For other cases use {sibling} instead." if sibling else ""
    tool["description"] = (
        f"{text} Use it when you need exactly this operation and already know the identifiers it takes."
        f"{alternative} It does not change anything else, is safe to retry, and returns the affected record."
    )


def _regress(tool: dict[str, Any]) -> None:
    text = tool.get("description") or ""
    first = text.split(". ")[0].rstrip(".")
    tool["description"] = f"{first}." if first else tool["name"]


def _document_parameter(tool: dict[str, Any]) -> bool:
    properties = (tool.get("inputSchema") or {}).get("properties") or {}
    for name in sorted(properties):
        schema = properties[name]
        if isinstance(schema, dict) and not schema.get("description"):
            schema["description"] = f"The {name.replace('_', ' ')} to use; see the service's API reference."
            return True
    return False


def _edit(tools: list[dict[str, Any]], rng: random.Random) -> tuple[list[dict[str, Any]], int, int, int]:
    tools = copy.deepcopy(tools)
    edited = added = removed = 0
    for _ in range(max(1, round(len(tools) * rng.uniform(0.05, 0.25)))):
        kind = rng.choices(("improve", "regress", "param", "add", "remove"), weights=(35, 15, 20, 15, 15))[0]
        index = rng.randrange(len(tools))
        tool = tools[index]
        if kind == "improve":
            sibling = tools[(index + 1) % len(tools)]["name"] if len(tools) > 1 else None
            _improve(tool, sibling)
            edited += 1
        elif kind == "regress":
            _regress(tool)
            edited += 1
        elif kind == "param":
            edited += _document_parameter(tool)
        elif kind == "add" and len(tools) < 500:
            names = {t["name"] for t in tools}
            extra = copy.deepcopy(tool)
            extra["name"] = next(f"{tool['name']}_v{n}" for n in range(2, 1000) if f"{tool['name']}_v{n}" not in names)
            extra["description"] = f"Version 2 of {tool['name']}: the same operation with paging. " + (
                tool.get("description") or ""
            )
            tools.insert(index + 1, extra)
            added += 1
        elif kind == "remove" and len(tools) > 1:
            tools.pop(index)
            removed += 1
    return tools, edited, added, removed


def choose_servers(data: Path, share: float, seed: int) -> list[str]:
    ids = sorted(p.name for p in (data / layout.SERVERS_DIR).iterdir() if p.is_dir())
    count = max(1, round(len(ids) * share))
    return sorted(random.Random(f"bench-change:{seed}").sample(ids, count))


def apply_change(data: Path, *, share: float = 0.01, seed: int = 0) -> Change:
    """Adds one new capture to `share` of the servers of `data` and updates index.json."""
    chosen = choose_servers(data, share, seed)
    llm = StandInLlm()
    edited = added = removed = 0
    for position, server_id in enumerate(chosen):
        folder = data / layout.SERVERS_DIR / server_id
        rng = random.Random(f"bench-change:{seed}:{server_id}")
        tools, e, a, r = _edit(_newest_tools(folder), rng)
        edited, added, removed = edited + e, added + a, removed + r
        generated_at = _stamp(NEW_CAPTURE_AT + timedelta(minutes=position))
        parsed = parse_tool_definitions({"tools": tools})
        report = score_server(llm=llm, server_name=server_id, tools=parsed.tools, concurrency=1)
        report = report.model_copy(update={"generated_at": generated_at})
        capture = layout.capture_id_for(generated_at)
        (folder / f"{capture}{layout.TOOLS_SUFFIX}").write_text(
            stringify_json({"tools": tools}, indent=2) + "\n", encoding="utf-8")
        (folder / f"{capture}{layout.SCORE_SUFFIX}").write_text(
            stringify_json(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
    _update_index(data, chosen)
    return Change(chosen, edited, added, removed)


def _update_index(data: Path, changed: list[str]) -> None:
    index = RegistryIndex.model_validate_json((data / INDEX).read_text(encoding="utf-8"))
    wanted = set(changed)
    fresh = {}
    for files in layout.discover(data):
        if files.server_id in wanted:
            server = read_server(files, data, ProblemLog())
            if server is None:
                raise RuntimeError(f"the changed server {files.server_id} no longer reads")
            fresh[server.server_id] = index_server(server)
    servers = [fresh.get(entry.id, entry) for entry in index.servers]
    replace_file(data / INDEX, dump_index(index.model_copy(update={"servers": servers})))
