"""Issue 33 in a real browser, on a generated registry with two servers of the same name: servers
compared side by side (chosen on the list with JavaScript, and the static comparison a server
page links to without it, both showing the same texts); no table hiding a column at 1280 px; the
first column staying on a phone; chart labels of at least 11 px at 390 px; the data-problems page
of a problem-heavy corpus in pages."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator

import pytest
from browser import chromium, served
from shared_data import shared_file

from builder.build import build, read_and_plan
from builder.cli import main as scorecards
from builder.config import SiteConfig
from builder.pages.page import Page

BASE = "/scorecards/"
SAME = 'Same <b>Name</b> & "Co"'
"""The name both servers are given: also third-party text that must show as it is written."""
WHO: dict[str, str] = {}
"""Each twin's identity, as its column heading must show it under the name (issue 49): its repository's
owner/name read off server.json's URL by hand (the demo names the repository as the id), else its id."""


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str], dict[str, str]]]:
    data = tmp_path_factory.mktemp("registry") / "data"
    assert scorecards(["demo", str(data), "--servers", "40", "--tools", "400"]) == 0
    servers = sorted(p.name for p in (data / "servers").iterdir())
    twins = servers[:2]
    for server in twins:
        meta = json.loads((data / "servers" / server / "server.json").read_text(encoding="utf-8"))
        (data / "servers" / server / "server.json").write_text(json.dumps({**meta, "displayName": SAME}))
        url = meta.get("repositoryUrl")
        WHO[server] = "/".join(url.rstrip("/").split("/")[-2:]) if url else server
        assert WHO[server].endswith(server)
    # And a few broken captures, for the problems page.
    for n in range(3):
        folder = data / "servers" / f"broken-{n}"
        folder.mkdir()
        shutil.copy(shared_file("bad-input/not-json-capture.json"), folder / "2026-06-01T00-00-00Z.score.json")
    assert scorecards(["index", str(data)]) == 0
    config = SiteConfig(base_url=BASE)
    out = data.parent / "site"
    build(data, out, config)
    kinds: dict[str, str] = {}
    for output in read_and_plan(data, config).outputs:
        if isinstance(output, Page):
            kinds.setdefault(output.template, output.path)
    with served(out, BASE) as url:
        yield url, twins, kinds


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def address(base: str, path: str) -> str:
    return base + (path[: -len("index.html")] if path.endswith("index.html") else path)


COLUMNS = """() => {
    const table = document.querySelector('#compare-table');
    const heads = [...table.tHead.rows[0].cells].slice(1).map((th) => th.textContent.trim());
    const rows = [...table.querySelectorAll('tr[data-measure]')].map((tr) =>
        [tr.getAttribute('data-measure'), ...[...tr.cells].slice(1).map((td) => td.textContent.trim())]);
    const markup = [...table.tHead.querySelectorAll('b')].length;
    return {heads, rows, markup};
}"""


def test_two_servers_of_the_same_name_compared_with_and_without_javascript(registry, browser) -> None:
    base, twins, _ = registry
    # Chosen on the servers list: tick both, compare.
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "servers/", wait_until="networkidle")
    for slug in twins:
        page.check(f'#servers-table input.pick[value="{slug}"]')
    page.click(".pick-bar a:has-text('Compare (2)')")
    page.wait_for_selector("#compare-status:has-text('Comparing 2 servers.')")
    ticked = [part.removeprefix("s=") for part in page.url.split("?", 1)[1].split("&")]
    assert sorted(ticked) == twins
    chosen = page.evaluate(COLUMNS)
    # In the list's order: the name as written, then whose server it is (owner/repository, else the id).
    assert chosen["heads"] == [SAME + WHO[slug] for slug in ticked]
    assert chosen["markup"] == 0  # no <b> element: the name went in as text
    assert len(chosen["rows"]) == 17 and all(len(row) == 3 for row in chosen["rows"])
    # From a server's page, without JavaScript: its static comparison, the other twin beside it.
    context = browser.new_context(java_script_enabled=False)
    static = context.new_page()
    static.goto(base + f"servers/{ticked[0]}/")
    static.click("text=Compare with similar servers")
    static.wait_for_load_state("load")  # the address changes when the navigation commits, before the table is parsed
    assert static.url == base + f"compare/{ticked[0]}/"
    shown = static.evaluate(COLUMNS)
    assert shown["heads"][:2] == chosen["heads"]  # the same name comes first
    assert 2 < len(shown["heads"]) <= 4
    # The script wrote the same texts as the build, measure by measure.
    assert [row[:3] for row in shown["rows"]] == chosen["rows"]
    context.close()
    # More than four chosen: the first four are shown, and the page says so.
    page.goto(base + "compare/?" + "&".join(f"s={slug}" for slug in [*twins, *twins, "no-such-server"]))
    page.wait_for_selector("#compare-status:has-text('Comparing 2 servers.')")
    assert "No scored server at no-such-server" in page.locator("#compare-status").text_content()
    page.close()
    assert not errors, errors


def test_no_table_hides_a_column_at_1280_px(registry, browser) -> None:
    base, _, kinds = registry
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    failures = []
    for path in sorted(set(kinds.values()) - {"404.html"}):
        page.goto(address(base, path), wait_until="networkidle")
        hidden = page.evaluate("""() => [...document.querySelectorAll('main table')].map((table) => {
            const box = table.parentElement.getBoundingClientRect();
            const cells = [...table.querySelectorAll('tr > *')];
            const cut = cells.filter((cell) => cell.getBoundingClientRect().right > box.right + 1);
            return cut.length ? (table.id || table.className) + ': ' + cut[0].textContent.trim().slice(0, 30) : null;
        }).filter(Boolean)""")
        if hidden:
            failures.append(f"{path}: {hidden}")
    page.close()
    assert not failures, "\n".join(failures)


def test_on_a_phone_the_first_column_stays_and_chart_labels_are_readable(registry, browser) -> None:
    base, twins, kinds = registry
    page = browser.new_page(viewport={"width": 390, "height": 844})
    for path in ("servers/", f"compare/{twins[0]}/"):
        page.goto(base + path, wait_until="networkidle")
        moved = page.evaluate("""() => {
            const table = document.querySelector('main table.data:not(.stack)');
            const scroller = table.scrollWidth > table.clientWidth ? table : table.parentElement;
            const row = table.querySelector('tbody tr:not(.group)');
            const first = row.cells[0].getBoundingClientRect().left, second = row.cells[1].getBoundingClientRect().left;
            scroller.scrollLeft = 300;
            return [scroller.scrollLeft, row.cells[0].getBoundingClientRect().left - first,
                    row.cells[1].getBoundingClientRect().left - second];
        }""")
        scrolled, first_moved, second_moved = moved
        assert scrolled > 50 and abs(first_moved) < 1 and second_moved < -50, (path, moved)
    # Every chart label, as rendered: its font size times the drawing's scale on screen.
    charted = [kinds["tdqs/home.html"], kinds["tdqs/server.html"]]
    sizes = []
    for path in charted:
        page.goto(address(base, path), wait_until="networkidle")
        sizes += page.evaluate("""() => [...document.querySelectorAll('svg.chart-svg text')].map((text) =>
            parseFloat(getComputedStyle(text).fontSize) * text.closest('svg').getScreenCTM().a)""")
    assert len(sizes) > 20 and min(sizes) >= 11, min(sizes)
    # The histogram is on a numeric axis with the passing bar.
    page.goto(address(base, kinds["tdqs/home.html"]), wait_until="networkidle")
    assert page.locator("svg.chart-svg line.threshold").count() >= 1
    page.close()


def test_the_problems_page_lists_the_broken_files_only(registry, browser) -> None:
    base, _, _ = registry
    page = browser.new_page()
    page.goto(base + "problems/", wait_until="networkidle")
    listed = page.locator("section.problem-file h3 code").all_text_contents()
    assert listed == sorted(listed) and {f"servers/broken-{n}" for n in range(3)} <= set(listed)
    assert all("broken-" in name or name == "index.json" for name in listed)
    assert page.locator("table caption", has_text="Input files by grading system").count() == 1
    page.close()


def test_a_comparison_typed_as_a_comma_list_works_and_an_unknown_id_is_named(registry, browser) -> None:
    """Issue 49: `compare/?s=a,b` showed an empty table and no word; now it compares a and b as `?s=a&s=b`
    does, and a value that is no server id is named."""
    base, twins, _ = registry
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + "compare/?s=" + ",".join(twins), wait_until="networkidle")
    page.wait_for_selector("#compare-status:has-text('Comparing 2 servers.')")
    assert page.evaluate(COLUMNS)["heads"] == [SAME + WHO[slug] for slug in twins]
    page.goto(base + "compare/?s=no%20such!,", wait_until="networkidle")
    assert page.locator("#compare-status").inner_text() == (
        "No server id is no such!. Choose two to four servers on the servers list.")
    assert page.evaluate(COLUMNS)["heads"] == []
