"""The 13 real tools/list captures in ../shared/real-tools, scored by tdqs.score_server with the
deterministic stand-in for the model, written as captures and built: every tool gets a page, and
the inputHash on it equals tdqs's own compute_context_signals for that definition.

The scores are stand-in scores (labelled as such on every page); the definitions and their hashes
are real."""

from __future__ import annotations

import json

import pytest
from corpus import write_capture
from shared_data import registered, shared_file
from site_helpers import Page, api, build_in_memory
from tdqs import ToolDefinition, compute_context_signals, parse_tool_definitions, score_server

from builder import urls
from scorecards_demo.standin import StandInLlm

CAPTURES = registered("real-tools", "*.json")


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory):
    data = tmp_path_factory.mktemp("real")
    llm = StandInLlm()
    for path in map(shared_file, CAPTURES):
        document = json.loads(path.read_text(encoding="utf-8"))
        parsed = parse_tool_definitions(document)
        report = score_server(llm=llm, server_name=path.stem, tools=parsed.tools, concurrency=1)
        report = report.model_copy(update={"generated_at": "2026-06-01T00:00:00.000Z"})
        write_capture(data, path.stem, report, document["tools"])
    writer, _ = build_in_memory(data)
    return writer


def test_there_are_239_real_tools_in_13_servers() -> None:
    assert len(CAPTURES) == 13
    assert sum(len(json.loads(shared_file(name).read_text())["tools"]) for name in CAPTURES) == 239


def test_every_real_tool_has_a_page_with_its_own_input_hash(real_site) -> None:
    checked = 0
    for path in map(shared_file, CAPTURES):
        published = {t["name"]: t for t in api(real_site, urls.server_api(urls.slug(path.stem)))["tools"]}
        for raw in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            expected = compute_context_signals(ToolDefinition.model_validate(raw)).input_hash
            tool = published[raw["name"]]
            assert tool["inputHash"] == expected
            page = Page(real_site.text(urls.tool_page(urls.slug(path.stem), tool["slug"])))
            assert f"inputHash {expected}" in page.text
            assert "Stand-in scores" in page.text
            checked += 1
    assert checked == 239
    assert api(real_site, "api/stats.json")["toolCount"] == 239
    assert "stand-in/deterministic-v1" in real_site.text("index.html")


def test_real_definitions_are_rendered_safely(real_site) -> None:
    page = real_site.text(urls.tool_page("github-mcp-server", "get_me"))
    assert "Get details of the authenticated GitHub user" in page
    report = api(real_site, "build-report.json")
    assert report["summary"]["rejected"] == 0
