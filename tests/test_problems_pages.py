"""The data-problems pages: counts of the files each grading system read, by status; only the files
with a problem listed, each with its problems, in pages; one line when there is no problem."""

from __future__ import annotations

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
    return re.findall(r'<section class="problem-file">\s*<h3><code>([^<]*)</code>', html)


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
    (page,) = problems_pages(log)
    html = Renderer(SiteConfig(), {"nav": [], "stand_in_models": [], "data_as_of": None}).render(page)
    shown = re.findall(r"<code>line (\d+)</code>", html)
    assert shown == [str(n) for n in range(1, 21)]  # in the file's order: line 9 before line 10
    assert "And 5 more problems in this file" in Page(html).text
    assert "fine.json" not in html
