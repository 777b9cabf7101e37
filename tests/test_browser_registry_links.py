"""Issue 49 in a real browser, on a generated registry with enough broken captures to fill three pages of
data problems: a server's link to its file's problems lands on the page and the element that list that
file (not page 1), and the problem links back to the server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import chromium, served
from shared_data import shared_file

from builder.build import build
from builder.cli import main as scorecards
from builder.config import SiteConfig

BASE = "/scorecards/"
PER_PAGE = 50
"""Files a page of the data problems lists, as its page says ("1–50 of …")."""


def break_captures(data: Path, count: int) -> None:
    """As bench/lighthouse.py's --break: the newest capture of `count` servers broken, alternately not
    JSON at all (the real failed capture in ../shared/bad-input) and with a dimension score out of range."""
    not_json = shared_file("bad-input/not-json-capture.json").read_bytes()
    servers = sorted((data / "servers").iterdir())
    for number, folder in enumerate(servers[:count]):
        capture = sorted(folder.glob("*.score.json"))[-1]
        if number % 2 == 0:
            capture.write_bytes(not_json)
        else:
            document = json.loads(capture.read_text(encoding="utf-8"))
            document["tools"][0]["scores"]["purposeClarity"] = 7
            capture.write_text(json.dumps(document), encoding="utf-8")


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("registry") / "data"
    assert scorecards(["demo", str(data), "--servers", "80", "--tools", "320"]) == 0
    break_captures(data, 70)
    out = data.parent / "site"
    build(data, out, SiteConfig(base_url=BASE))
    with served(out, BASE) as url:
        yield url, out


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def with_problems(site: Path) -> list[str]:
    """The files with a problem, in the order the pages list them (by path), from the build report's counts."""
    files = json.loads((site / "build-report.json").read_text(encoding="utf-8"))["files"]
    return sorted(f["file"] for f in files if f["errors"] or f["warnings"])


@pytest.mark.parametrize("which", ["rejected", "partly-rejected"])
def test_the_problems_link_lands_on_the_file(registry, browser, which: str) -> None:
    base, site = registry
    files = with_problems(site)
    assert len(files) > 2 * PER_PAGE  # three pages
    status = {f["file"]: f["status"] for f in json.loads((site / "build-report.json").read_text())["files"]}
    # The last file of this status that belongs to a server: past page 1.
    position, file = max((i, f) for i, f in enumerate(files) if status[f] == which and f.startswith("servers/"))
    expected_page = position // PER_PAGE + 1
    server = file.split("/")[1]
    page = browser.new_page()
    page.goto(base + f"servers/{server}/", wait_until="networkidle")
    page.locator("p.problem-files").get_by_role("link", name=file, exact=True).click()
    page.wait_for_url("**/problems/**#*")
    assert expected_page > 1, (position, file)
    assert page.url.startswith(base + f"problems/{expected_page}/#")
    target = page.locator(":target")
    assert target.count() == 1
    assert target.locator("h3 code").inner_text() == file
    assert target.evaluate("element => element.getBoundingClientRect().top") >= 0
    assert target.evaluate("element => element.getBoundingClientRect().top < innerHeight")
    # And back to the server's page from its problem.
    target.locator("p.owner a").click()
    page.wait_for_url(base + f"servers/{server}/")
    page.close()


def test_a_file_s_stable_address_is_not_the_only_way_there(registry) -> None:
    """Without following the address, the same place is in the build report, from the site's root."""
    _, site = registry
    files = with_problems(site)
    report = {f["file"]: f for f in json.loads((site / "build-report.json").read_text())["files"]}
    for position, file in enumerate(files):
        number = position // PER_PAGE + 1
        assert report[file]["problemsPage"].startswith("problems/" + ("" if number == 1 else f"{number}/") + "#")
    assert all("problemsPage" not in f for name, f in report.items() if name not in files)


def test_the_stable_address_pages_are_small(registry) -> None:
    _, site = registry
    sizes = [p.stat().st_size for p in (site / "problems" / "files").glob("*/index.html")]
    assert sizes and max(sizes) < 4096
