"""Not-scored states are pages, never absences: a captured server without a usable score, a tool
of the newest tools/list without a score, and a stale score that says what changed and since when.
Tool pages show the raw schema, the definition's changes as a text diff and JSON values as JSON."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory

from builder.engine.write import MemoryWriter


def _links_resolve(writer: MemoryWriter, path: str) -> None:
    """Every relative link of the page points at a file the build wrote."""
    for link in Page(writer.text(path)).links:
        if link.startswith(("http:", "https:", "#", "mailto:")):
            continue
        href = link.split("#")[0]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href))
        if href.endswith("/"):
            target = "index.html" if target == "." else target + "/index.html"
        assert target in writer.files, (path, link, target)  # the manifest and its parts too: a build in memory writes them


def _tools_only(data: Path, server: str, stamp: str, tools: list[dict]) -> None:
    folder = data / "servers" / server
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stamp}.tools.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")


def test_a_server_with_only_a_tools_list_has_a_not_scored_page_and_a_row(tmp_path: Path) -> None:
    scored = definition("fetch_page")
    write_capture(tmp_path, "scored", report("scored", [tool_score(scored, scores(4, 4, 4, 4, 4, 4))]), [scored])
    _tools_only(tmp_path, "fresh", "2026-07-01T00-00-00Z", [definition("alpha", "Alpha."), definition("beta", None)])
    writer, _ = build_in_memory(tmp_path)
    page = Page(writer.text("servers/fresh/index.html"))
    assert "not scored yet" in page.text
    assert "only a tools/list has been captured; it has not been scored yet" in page.text
    assert "Newest capture 2026-07-01" in page.text
    assert "tools/alpha/" in " ".join(page.links) and "tools/beta/" in " ".join(page.links)
    tool = Page(writer.text("servers/fresh/tools/alpha/index.html")).text
    assert "not scored yet" in tool and "Alpha." in tool
    _links_resolve(writer, "servers/fresh/index.html")
    _links_resolve(writer, "servers/fresh/tools/beta/index.html")
    listing = Page(writer.text("servers/index.html"))
    assert "2 servers" in listing.text and "1 not scored yet" in listing.text
    assert "../servers/fresh/" in listing.links or "fresh/" in listing.links
    assert "captured 1 Jul 2026" in listing.text and "0 of 2" in listing.text
    # The row has a cell under every heading, its capture date under "Scored".
    html = writer.text("servers/index.html")
    headings = [h.split(">", 1)[1].split("<", 1)[0] for h in html.split("<thead>")[1].split("</thead>")[0].split("<th ")[1:]]
    cells = html.split('<tr data-tier="not scored">')[1].split("</tr>")[0].split("<td")[1:]
    assert len(cells) == len(headings) and "captured" in cells[headings.index("Scored")]
    # Not in the statistics: the home page counts the one scored server.
    assert json.loads(writer.text("api/stats.json"))["serverCount"] == 1


def test_a_server_whose_every_capture_was_rejected_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "servers" / "broken"
    folder.mkdir(parents=True)
    (folder / "2026-06-01T00-00-00Z.score.json").write_text("{not json", encoding="utf-8")
    (folder / "server.json").write_text(json.dumps({"displayName": "Broken <b>server</b>"}), encoding="utf-8")
    scored = definition("fetch_page")
    write_capture(tmp_path, "ok", report("ok", [tool_score(scored, scores(4, 4, 4, 4, 4, 4))]))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/broken/index.html")
    text = Page(html).text
    assert "Broken <b>server</b>" in text and "<b>server</b>" not in html  # escaped, shown as text
    assert "the only score capture was rejected: servers/broken/2026-06-01T00-00-00Z.score.json:" in text
    assert "No readable tools/list has been captured." in text
    assert "Broken <b>server</b>" in Page(writer.text("servers/index.html")).text


def test_a_tool_of_the_newest_tools_list_without_a_score_has_a_page_and_a_row(tmp_path: Path) -> None:
    one, two = definition("fetch_page", "Fetches a page."), definition("fetch_many", "Fetches pages.")
    # The report scores one tool; its tools/list has two.
    write_capture(tmp_path, "srv", report("srv", [tool_score(one, scores(4, 4, 4, 4, 4, 4))], tool_count=2), [one, two])
    writer, _ = build_in_memory(tmp_path)
    server = Page(writer.text("servers/srv/index.html"))
    assert "Not scored yet fetch_many" in server.text.replace(":", "")
    assert "the score report has no score for it" in server.text
    assert "tools/fetch_many/" in server.links
    tool = Page(writer.text("servers/srv/tools/fetch_many/index.html")).text
    assert "This tool has no score yet" in tool and "Fetches pages." in tool
    # It links back to the scored tool, and the scored tool to it.
    assert "../fetch_page/" in Page(writer.text("servers/srv/tools/fetch_many/index.html")).links
    assert "../fetch_many/" in Page(writer.text("servers/srv/tools/fetch_page/index.html")).links
    _links_resolve(writer, "servers/srv/index.html")
    _links_resolve(writer, "servers/srv/tools/fetch_many/index.html")


def test_a_stale_score_says_what_changed_since_when_with_the_diff(tmp_path: Path) -> None:
    old = definition("search", "Finds notes.")
    write_capture(tmp_path, "srv", report("srv", [tool_score(old, scores(4, 3, 3, 3, 4, 3))]), [old])
    new = {**definition("search", "Finds notes by title."),
           "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    _tools_only(tmp_path, "srv", "2026-07-01T00-00-00Z", [new])
    _tools_only(tmp_path, "srv", "2026-08-01T00-00-00Z", [new])
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/srv/tools/search/index.html")
    text = Page(html).text
    assert "published since 2026-07-01 (capture 2026-07-01T00-00-00Z)" in text
    assert "What changed: description changed, parameter q added" in text
    # The diff of the pretty-printed definitions (keys sorted), written out by hand.
    expected = "\n".join([
        "--- 2026-06-01T00-00-00Z",
        "+++ 2026-07-01T00-00-00Z",
        "@@ -1,7 +1,11 @@",  # three lines of context: the closing brace, line 8, is not shown
        " {",
        '-  "description": "Finds notes.",',
        '+  "description": "Finds notes by title.",',
        '   "inputSchema": {',
        '-    "properties": {},',
        '+    "properties": {',
        '+      "q": {',
        '+        "type": "string"',
        "+      }",
        "+    },",
        '     "type": "object"',
        "   },",
        '   "name": "search"',
    ])
    block = html.split('<pre class="diff"><code>')[1].split("</code></pre>")[0]
    assert block == expected  # element content: quotes as they are (issue 45), only &, < and > escaped
    assert text.count("2026-06-01 → 2026-07-01: description changed, parameter q added") == 1


def test_json_values_are_shown_as_json(tmp_path: Path) -> None:
    tool = definition(
        "sort", "Sorts.",
        annotations={"readOnlyHint": False, "idempotentHint": True, "title": "Sort"},
        inputSchema={"type": "object", "properties": {"order": {"type": "string", "enum": ["asc", None, True, 2]}}},
    )
    write_capture(tmp_path, "srv", report("srv", [tool_score(tool, scores(4, 4, 4, 4, 4, 4))]), [tool])
    writer, _ = build_in_memory(tmp_path)
    page = Page(writer.text("servers/srv/tools/sort/index.html"))
    assert 'idempotentHint: true , readOnlyHint: false , title: "Sort"' in page.text
    assert '( "asc" , null , true , 2 )' in page.text
    assert "False" not in page.text and "True" not in page.text and "None" not in page.text
    # The raw schema, collapsed, as the server sent it.
    html = writer.text("servers/srv/tools/sort/index.html")
    assert '<details class="schema"><summary>Raw input schema (JSON)</summary>' in html
    assert '"enum": [\n' in html and "&#34;" not in html.split('<details class="schema">')[1]
