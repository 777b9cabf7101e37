"""Explicit states instead of blanks: stale scores, tools not scored yet, servers below 80% coverage."""

from __future__ import annotations

import json
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, api, build_in_memory


def test_a_changed_definition_marks_its_score_stale_and_new_tools_not_scored(tmp_path: Path) -> None:
    old = definition("fetch_page", "Fetches a page.")
    write_capture(tmp_path, "srv", report("srv", [tool_score(old, scores(4, 3, 3, 3, 4, 3))]), [old])
    # A tools/list captured later, not scored yet: the description changed and a tool was added.
    newer = [definition("fetch_page", "Fetches one web page as Markdown."), definition("fetch_many", "Fetches pages.")]
    (tmp_path / "servers" / "srv" / "2026-07-01T00-00-00Z.tools.json").write_text(json.dumps({"tools": newer}))
    writer, _ = build_in_memory(tmp_path)
    tool = api(writer, "api/servers/srv.json")["tools"][0]
    assert tool["stale"] is True
    text = Page(writer.text(f"servers/srv/tools/{tool['slug']}/index.html")).text
    assert "Stale: scored 2026-06-01" in text and tool["inputHash"] in text
    server_text = Page(writer.text("servers/srv/index.html")).text
    assert "Not scored yet: fetch_many" in server_text
    assert "stale" in server_text


def test_below_80_percent_coverage_publishes_no_description_quality(tmp_path: Path) -> None:
    tools = [tool_score(definition(f"t{i}"), scores(4, 4, 4, 4, 4, 4)) for i in range(3)]
    write_capture(tmp_path, "partial", report("partial", tools, tool_count=4))  # 3 of 4 = 75%
    write_capture(tmp_path, "enough", report("enough", [*tools, tool_score(definition("t3"), scores(4, 4, 4, 4, 4, 4))], tool_count=5))  # 80%
    writer, _ = build_in_memory(tmp_path)
    partial = api(writer, "api/servers/partial.json")["scores"]
    assert partial["coverageOk"] is False and partial["overallScore"] is None and partial["descriptionQualityScore"] is None
    assert partial["coherenceScore"] == 4.5
    enough = api(writer, "api/servers/enough.json")["scores"]
    assert enough["coverageOk"] is True and enough["overallScore"] is not None
    text = Page(writer.text("servers/partial/index.html")).text
    assert "not published: below 80% coverage" in text and "3 of 4 tools scored" in text
    assert "below 80% coverage" in Page(writer.text("servers/index.html")).text
