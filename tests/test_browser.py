"""The site in a real browser: every page kind loads without a console error, passes axe-core
with no serious or critical violation, and is screenshotted at desktop and phone width; search
finds a known tool through Pagefind's own API; sorting reorders rows; charts draw."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from browser import OUTPUT, chromium, served
from corpus import definition, report, scores, tool_score, write_capture
from shared_sites import scorecards_config

from builder.build import build, read_and_plan
from builder.config import SiteConfig
from builder.pages.page import Page

ROOT = Path(__file__).resolve().parents[1]
BASE = "/scorecards/"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def site(scorecards_site: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """data/ built with base URL BASE (the session's shared build, which no test here changes)."""
    config = scorecards_config()
    assert config.base_url == BASE
    kinds: dict[str, str] = {}
    for output in read_and_plan(ROOT / "data", config).outputs:
        if isinstance(output, Page):
            kinds.setdefault(output.template, output.path)
    with served(scorecards_site, BASE) as url:
        yield url, kinds


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def address(base: str, path: str) -> str:
    return base + (path[: -len("index.html")] if path.endswith("index.html") else path)


def test_every_page_kind_is_clean_accessible_and_screenshotted(site, browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    base, kinds = site
    axe = Axe()
    shots = OUTPUT / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    assert len(kinds) >= 10, kinds
    for template, path in sorted(kinds.items()):
        for label, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("console", lambda message, e=errors: e.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error, e=errors: e.append(str(error)))
            page.on("dialog", lambda dialog, e=errors: (e.append(f"dialog: {dialog.message}"), dialog.dismiss()))
            missing = path == "404.html"  # served for any missing address, at any depth
            response = page.goto(base + "no/such/page/" if missing else address(base, path), wait_until="networkidle")
            assert response is not None and response.status == (404 if missing else 200), path
            if missing:  # the document's own 404 status is logged as a failed load
                errors[:] = [e for e in errors if "status of 404" not in e]
            name = template.replace("/", "-").removesuffix(".html")
            page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
            if errors:
                failures.append(f"{path} ({label}): console errors {errors}")
            if label == "desktop":
                results = axe.run(page)
                serious = [
                    f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                    for v in results.response["violations"]
                    if v["impact"] in ("serious", "critical")
                ]
                if serious:
                    failures.append(f"{path}: axe {serious}")
            if label == "phone":
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                if overflow > 2:
                    failures.append(f"{path}: {overflow}px wider than a phone screen")
            page.close()
    assert not failures, "\n".join(failures)


def test_search_finds_a_known_tool_through_pagefind(site, browser) -> None:
    base, kinds = site
    tool_path = kinds["tdqs/tool.html"]
    page = browser.new_page()
    page.goto(address(base, tool_path))
    name = page.locator("h1 code").inner_text()
    page.goto(base)
    hits = page.evaluate(
        """async (query) => {
            const pagefind = await import(new URL("pagefind/pagefind.js", document.baseURI.replace(/[^/]*$/, "")).href);
            await pagefind.init();
            const search = await pagefind.search(query);
            const data = await Promise.all(search.results.slice(0, 20).map((r) => r.data()));
            return data.flatMap((d) => [d.url, ...d.sub_results.map((s) => s.url)]);
        }""",
        name,
    )
    expected = address(BASE, tool_path)
    server_page, tool_slug = expected.split("tools/")
    assert f"{server_page}#t-{tool_slug.rstrip('/')}" in hits, (name, hits)
    page.goto(base + "search/?q=" + name)
    page.wait_for_selector("#search-results li a")
    hrefs = [a.get_attribute("href") for a in page.locator("#search-results li a").all()]
    assert expected in hrefs
    page.close()


def test_sorting_reorders_rows(site, browser) -> None:
    base, _ = site
    page = browser.new_page()
    page.goto(base + "servers/")
    table = page.locator("#servers-table")
    column = [c.inner_text() for c in table.locator("thead th").all()].index("Mean TDQS")

    def values() -> list[float]:
        cells = table.locator(f"tbody tr td:nth-child({column + 1})").all()
        return [float(cell.get_attribute("data-sort")) for cell in cells]

    before = values()
    table.locator("thead th").nth(column).locator("button").click()
    ascending = values()
    table.locator("thead th").nth(column).locator("button").click()
    descending = values()
    assert ascending == sorted(before) and descending == sorted(before, reverse=True)
    assert ascending != before or descending != before
    assert table.locator("thead th").nth(column).get_attribute("aria-sort") == "descending"
    page.close()


def test_charts_draw_and_plotly_loads_only_where_needed(site, browser) -> None:
    base, kinds = site
    page = browser.new_page()
    page.goto(base, wait_until="networkidle")
    # The home page's charts are drawn at build time (SVG): no script, no plotly.js.
    bars = page.locator("#chart-tiers svg.chart-svg rect").count()
    assert bars == 5  # one bar per tier A–F
    assert page.evaluate("typeof window.Plotly") == "undefined"
    assert page.locator('script[src$="plotly.min.js"], script[src$="charts.js"]').count() == 0
    page.goto(address(base, kinds["rubric.html"]), wait_until="networkidle")
    assert page.evaluate("typeof window.Plotly") == "undefined"
    # Server and tool pages draw theirs at build time too: a bar per tool and a point per capture.
    page.goto(base + "servers/sparrow-kubewise-mcp/", wait_until="networkidle")
    rows = page.locator("table.tools tbody tr").count()
    assert page.locator("#chart-tools svg.chart-svg rect").count() == rows
    history = page.locator("#chart-history + ul > li").count()
    assert page.locator("#chart-history svg.chart-svg circle").count() == history == 3
    assert page.locator("script.plot-data, script[src$='plotly.min.js'], script[src$='charts.js']").count() == 0
    tool = page.locator("table.tools tbody tr a").first.get_attribute("href")
    page.goto(base + "servers/sparrow-kubewise-mcp/" + tool, wait_until="networkidle")
    scores = [float(t.split()[-1]) for t in page.locator("#chart-history + ul > li > .tier").all_inner_texts()][::-1]
    drawn = [float(t.rsplit(": ", 1)[1]) for t in page.locator("#chart-history circle > title").all_text_contents()]
    assert drawn == scores and len(scores) >= 2
    assert page.evaluate("typeof window.Plotly") == "undefined"
    page.close()


def test_pages_read_without_javascript(site, browser) -> None:
    base, kinds = site
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(base + "servers/")
    assert page.locator("#servers-table tbody tr").count() > 0
    page.goto(address(base, kinds["tdqs/tool.html"]))
    assert page.locator("h2", has_text="Improvement checklist").count() == 1
    context.close()


def test_dark_mode_follows_the_system_and_keeps_contrast(site, browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    base, kinds = site
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    failures = []
    for template in ("tdqs/home.html", "tdqs/server.html", "tdqs/tool.html", "cleo/index.html", "flowmcp/provider.html"):
        page.goto(address(base, kinds[template]), wait_until="networkidle")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 17, 23)", (template, background)
        violations = [
            v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")
        ]
        if violations:
            failures.append(f"{template}: {violations}")
    context.close()
    assert not failures, failures


def test_keyboard_reaches_the_content_first(site, browser) -> None:
    base, _ = site
    page = browser.new_page()
    page.goto(base + "servers/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    page.close()


def test_the_stable_badge_markdown_points_shields_at_the_absolute_badge_json(tmp_path: Path, browser) -> None:
    """Built with --site-url, a server page shows the Markdown of shields.io's endpoint badge over the
    server's stable badge.json; that JSON is served where the URL says, with the page's grade."""
    data, out = tmp_path / "data", tmp_path / "site"
    write_capture(data, "srv", report("srv", [tool_score(definition("fetch_page"), scores(4, 3, 3, 3, 4, 3))],
                                      generated_at="2026-06-01T12:00:00.000Z"))
    site_url = "https://example.github.io"
    # One worker: nothing forks while the browser's and the served site's threads are alive.
    build(data, out, SiteConfig(base_url=BASE, site_url=site_url), search=False, workers=1)
    with served(out, BASE) as base:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(base + "servers/srv/", wait_until="networkidle")
        snippet = page.locator("#badge-stable")
        assert snippet.is_visible()
        endpoint = f"{site_url}{BASE}servers/srv/badge.json"
        expected = (f"[![TDQS (stand-in)](https://img.shields.io/endpoint?url={quote(endpoint, safe='')})]"
                    f"({site_url}{BASE}servers/srv/)")
        assert snippet.inner_text() == expected
        served_json = json.loads(page.request.get(base + "servers/srv/badge.json").text())
        overall = page.locator(".scoreboard .big").first.locator(".tier").inner_text()
        assert served_json["message"] == overall and served_json["label"] == "TDQS (stand-in)"
        # The scoring date in words, and the browser's own "… ago" beside it (never computed at build time).
        freshness = page.locator("p.freshness").inner_text()
        assert re.fullmatch(
            r"Scored 1 Jun 2026, (today|yesterday|\d+ days ago|\d+ months ago|\d+ years ago) · "
            r"model stand-in/test · rubric TDQS \d+\.\d+", freshness), freshness
        page.close()


def test_the_servers_list_shows_when_each_was_scored_without_scrolling(site, browser) -> None:
    base, _ = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + "servers/")
    header = page.locator("#servers-table thead th", has_text="Scored").bounding_box()
    cell = page.locator("#servers-table tbody tr").first.locator("time").bounding_box()
    assert header is not None and cell is not None
    assert header["x"] + header["width"] <= 1280 and cell["x"] + cell["width"] <= 1280
    page.close()


# ---- browsing: search ranking, tier filter, not-scored pages, phone width -------------------------


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A tiny corpus with what the demo lacks: a server captured but never scored, a tool of the
    newest tools/list without a score, and a server with many tools matching one word."""
    data = tmp_path_factory.mktemp("small-data")
    tunes = [definition("get_playlist", "Returns one playlist."), definition("list_playlists", "Lists playlists.")]
    write_capture(data, "tunes", report("tunes", [tool_score(d, scores(4, 4, 3, 4, 4, 4)) for d in tunes], tool_count=3),
                  [*tunes, definition("frobnicate_tracks", "Frobnicates the tracks.")])
    many = [definition(f"sync_{letter}", f"Syncs the {letter} things.") for letter in "abcdefgh"]
    write_capture(data, "syncer", report("syncer", [tool_score(d, scores(3, 2, 3, 3, 4, 3)) for d in many]), many)
    big = [definition(f"op_{i:03d}", f"Operation {i}.") for i in range(120)]
    write_capture(data, "big", report("big", [tool_score(d, scores(1 + i % 5, 1 + i % 4, 3, 3, 1 + i % 5, 2))
                                              for i, d in enumerate(big)]), big)
    fresh = data / "servers" / "fresh"
    fresh.mkdir(parents=True)
    (fresh / "2026-07-01T00-00-00Z.tools.json").write_text(
        '{"tools": [{"name": "brand_new", "description": "Not scored yet.", "inputSchema": {"type": "object"}}]}'
    )
    out = tmp_path_factory.mktemp("small") / "site"
    build(data, out, SiteConfig(base_url=BASE), workers=1)  # no fork beside the browser's threads
    with served(out, BASE) as url:
        yield url


def _results(page: object) -> tuple[str, list[str]]:
    page.wait_for_selector("#search-status:not(:empty)")  # type: ignore[attr-defined]
    status = page.locator("#search-status").inner_text()  # type: ignore[attr-defined]
    hrefs = [a.get_attribute("href") for a in page.locator("#search-results a").all()]  # type: ignore[attr-defined]
    return status, hrefs


def test_an_exact_tool_name_comes_first_and_counts_read_right(site, small, browser) -> None:
    base, _ = site
    page = browser.new_page()
    # In the demo, Pagefind alone ranks the server holding `get-playlist` 16th of 27 for `get_playlist`.
    for query in ("get_playlist", "get-playlist", "getPlaylist"):
        page.goto(base + "search/?q=" + query)
        status, hrefs = _results(page)
        assert hrefs[0] == BASE + "servers/soundry-mcp/tools/get-playlist/", (query, hrefs[:5])
        assert status == f"{len(hrefs)} result{'' if len(hrefs) == 1 else 's'} for “{query}”"
    # A tool's hit comes with its server's, the server first (issue 33: "playlist" found 11 tools, not
    # the server); two hits are "2 results".
    page.goto(small + "search/?q=frobnicates")
    status, hrefs = _results(page)
    assert hrefs == [BASE + "servers/tunes/", BASE + "servers/tunes/tools/frobnicate_tracks/"]
    assert status == "2 results for “frobnicates”"
    assert page.locator("#search-results h2").all_inner_texts() == ["Servers (1)", "Tools (1)"]
    # A server with eight matching tools shows five and lists the other three, collapsed.
    page.goto(small + "search/?q=syncs")
    status, hrefs = _results(page)
    assert len(hrefs) == 9 and status == "9 results for “syncs”"
    summary = page.locator("#search-results details summary")
    assert summary.inner_text() == "3 more matching tools of syncer"
    assert page.locator("#search-results details a").count() == 3
    page.close()


def test_the_tier_filter_counts_each_tier_and_says_what_it_shows(site, browser) -> None:
    from collections import Counter
    from urllib.request import urlopen

    base, _ = site
    page = browser.new_page()
    page.goto(base + "servers/")
    slugs = [a.get_attribute("href").strip("/").split("/")[-1]
             for a in page.locator("#servers-table tbody tr td:first-child a").all()]
    expected: Counter[str] = Counter()
    for slug in slugs:
        with urlopen(base + f"api/servers/{slug}.json") as response:
            scores = json.load(response)["scores"]
        expected[scores["overallTier"] if scores["coverageOk"] else "not published"] += 1
    options = page.locator("select.tier-filter option").all_inner_texts()
    order = [t for t in ("A", "B", "C", "D", "F", "not published") if expected[t]]
    assert options == [f"all ({len(slugs)})"] + [f"{t} ({expected[t]})" for t in order]
    status = page.locator(".table-status")
    assert status.inner_text() == f"{len(slugs)} rows"
    tier = order[0]
    page.locator("select.tier-filter").select_option(tier)
    assert page.locator("#servers-table tbody tr:not([hidden])").count() == expected[tier]
    assert status.inner_text() == f"Showing {expected[tier]} of {len(slugs)} rows."
    page.locator(".table-filter input").fill("no such server anywhere")
    assert page.locator("#servers-table tbody tr:not([hidden])").count() == 0
    assert status.inner_text() == "No rows match."
    assert page.locator('a[href$="downloads/servers.csv.gz"]').count() == 1
    page.close()


def _overflow(page: object) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")  # type: ignore[attr-defined]


def _illegible(page: object) -> list[str]:
    """Text drawn smaller than 12 px (Lighthouse's legible-text bar), outside charts (whose labels
    have their own bar, test_chart_svg): the element and its size."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) =>
        !el.closest('svg') && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) &&
        el.getClientRects().length && parseFloat(getComputedStyle(el).fontSize) < 12
    ).map((el) => el.tagName.toLowerCase() + ' ' + getComputedStyle(el).fontSize).slice(0, 5)""")  # type: ignore[attr-defined]


def test_not_scored_servers_and_tools_are_pages(small, browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(viewport={"width": 390, "height": 844})
    response = page.goto(small + "servers/fresh/")
    assert response is not None and response.status == 200
    assert page.locator("h1").inner_text() == "fresh\nfresh"  # its name, and under it whose: no repository, its id
    assert page.locator("h1 .who").inner_text() == "fresh"
    assert "Not scored yet: only a tools/list has been captured" in page.locator("main p.notice").inner_text()
    assert _overflow(page) <= 2
    page.locator("a", has_text="brand_new").click()
    assert page.url == small + "servers/fresh/tools/brand_new/"
    assert "This tool has no score yet" in page.locator("main p.notice").inner_text()
    assert _overflow(page) <= 2
    # A scored server's unscored tool: a row on its page, and a page, not a 404.
    page.goto(small + "servers/tunes/")
    row = page.locator("table.data tr", has_text="frobnicate_tracks")
    assert "not scored yet" in row.inner_text()
    row.locator("a").click()
    assert page.url == small + "servers/tunes/tools/frobnicate_tracks/"
    assert page.locator("h1").inner_text() == "frobnicate_tracks"
    assert _overflow(page) <= 2
    violations = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not violations
    page.goto(small + "servers/")
    row = page.locator("#servers-table tbody tr", has_text="fresh")
    assert row.get_attribute("data-tier") == "not scored" and "not scored yet" in row.inner_text()
    assert page.locator("select.tier-filter option", has_text="not scored (1)").count() == 1
    # Its reason, in small print under its name, is still legible on a phone.
    assert row.locator("small:not(.who)").count() == 1
    assert _illegible(page) == []
    page.close()


def test_no_page_kind_is_wider_than_a_phone(site, browser) -> None:
    """Every page kind, the search page with results among them, at 390 px: nothing wider than the
    screen, and no table cell or chart label cut off by its container (a table scrolls instead)."""
    base, kinds = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    failures = []
    paths = [address(base, path) for template, path in sorted(kinds.items()) if template != "404.html"]
    for url in [*paths, base + "search/?q=playlist"]:
        page.goto(url, wait_until="networkidle")
        if "search/?q=" in url:
            page.wait_for_selector("#search-results li")
        if _overflow(page) > 2:
            failures.append(f"{url}: {_overflow(page)}px too wide")
        if small_print := _illegible(page):
            failures.append(f"{url}: text below 12 px: {small_print}")
        clipped = page.evaluate("""() => [...document.querySelectorAll('main *')].filter((el) => {
            const style = getComputedStyle(el);
            // (a visually hidden table head, 1 px wide, is hidden on purpose)
            return (style.overflowX === 'hidden' || style.overflowX === 'clip') && el.clientWidth > 1 &&
                el.scrollWidth > el.clientWidth + 2;
        }).map((el) => el.tagName + '.' + el.className).slice(0, 5)""")
        if clipped:
            failures.append(f"{url}: clipped {clipped}")
        # Tables of long text stack their cells on a phone: none reaches past the screen's edge.
        cut = page.evaluate("""() => [...document.querySelectorAll('table.stack tbody td, table.stack tbody th')]
            .filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 2).length""")
        if cut:
            failures.append(f"{url}: {cut} table cells past the screen's edge")
    page.close()
    assert not failures, "\n".join(failures)


def test_numbers_line_up_right_under_their_headings(site, browser) -> None:
    """In every data table of every page kind, a numeric column's heading and cells are set to the
    right, so digits line up and the heading sits over them."""
    base, kinds = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    failures = []
    seen = 0
    for template, path in sorted(kinds.items()):
        if template == "404.html":
            continue
        page.goto(address(base, path), wait_until="networkidle")
        aligned = page.evaluate("""() => [...document.querySelectorAll('table.data th.num, table.data td.num')]
            .map((cell) => getComputedStyle(cell).textAlign)""")
        seen += len(aligned)
        if any(value != "right" for value in aligned):
            failures.append(f"{path}: {sorted(set(aligned))}")
    page.close()
    assert seen > 100 and not failures, failures


def test_statistics_tables_stay_in_their_column_at_desktop_width(site, browser) -> None:
    base, kinds = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    failures = []
    for template in ("flowmcp/index.html", "tdqs/home.html", "cleo/index.html"):
        page.goto(address(base, kinds[template]), wait_until="networkidle")
        spill = page.evaluate("""() => [...document.querySelectorAll('.grid-2 > *')].flatMap((cell) => {
            const box = cell.getBoundingClientRect();
            return [cell, ...cell.querySelectorAll('table')].filter((el) => el.getBoundingClientRect().right > box.right + 1)
                .map((el) => el.tagName + ' ' + (el.caption ? el.caption.textContent : ''));
        })""")
        if spill:
            failures.append(f"{template}: {spill}")
    page.close()
    assert not failures, failures


def test_tool_charts_start_at_the_axis_and_a_big_server_gets_a_histogram(small, browser) -> None:
    page = browser.new_page()
    page.goto(small + "servers/syncer/", wait_until="networkidle")
    bars = page.locator("#chart-tools svg rect")
    widths = bars.evaluate_all("(rects) => rects.map((r) => r.getBBox().width)")
    values = [float(t.rsplit(": ", 1)[1]) for t in page.locator("#chart-tools svg rect > title").all_text_contents()]
    assert len(widths) == len(values) > 1
    # From the axis: every bar's length is in proportion to its value (a bar of 1.0 is a fifth of 5.0).
    ratio = widths[-1] / values[-1]
    assert all(abs(w - v * ratio) < 1 for w, v in zip(widths, values, strict=True))
    page.goto(small + "servers/big/", wait_until="networkidle")
    assert "histogram" in page.locator("#chart-tools svg .chart-title").text_content()
    counts = {
        float(t.rsplit(": ", 1)[0]): int(t.rsplit(": ", 1)[1])
        for t in page.locator("#chart-tools svg rect > title").all_text_contents()
    }
    tdqs = [float(cell) for cell in page.locator("table.tools tbody td:nth-child(2)").evaluate_all(
        "(cells) => cells.map((c) => c.getAttribute('data-sort'))")]
    assert sum(counts.values()) == 120 == len(tdqs)
    assert counts == {value: tdqs.count(value) for value in sorted(set(tdqs))}
    page.close()


# ---- search in shards: a large index merged in the browser with Pagefind's mergeIndex ------------


def _fragment_urls(folder: Path) -> set[str]:
    """The page URLs an index folder holds, read from its fragments (gzipped JSON after Pagefind's
    `pagefind_dcd` signature)."""
    import gzip

    return {json.loads(gzip.decompress(p.read_bytes()).removeprefix(b"pagefind_dcd"))["url"]
            for p in (folder / "fragment").iterdir()}


@pytest.fixture(scope="module")
def sharded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The demo's 77 search documents indexed 20 at a time: four shards."""
    out = tmp_path_factory.mktemp("sharded") / "site"
    build(ROOT / "data", out, SiteConfig(base_url=BASE), shard_docs=20, workers=1)  # no fork beside the browser
    with served(out, BASE) as url:
        yield url, out


def test_a_sharded_index_finds_documents_of_the_first_and_last_shard(sharded, browser) -> None:
    base, out = sharded
    assert sorted(p.name for p in out.iterdir() if p.name.startswith("pagefind")) == [
        "pagefind", "pagefind-2", "pagefind-3", "pagefind-4"]
    # The demo's search documents sorted by path, cut every 20 (by hand): the provider page is the
    # 13th, the session the 75th, the server holding `get-playlist` the 52nd.
    assert "/providers/example-maps/" in _fragment_urls(out / "pagefind")
    assert "/sessions/session-1779362800251-e84b27/" in _fragment_urls(out / "pagefind-4")
    assert "/servers/soundry-mcp/" in _fragment_urls(out / "pagefind-3")
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "search/?q=example-maps")
    _, hrefs = _results(page)
    assert BASE + "providers/example-maps/" in hrefs, hrefs
    page.goto(base + "search/?q=session-1779362800251-e84b27")
    _, hrefs = _results(page)
    assert hrefs[0] == BASE + "sessions/session-1779362800251-e84b27/", hrefs[:5]
    # The exact name still comes first, from the third shard among the hits of all four.
    page.goto(base + "search/?q=get_playlist")
    status, hrefs = _results(page)
    assert hrefs[0] == BASE + "servers/soundry-mcp/tools/get-playlist/", hrefs[:5]
    assert len(hrefs) == len(set(hrefs)), "a hit shown twice"
    assert status == f"{len(hrefs)} results for “get_playlist”"
    assert not errors, errors
    page.close()
