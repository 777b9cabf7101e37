"""Whose server (builder.tdqs.identity) and server categories (builder.tdqs.categories): the line
under a server's name, read off its repository URL, and categories that are one whatever their
case or punctuation; a broken `categories` in server.json is reported with its file, JSON path and
reason, and the rest of the server still builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, api, build_in_memory

from builder.tdqs.categories import category_key, spellings
from builder.tdqs.identity import identity, repository_of


@pytest.mark.parametrize(("url", "expected"), [
    ("https://github.com/jdoe/babelwise-mcp", ("jdoe", "babelwise-mcp")),
    ("https://github.com/jdoe/babelwise-mcp.git", ("jdoe", "babelwise-mcp")),
    ("http://gitlab.example/group/sub/project/-/tree/main", ("group", "sub")),
    ("https://github.com/jdoe/x%20y/", ("jdoe", "x y")),
    ("https://github.com/jdoe", None),
    ("ftp://github.com/jdoe/x", None),
    ("javascript:alert(1)//a/b", None),
    ("not a url", None),
    (None, None),
])
def test_a_repository_is_its_urls_first_two_path_parts(url: str | None, expected: tuple[str, str] | None) -> None:
    assert repository_of(url) == expected


def test_the_label_shows_the_repository_and_the_id_where_it_is_not_the_repositorys_name() -> None:
    assert identity("babelwise-mcp", "https://github.com/jdoe/babelwise-mcp").label == "jdoe/babelwise-mcp"
    assert identity("jdoe-git", "https://github.com/jdoe/servers").label == "jdoe/servers · jdoe-git"
    assert identity("no-repo", None).label == "no-repo"
    # Two servers of one repository still differ: at most one of them has the repository's name as its id.
    labels = {identity(i, "https://github.com/acme/servers").label for i in ("servers", "Servers", "servers-2")}
    assert len(labels) == 3
    who = identity("jdoe-git", "https://github.com/jdoe/servers")
    assert who.terms("jdoe-git", "https://github.com/jdoe/servers").split() == [
        "jdoe-git", "jdoe/servers", "jdoe", "https://github.com/jdoe/servers"]


def test_categories_are_one_whatever_their_case_accents_or_punctuation() -> None:
    assert category_key("CI/CD") == category_key("ci-cd") == category_key(" Ci  CD ") == "ci-cd"
    assert category_key("Café") == "cafe"
    assert category_key("日本語") != category_key("中文") and category_key("日本語").startswith("x-")
    # Shown under the spelling most servers use; a tie goes to the first in code-point order.
    assert spellings(["Issue tracking", "issue tracking", "Issue tracking", "CRM", "crm"]) == {
        "issue-tracking": "Issue tracking", "crm": "CRM"}


def _server_json(data: Path, document: object) -> None:
    write_capture(data, "srv", report("srv", [tool_score(definition("a_tool"), scores(4, 4, 4, 4, 4, 4))]))
    (data / "servers" / "srv" / "server.json").write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize(("categories", "reason"), [
    (["Issue tracking", "issue-Tracking"], "'issue-Tracking' is the same category as 'Issue tracking'"),
    ([" padded"], "' padded' has a space at its start or end"),
    (["bell\u0007"], "contains a control character"),
    ([""], "at least 1 character"),
    (["x" * 61], "at most 60 characters"),
    ([f"c{n}" for n in range(9)], "at most 8 items"),
    ("Issue tracking", "valid list"),
])
def test_a_broken_categories_list_is_reported_and_the_server_still_builds(
    tmp_path: Path, categories: object, reason: str,
) -> None:
    _server_json(tmp_path, {"displayName": "Server", "categories": categories})
    writer, _ = build_in_memory(tmp_path)
    problems = [p for p in api(writer, "build-report.json")["problems"] if p["file"] == "servers/srv/server.json"]
    assert problems and problems[0]["jsonPath"].startswith("$.categories"), problems
    assert reason in problems[0]["reason"] and "server.json ignored" in problems[0]["reason"], problems
    assert "servers/srv/index.html" in writer.files


def test_a_category_is_named_on_its_servers_page_and_ranks_it_on_its_own(tmp_path: Path) -> None:
    _server_json(tmp_path, {"displayName": "Bugline <MCP>", "repositoryUrl": "https://code.example/jdoe/srv",
                            "categories": ["Issue <tracking>"]})
    writer, _ = build_in_memory(tmp_path)
    server = Page(writer.text("servers/srv/index.html"))
    assert "Bugline <MCP> jdoe/srv" in server.text and "../../categories/issue-tracking/" in server.links
    assert "<tracking>" not in writer.text("categories/issue-tracking/index.html")  # third-party text is escaped
    ranked = Page(writer.text("categories/issue-tracking/index.html"))
    assert "Issue <tracking>" in ranked.text and "../../servers/srv/" in ranked.links
    assert api(writer, "api/servers/srv.json")["categories"] == ["Issue <tracking>"]
