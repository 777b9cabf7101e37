"""Issue 49 in a real browser, on a generated registry with enough broken captures to fill three pages of
data problems: a server's link to its file's problems lands on the page and the element that list that
file (not page 1), and the problem links back to the server; a sort chosen by a table heading is kept
in the address, so it survives going elsewhere and Back (and can be shared)."""

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


def _cells(page, table: str, column: int) -> list[str]:
    return page.locator(f"{table} tbody tr").evaluate_all(
        f"rows => rows.filter(r => !r.hidden).map(r => r.cells[{column}].getAttribute('data-sort') ?? r.cells[{column}].textContent.trim())")


def test_a_sort_chosen_on_a_server_page_survives_back_and_can_be_shared(registry, browser) -> None:
    base, site = registry
    rows = json.loads((site / "api" / "server-list.json").read_text(encoding="utf-8"))["rows"]
    server = next(row[0] for row in rows if len(row[4]) and row[2] in "ABCD" and row[2])  # a scored server
    page = browser.new_page()
    page.goto(base + server.removesuffix("index.html"), wait_until="networkidle")
    table = "table.tools"
    page.locator(f"{table} thead th button", has_text="TDQS").click()  # ascending, the first time
    chosen = page.url
    assert "?sort=" in chosen and chosen.endswith(".tdqs.asc")
    shown = [float(value) for value in _cells(page, table, 1)]
    assert shown == sorted(shown) and len(shown) > 1
    page.evaluate("window.stillHere = true")
    page.locator(f"{table} tbody a").first.click()  # away, to a tool's page …
    page.wait_for_load_state("networkidle")
    page.go_back(wait_until="networkidle")  # … and Back
    assert page.url == chosen
    assert page.evaluate("window.stillHere === undefined")  # the page was loaded again, not kept
    assert page.locator(f"{table} thead th", has_text="TDQS").get_attribute("aria-sort") == "ascending"
    assert [float(value) for value in _cells(page, table, 1)] == sorted(shown)
    # The address alone sorts it, in another tab.
    other = browser.new_page()
    other.goto(chosen, wait_until="networkidle")
    assert [float(value) for value in _cells(other, table, 1)] == sorted(shown)
    other.close()
    page.close()


def test_a_sort_of_the_whole_servers_list_survives_back(registry, browser) -> None:
    """The list is in pages; sorted by a heading, its rows come from the whole list (api/server-list.json),
    most tools first, ties in the list's order (best score first)."""
    base, site = registry
    rows = json.loads((site / "api" / "server-list.json").read_text(encoding="utf-8"))["rows"]
    tools = [row[4][6][0] for row in rows]  # the Tools column: after Overall, Scored, DQ, Coherence, Mean, Min
    expected = [count for _, count in sorted(enumerate(tools), key=lambda pair: (-pair[1], pair[0]))][:PER_PAGE]
    page = browser.new_page()
    page.goto(base + "servers/", wait_until="networkidle")
    page.locator("#servers-table thead th button", has_text="Tools").first.click()
    # A function, not an expression: Playwright evaluates an expression again at each poll with
    # eval, which the site's Content-Security-Policy refuses once the first check was false.
    page.wait_for_function("() => document.querySelector('#servers-table').closest('main')"
                           ".querySelector('.table-status').textContent.startsWith('Showing')")
    chosen = page.url
    assert chosen == base + "servers/?sort=servers-table.tools.desc"
    assert [float(v) for v in _cells(page, "#servers-table", 7)] == expected
    page.evaluate("window.stillHere = true")
    page.locator("#servers-table tbody tr td a").first.click()
    page.wait_for_load_state("networkidle")
    page.go_back(wait_until="networkidle")
    page.wait_for_function("() => document.querySelector('.table-status').textContent.startsWith('Showing')")
    assert page.url == chosen and page.evaluate("window.stillHere === undefined")
    assert page.locator("#servers-table thead th", has_text="Tools").first.get_attribute("aria-sort") == "descending"
    assert [float(v) for v in _cells(page, "#servers-table", 7)] == expected
    page.close()
