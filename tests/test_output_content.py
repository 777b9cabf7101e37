"""Output content that must stay safe (issue 21): third-party text never becomes markup in a chart, a
formula in a spreadsheet, or a request for an image."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture

from builder.build import read_and_plan
from builder.config import SiteConfig
from builder.pages.page import Page

LINK = '<a href="https://evil.example/">evil</a>'
STYLED = "<b>bold</b><br>next & more"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, check=False,
                          timeout=600)


def server_with(data: Path, server: str, names: list[str], description: str = "Does a thing.") -> None:
    definitions = [definition(name, description) for name in names]
    tools = [tool_score(defn, scores(4, 3, 3, 3, 3, 3)) for defn in definitions]
    write_capture(data, server, report(server, tools), definitions)


def test_tool_names_go_into_plotly_figures_escaped(tmp_path: Path) -> None:
    server_with(tmp_path, "srv", [LINK, STYLED])
    model = read_and_plan(tmp_path, SiteConfig())
    [page] = [o for o in model.outputs if isinstance(o, Page) and o.path == "servers/srv/index.html"]
    figure = json.loads(json.dumps(page.resolved().tools_chart))  # type: ignore[attr-defined]
    # Escaped by hand: Plotly turns `&lt;` back into `<` when it draws, so the name shows as written.
    assert sorted(figure["data"][0]["y"]) == sorted([
        "&lt;a href=\"https://evil.example/\"&gt;evil&lt;/a&gt;",
        "&lt;b&gt;bold&lt;/b&gt;&lt;br&gt;next &amp; more",
    ])
    assert "<" not in json.dumps(figure)


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path: Path) -> None:
    data = tmp_path / "data"
    names = ['=HYPERLINK("https://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\tindented", "\rreturn", "plain"]
    server_with(data, "srv", names)
    (data / "servers" / "srv" / "server.json").write_text(json.dumps({"displayName": "=cmd|'/c calc'!A1"}))
    out = tmp_path / "site"
    result = run("build", str(data), "-o", str(out), "--no-search")
    assert result.returncode == 0, result.stderr

    def rows(name: str) -> list[dict[str, str]]:
        text = gzip.decompress((out / "downloads" / name).read_bytes()).decode("utf-8")
        return list(csv.DictReader(io.StringIO(text, newline="")))

    tools = sorted(row["tool_name"] for row in rows("tools.csv.gz"))
    assert tools == sorted(["'" + name for name in names[:-1]] + ["plain"])
    assert [row["tool_name"] for row in rows("tool-scores-history.csv.gz")].count("'+1+1") == 1
    [server] = rows("servers.csv.gz")
    assert server["display_name"] == "'=cmd|'/c calc'!A1"
    assert server["overall_score"] and not server["overall_score"].startswith("'")  # numbers stay numbers
    # Parquet and JSON Lines keep the names as they are.
    lines = gzip.decompress((out / "downloads" / "tools.jsonl.gz").read_bytes()).decode("utf-8").splitlines()
    assert sorted(json.loads(line)["tool_name"] for line in lines) == sorted(names)


def test_images_in_third_party_markdown_are_never_loaded(tmp_path: Path) -> None:
    data = tmp_path / "data"
    description = ("Gets things. ![tracking pixel](https://tracker.example/p.png) "
                   "[![badge](https://img.example/b.svg)](https://project.example/)")
    server_with(data, "srv", ["get"], description)
    out = tmp_path / "site"
    result = run("build", str(data), "-o", str(out), "--no-search")
    assert result.returncode == 0, result.stderr
    html = (out / "servers" / "srv" / "tools" / "get" / "index.html").read_text(encoding="utf-8")
    # Shown as a link to follow or not; inside a link, as the link's text.
    assert '<a href="https://tracker.example/p.png" rel="nofollow noopener">tracking pixel</a>' in html
    assert '<a href="https://project.example/">badge</a>' in html
    assert [src for src in re.findall(r'<img[^>]*src="([^"]*)"', html) if "example" in src] == []


def test_a_tool_name_in_the_drawn_chart_is_text_not_a_link(tmp_path: Path) -> None:
    """The server page's tools chart is drawn at build time (builder.chart_svg): in the browser,
    each name reads exactly as it is written, and no name became a link or styled markup."""
    from browser import chromium, served

    data = tmp_path / "data"
    server_with(data, "srv", [LINK, STYLED, "plain"])
    out = tmp_path / "site"
    result = run("build", str(data), "-o", str(out), "--no-search")
    assert result.returncode == 0, result.stderr
    with chromium() as browser, served(out) as base:
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(base + "servers/srv/", wait_until="networkidle")
        chart = "#chart-tools svg"
        names = [t.rsplit(": ", 1)[0] for t in page.locator(f"{chart} rect > title").all_text_contents()]
        assert sorted(names) == sorted([LINK, STYLED, "plain"])
        assert page.locator(f"{chart} a, {chart} b, {chart} foreignObject").count() == 0
        page.close()


def test_the_same_data_builds_the_same_bytes_on_tmpfs_on_disk_and_after_a_failed_build(tmp_path: Path) -> None:
    """The demo corpus built into a folder on the disk, and into one on tmpfs (/dev/shm, whose
    folders list their files in another order) where an earlier build of other data left its
    cache, with a stale and a cut-short search document where an earlier version kept them
    (`search-source`): every file, the Pagefind index included, has the same bytes."""
    import shutil
    import tempfile

    data = Path(__file__).resolve().parents[1] / "data"  # read only
    disk = tmp_path / "disk" / "site"
    shm = Path("/dev/shm")
    other_root = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path / "other"
    try:
        other = other_root / "site"
        earlier = tmp_path / "earlier"
        server_with(earlier, "gone", ["vanished"])
        assert run("build", str(earlier), "-o", str(other)).returncode == 0
        leftovers = other_root / ".site.cache" / "search-source"
        (leftovers / "servers" / "gone").mkdir(parents=True)
        (leftovers / "servers" / "gone" / "index.html").write_text('<html lang="en"><body><main data-pagefind-body>'
                                                                   "vanished</main></body></html>")
        (leftovers / "index.html").write_text('<html lang="en"><body><main data-pa')  # cut short
        for out in (disk, other):
            result = run("build", str(data), "-o", str(out))
            assert result.returncode == 0, result.stderr

        def contents(folder: Path) -> dict[str, bytes]:
            return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

        first, second = contents(disk), contents(other)
        assert any(name.startswith("pagefind/index/") for name in first)
        assert sorted(first) == sorted(second)
        assert [name for name in first if first[name] != second[name]] == []
        assert not leftovers.exists(), "what an earlier version kept and nothing reads is removed"
    finally:
        shutil.rmtree(other_root, ignore_errors=True)
