"""The data-problems pages: counts of the files each grading system read, by status; only the files
with a problem listed, each with its problems, in pages; one line when there is no problem."""

from __future__ import annotations

import json
import posixpath
import re
import shutil
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file
from site_helpers import Page, build_in_memory

from builder.cli import main as scorecards
from builder.config import SiteConfig
from builder.engine.problems import ProblemLog
from builder.engine.render import Renderer
from builder.pages.problems import PER_PAGE, problems_pages


def good(data: Path, name: str) -> None:
    write_capture(data, name, report(name, [tool_score(definition("fine_tool"), scores(5, 4, 4, 3, 5, 4))]))


def broken(data: Path, name: str) -> str:
    """A server folder whose one capture is the real failed capture from ../shared/bad-input."""
    folder = data / "servers" / name
    folder.mkdir(parents=True)
    shutil.copy(shared_file("bad-input/not-json-capture.json"), folder / "2026-06-01T00-00-00Z.score.json")
    return f"servers/{name}/2026-06-01T00-00-00Z.score.json"


def listed_files(html: str) -> list[str]:
    return re.findall(r'<section class="problem-file"[^>]*>\s*<h3><code>([^<]*)</code>', html)


def test_a_problem_heavy_corpus_lists_only_its_files_with_a_problem_in_pages(tmp_path: Path) -> None:
    goods, bads = 7, 30
    for n in range(goods):
        good(tmp_path, f"good-{n:02d}")
    broken_files = [broken(tmp_path, f"broken-{n:03d}") for n in range(bads)]
    # With a problem: each broken capture (rejected), its server's folder (no usable score: partly
    # rejected) and index.json (missing: a warning); 61 of them, so two pages, 50 and 11.
    expected = sorted(["index.json", *broken_files, *(f.rsplit("/", 1)[0] for f in broken_files)])
    assert len(expected) == 2 * bads + 1 > PER_PAGE
    writer, _ = build_in_memory(tmp_path)

    first, second = writer.text("problems/index.html"), writer.text("problems/2/index.html")
    assert "problems/3/index.html" not in writer.paths
    assert listed_files(first) == expected[:PER_PAGE]
    assert listed_files(second) == expected[PER_PAGE:]
    # The counts: every file tdqs read, by status.
    text = Page(first).text
    row = re.search(r"tdqs ([\d,]+) ([\d,]+) ([\d,]+) ([\d,]+) ([\d,]+)", text)
    assert row is not None, text
    counts = tuple(int(v.replace(",", "")) for v in row.groups())
    assert counts == (goods + 2 * bads + 1, goods, 1, bads, bads)  # read, accepted, with warnings, partly, rejected
    assert f"{goods + 2 * bads + 1} input files read; {2 * bads + 1} with a problem: {2 * bads} errors" in text
    # No accepted file is listed, and the pages link to each other.
    assert "good-00" not in first and "good-00" not in second
    assert 'href="2/"' in first and 'rel="prev"' in second
    assert "not valid JSON" in Page(second).text


def test_each_file_s_problems_have_a_stable_address_that_leads_to_its_page_and_back_to_its_server(
        tmp_path: Path) -> None:
    for n in range(3):
        good(tmp_path, f"good-{n:02d}")
    broken_files = [broken(tmp_path, f"broken-{n:03d}") for n in range(30)]
    # As above: 61 files with a problem, in path order, 50 on page 1 and 11 on page 2.
    expected = sorted(["index.json", *broken_files, *(f.rsplit("/", 1)[0] for f in broken_files)])
    writer, _ = build_in_memory(tmp_path, SiteConfig(site_url="https://example.org"))
    report = json.loads(writer.text("build-report.json"))
    for position, file in enumerate(expected):
        server = file.split("/")[1] if file.startswith("servers/") else None
        # The server's page links to each of its files' stable address …
        if server is not None:
            page = f"servers/{server}/index.html"
            link = re.search(f'<a href="([^"]+)"><code>{re.escape(file)}</code></a>', writer.text(page))
            assert link is not None and link.group(1).startswith("../../problems/files/")
            there = _output(page, link.group(1))
        else:
            there = next(p for p in writer.paths if p.startswith("problems/files/index-json"))
        # … which sends the visitor on to the page and anchor that list it: page 1 for the first 50.
        html = writer.text(there)
        refresh = re.search(r'<meta http-equiv="refresh" content="0; url=([^"#]*)#([^"]+)">', html)
        assert refresh is not None, html
        expected_page = "problems/index.html" if position < PER_PAGE else "problems/2/index.html"
        assert _output(there, refresh.group(1)) == expected_page
        listing = writer.text(expected_page)
        section = re.search(f'<section class="problem-file" id="{re.escape(refresh.group(2))}">(.*?)</section>',
                            listing, re.S)
        assert section is not None and f"<h3><code>{file}</code>" in section.group(1)
        # The problem links back to its server's page; index.json belongs to none.
        back = Page(section.group(1)).links
        assert back == ([] if server is None else [("../" if position < PER_PAGE else "../../") + f"servers/{server}/"])
        # The build report names the same place, from the site's root.
        (entry,) = [f for f in report["files"] if f["file"] == file]
        assert entry["problemsPage"] == expected_page.removesuffix("index.html") + "#" + refresh.group(2)
    assert all("problemsPage" not in f for f in report["files"] if f["file"].startswith("servers/good-"))
    # The stable addresses are not in the sitemap: they only send the visitor on.
    sitemap = writer.text("sitemap.xml")
    assert "https://example.org/problems/2/" in sitemap and "problems/files" not in sitemap


def _output(page: str, link: str) -> str:
    """The output path a relative link on the page at `page` leads to (a folder: its index.html)."""
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), link))
    return resolved + "/index.html" if link.endswith("/") else resolved


def test_a_corpus_without_problems_says_so_in_one_line(tmp_path: Path) -> None:
    for n in range(3):
        good(tmp_path, f"good-{n}")
    assert scorecards(["index", str(tmp_path)]) == 0
    files_on_disk = sum(1 for _ in tmp_path.rglob("*.json"))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("problems/index.html")
    main = Page(html[html.index("<main"): html.index("</main>")]).text
    assert main == f"Data problems No problems: all {files_on_disk} input files were accepted (tdqs {files_on_disk})."
    assert "<table" not in html and "problems/2/index.html" not in writer.paths


def test_a_file_with_many_problems_shows_the_first_and_counts_the_rest(tmp_path: Path) -> None:
    log = ProblemLog()
    for line in range(1, 26):
        log.add("servers/x/big.jsonl", "tdqs", f"line {line}", f"broken line {line}")
    log.read("servers/y/fine.json", "tdqs")
    page, address = problems_pages(log)  # the page, and the file's stable address
    assert address.path.startswith("problems/files/")
    html = Renderer(SiteConfig(), {"nav": [], "stand_in_models": [], "data_as_of": None}).render(page)
    shown = re.findall(r"<code>line (\d+)</code>", html)
    assert shown == [str(n) for n in range(1, 21)]  # in the file's order: line 9 before line 10
    assert "And 5 more problems in this file" in Page(html).text
    assert "fine.json" not in html
