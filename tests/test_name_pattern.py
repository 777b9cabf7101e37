"""The naming pattern a server's tools follow and the names that break it, and how the server page
says them: named (escaped), capped with "and N more", with what each does instead."""

from __future__ import annotations

import re
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory

from builder.tdqs.name_pattern import name_pattern, style, verb_position


def test_styles_and_verb_positions_of_single_names() -> None:
    assert [style(n) for n in ("list_issues", "listIssues", "ListIssues", "list-issues", "issues.list",
                               "LIST_ISSUES", "list_Issues", "list-issues_v2", "search", "pull_requests.list",
                               "Issues.list")] == [
        "snake_case", "camelCase", "PascalCase", "kebab-case", "dot.separated", "UPPER_SNAKE", "mixed", "mixed", None,
        "dot.separated", "mixed"]
    assert [verb_position(n) for n in ("create_issue", "issueCreate", "issue.create", "get_report", "search",
                                       "repo_stats", "create_get")] == ["first", "last", "last", "first", None,
                                                                        None, None]


def test_the_majority_is_read_from_the_names_and_the_others_are_named() -> None:
    found = name_pattern(["list_issues", "create_issue", "deleteIssue", "issue_update", "search", "get_repo"])
    assert (found.style, found.style_count, found.styled) == ("snake_case", 4, 5)  # "search" fits any style
    assert (found.verb, found.verb_count, found.verbed) == ("first", 4, 5)
    assert [(o.name, o.why) for o in found.offenders] == [("deleteIssue", "camelCase"), ("issue_update", "verb last")]
    # All camelCase is as good as all snake_case: the rubric asks for one convention, not a given one.
    camel = name_pattern(["listIssues", "createIssue", "get_repo"])
    assert camel.style == "camelCase" and [(o.name, o.why) for o in camel.offenders] == [("get_repo", "snake_case")]


def test_a_tie_has_no_majority_and_names_no_one() -> None:
    found = name_pattern(["list_issues", "createIssue"])
    assert found.style is None and found.offenders == ()


NAMES = [f"get_thing_{i:02d}" for i in range(16)] + [f"fetchThing{i:02d}" for i in range(13)] + ["<b>Bold</b>"]


def test_the_server_page_names_the_tools_that_break_the_pattern(tmp_path: Path) -> None:
    tools = [definition(name, "Gets a thing.") for name in NAMES]
    scored = [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in tools]
    write_capture(tmp_path, "names", report("names", scored, coherence=(4, 2, 4, 4)), tools)
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/names/index.html")
    assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt;" in html
    item = re.search(r'<li data-step="coherence">(.*?)</li>', html, re.S)
    assert item is not None
    text = Page(item[1]).text
    assert text.startswith("Naming Consistency is 2 of 5 (“inconsistent (camelCase mixed with snake_case")
    # 16 snake_case names of 30 (the others: 13 camelCase, one mixed); all 30 put the verb first... but "<b>Bold</b>".
    assert "Most names are snake_case (16 of 30) and put the verb first (29 of 29)" in text
    offenders = sorted(["<b>Bold</b>", *(f"fetchThing{i:02d}" for i in range(13))])
    shown = ", ".join(f"{name} ({'mixed' if name.startswith('<') else 'camelCase'})" for name in offenders[:12])
    assert f"these break the pattern: {shown} and 2 more." in text
    # Coherence (4 + 2 + 4 + 4) / 4 = 3.5; with naming at 4, 4.0. Description quality 4.0 (every tool at 4.0).
    # Overall round1(0.7 × 4.0 + 0.3 × 3.5) = round1(3.85) = 3.9; at 4: round1(2.8 + 1.2) = 4.0.
    assert "Raising it to 4 would move coherence from 3.5 to 4.0 and the overall score from 3.9 to 4.0 (tier A)" in text
