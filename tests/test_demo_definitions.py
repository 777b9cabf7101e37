"""The synthetic servers before any scoring: exact corpus plans, and tool definitions as varied as
a registry's. Shares are measured on the rendered `tools/list` entries, the way a reader of the
corpus would see them, with bounds wide enough to hold for any seed."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from tdqs import ToolDefinition, compute_context_signals

from scorecards_demo.definitions import build_server, render_tool
from scorecards_demo.plan import plan_corpus, tool_counts

SERVER_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def test_tool_counts_add_up_exactly_with_a_realistic_spread() -> None:
    counts = tool_counts(15036, 228369, random.Random(0))
    assert sum(counts) == 228369 and len(counts) == 15036
    assert min(counts) >= 1 and max(counts) <= 120
    assert sum(3 <= count <= 20 for count in counts) / len(counts) > 0.65
    assert sum(count > 50 for count in counts) > 100  # a long tail


@pytest.mark.parametrize(("servers", "tools"), [(1, 1), (1, 7), (3, 3), (2, 1000), (7, 3499)])
def test_tool_counts_handle_the_edges(servers: int, tools: int) -> None:
    counts = tool_counts(servers, tools, random.Random(5))
    assert sum(counts) == tools and len(counts) == servers
    assert all(1 <= count <= 500 for count in counts)


def test_plans_are_deterministic_unique_and_time_ordered() -> None:
    plans = plan_corpus(servers=500, tools=7000, seed=3, history_share=0.3)
    assert plans == plan_corpus(servers=500, tools=7000, seed=3, history_share=0.3)
    assert plans != plan_corpus(servers=500, tools=7000, seed=4, history_share=0.3)
    ids = [plan.server_id for plan in plans]
    assert len(set(ids)) == len(ids) and all(SERVER_ID.fullmatch(server_id) for server_id in ids)
    assert sum(len(plan.captures) > 1 for plan in plans) == 150
    assert {len(plan.captures) for plan in plans} == {1, 2, 3}
    for plan in plans:
        assert list(plan.captures) == sorted(set(plan.captures))
        assert all(stamp.endswith(".000Z") and stamp < "2026-06-01T00:00:00.000Z" for stamp in plan.captures)


@pytest.fixture(scope="module")
def servers() -> list[list[dict[str, Any]]]:
    state = random.getstate()
    rendered = []
    for plan in plan_corpus(servers=300, tools=4500, seed=11, history_share=0.0):
        draft = build_server(plan, 11)
        rendered.append([render_tool(tool, draft.author) for tool in draft.tools])
    assert random.getstate() == state, "the global RNG was used"
    return rendered


def test_servers_are_rebuilt_identically_from_their_plan() -> None:
    plan = plan_corpus(servers=5, tools=60, seed=2, history_share=0.0)[3]
    first, second = build_server(plan, 2), build_server(plan, 2)
    assert [render_tool(tool, first.author) for tool in first.tools] == [
        render_tool(tool, second.author) for tool in second.tools
    ]


def test_every_tool_is_a_valid_definition_with_a_unique_name(servers: list[list[dict[str, Any]]]) -> None:
    for tools in servers:
        names = [tool["name"] for tool in tools]
        assert len(set(names)) == len(names)
        for tool in tools:
            definition = ToolDefinition.model_validate(tool)
            assert 0 <= compute_context_signals(definition).param_count <= 6


def _share(servers: list[list[dict[str, Any]]], test: Any) -> float:
    tools = [tool for server in servers for tool in server]
    return sum(1 for tool in tools if test(tool)) / len(tools)


def test_definitions_span_what_registries_contain(servers: list[list[dict[str, Any]]]) -> None:
    def blank(tool: dict[str, Any]) -> bool:
        return not str(tool.get("description") or "").strip()

    def properties(tool: dict[str, Any]) -> dict[str, Any]:
        return tool["inputSchema"].get("properties", {})

    assert 0.002 < _share(servers, blank) < 0.04
    assert 0.15 < _share(servers, lambda tool: "annotations" in tool) < 0.65
    assert 0.01 < _share(servers, lambda tool: "outputSchema" in tool) < 0.25
    assert 0.1 < _share(servers, lambda tool: "title" in tool) < 0.6
    assert 0.02 < _share(servers, lambda tool: not properties(tool)) < 0.3
    assert _share(servers, lambda tool: any("enum" in json for json in map(str, properties(tool).values()))) > 0.1
    assert _share(servers, lambda tool: "'type': 'object'" in str(properties(tool))) > 0.03
    assert _share(servers, lambda tool: "$schema" in tool["inputSchema"]) > 0.1  # zod
    assert _share(servers, lambda tool: "anyOf" in str(tool["inputSchema"])) > 0.05  # pydantic's nullable
    assert _share(servers, lambda tool: "Args:" in str(tool.get("description"))) > 0.002
    assert _share(servers, lambda tool: "\n- " in str(tool.get("description"))) > 0.01  # Markdown lists
    lengths = [len(str(tool.get("description") or "").split()) for server in servers for tool in server]
    assert min(lengths) == 0 and max(lengths) > 80 and 8 < sorted(lengths)[len(lengths) // 2] < 60


def test_names_follow_per_server_conventions_and_some_servers_mix_them(
    servers: list[list[dict[str, Any]]],
) -> None:
    def style(name: str) -> str:
        if "." in name:
            return "dotted"
        if "-" in name:
            return "kebab"
        if "_" in name:
            return "snake"
        return "camel" if any(ch.isupper() for ch in name) else "word"

    dominant = Counter()
    mixed = 0
    for tools in servers:
        styles = Counter(style(tool["name"]) for tool in tools) - Counter({"word": len(tools)})
        if styles:
            dominant[styles.most_common(1)[0][0]] += 1
            mixed += len(styles) > 1
    assert dominant.most_common(1)[0][0] == "snake"
    assert {"camel", "kebab", "dotted"} <= set(dominant)
    assert 0.03 < mixed / len(servers) < 0.4
