"""The static comparisons: each scored server beside the servers of the same name first, then its
neighbours in the list; the dimension means exact, rounded half up; every server page links to its own."""

from __future__ import annotations

import re
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory


def server(data: Path, folder: str, name: str, *dims: tuple[int, ...]) -> None:
    tools = [tool_score(definition(f"tool_{n}"), scores(*d)) for n, d in enumerate(dims)]
    write_capture(data, folder, report(name, tools))


def columns(html: str) -> list[str]:
    return re.findall(r'<th scope="col"><a href="[^"]*">[^<]*</a><br><small>([^<]*)</small>', html)


def row(html: str, key: str) -> list[str]:
    found = re.search(rf'<tr data-measure="{key}">(.*?)</tr>', html, re.S)
    assert found, key
    return [Page(cell).text for cell in re.findall(r"<td[^>]*>(.*?)</td>", found.group(1), re.S)]


def test_a_server_is_compared_with_its_namesake_first_then_its_neighbours(tmp_path: Path) -> None:
    # Best first: alpha (all 5s), twin-a, beta, twin-b, gamma (all 1s); the twins share a name.
    server(tmp_path, "alpha", "Alpha", (5, 5, 5, 5, 5, 5))
    server(tmp_path, "twin-a", "Twin", (5, 4, 4, 4, 4, 4), (4, 3, 3, 3, 3, 3), (4, 3, 3, 3, 3, 3))
    server(tmp_path, "beta", "Beta", (3, 3, 3, 3, 3, 3))
    server(tmp_path, "twin-b", "twin", (2, 2, 2, 2, 2, 2))
    server(tmp_path, "gamma", "Gamma", (1, 1, 1, 1, 1, 1))
    writer, _ = build_in_memory(tmp_path)
    twin_a = writer.text("compare/twin-a/index.html")
    # Its namesake (the case differs), then one up and one down the list.
    assert columns(twin_a) == ["twin-a", "twin-b", "alpha", "beta"]
    # Means of its three tools, exact and half up: purpose (5 + 4 + 4) / 3 = 4.333…, usage 10 / 3 = 3.333….
    assert row(twin_a, "purpose_clarity")[0] == "4.33" and row(twin_a, "usage_guidelines")[0] == "3.33"
    assert row(twin_a, "coverage") == ["3 of 3", "1 of 1", "1 of 1", "1 of 1"]
    assert row(twin_a, "naming_consistency") == ["5 of 5"] * 4  # report()'s coherence is (4, 5, 5, 4)
    # The first server has no one above it: its namesake-less comparison takes the two below.
    assert columns(writer.text("compare/alpha/index.html")) == ["alpha", "twin-a", "beta"]
    # The server page links to its comparison; the chosen comparison is one page.
    assert 'href="../../compare/twin-b/"' in writer.text("servers/twin-b/index.html")
    assert "compare/index.html" in writer.paths
    assert sorted(p for p in writer.paths if p.startswith("compare/") and p.endswith(".html")) == sorted(
        ["compare/index.html", *(f"compare/{s}/index.html" for s in ("alpha", "twin-a", "beta", "twin-b", "gamma"))])
