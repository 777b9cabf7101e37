"""Long lists stay light: the servers list of a corpus larger than one page is pages of at most 50
rows in each order and tier, with next/previous links, tier counts over the whole list, and, in a
real browser, filtering and sorting over the whole list from its JSON index; the changes page keeps
the newest 50 changes and links the full history. Every expectation is computed here from each
server's own API file, never from the builder's list code."""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import chromium, served

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

SERVERS = 230
PER_PAGE = 50


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("paged")
    generate_demo(root / "data", servers=SERVERS, tools=700, seed=11, history_share=1.0, workers=1)
    build(root / "data", root / "site", SiteConfig(base_url="/"))
    return root / "site"


class _Rows(HTMLParser):
    """The servers table's rows: each row's tier and its first link; and the page's rel links."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, str]] = []
        self.rel: dict[str, str] = {}
        self.tier_links: list[str] = []
        self._tier: str | None = None
        self._in_body = False
        self._in_tier_nav = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self._tier = a.get("data-tier")
        elif tag == "a" and self._tier is not None:
            self.rows.append((self._tier, a["href"] or ""))
            self._tier = None
        elif tag == "a" and a.get("rel") in ("next", "prev") and a["rel"] not in self.rel:
            self.rel[a["rel"] or ""] = a["href"] or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False


def _page(site: Path, path: str) -> _Rows:
    parser = _Rows()
    parser.feed((site / path).read_text(encoding="utf-8"))
    return parser


def _servers(site: Path) -> dict[str, dict]:
    """Each server's own API file, by slug: what the list must show."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (site / "api" / "servers").glob("*.json")}


def _tier(api: dict) -> str:
    scores = api["scores"]
    return scores["overallTier"] if scores["coverageOk"] else "not published"


def _walk(site: Path, first: str) -> list[list[tuple[str, str]]]:
    """Follows the `next` links from `first`; each page's rows."""
    pages, path = [], first
    while True:
        parsed = _page(site, path)
        pages.append(parsed.rows)
        if "next" not in parsed.rel:
            return pages
        path = posixpath.normpath(posixpath.join(posixpath.dirname(path), parsed.rel["next"], "index.html"))


def _slug(href: str) -> str:
    return href.rstrip("/").split("/")[-1]


@pytest.mark.parametrize("first", ["servers/index.html", "servers-by/name/index.html",
                                   "servers-by/tools/index.html", "servers-by/date/index.html"])
def test_each_order_lists_every_server_once_in_pages_of_at_most_50(site: Path, first: str) -> None:
    servers = _servers(site)
    pages = _walk(site, first)
    assert [len(p) for p in pages] == [50, 50, 50, 50, 30]
    slugs = [_slug(href) for page in pages for _, href in page]
    assert sorted(slugs) == sorted(servers) and len(set(slugs)) == SERVERS
    if first == "servers-by/name/index.html":
        names = [servers[s]["displayName"].lower() for s in slugs]
        assert names == sorted(names)
    if first == "servers-by/tools/index.html":
        counts = [servers[s]["scores"]["toolCount"] for s in slugs]
        assert counts == sorted(counts, reverse=True)
    if first == "servers-by/date/index.html":
        dates = [servers[s]["provenance"]["scoredAt"] for s in slugs]
        assert dates == sorted(dates, reverse=True)


def test_each_tier_has_its_pages_and_the_counts_are_over_the_whole_list(site: Path) -> None:
    expected = Counter(_tier(api) for api in _servers(site).values())
    html = (site / "servers" / "index.html").read_text(encoding="utf-8")
    nav = html.split('aria-label="Order and tier"')[1].split("</nav>")[0]
    shown = dict(re.findall(r">([A-F]|not published|not scored|all) \(([\d,]+)\)</a>", nav))
    assert shown.pop("all") == str(SERVERS)
    assert {t: int(n) for t, n in shown.items()} == dict(expected)
    for tier, count in expected.items():
        folder = "tier-" + tier.lower().replace(" ", "-")
        rows = [row for page in _walk(site, f"servers-by/{folder}/index.html") for row in page]
        assert len(rows) == count and {t for t, _ in rows} == {tier}


def test_the_pager_says_where_a_page_stands(site: Path) -> None:
    html = (site / "servers-by" / "name" / "2" / "index.html").read_text(encoding="utf-8")
    assert "rows 51–100, page 2 of 5" in html
    assert 'rel="prev"' in html and 'rel="next"' in html and 'aria-current="page">2</a>' in html
    index = json.loads((site / "api" / "server-list.json").read_text(encoding="utf-8"))
    assert len(index["rows"]) == SERVERS
    # The default order's pages keep the old address for page 1.
    assert 'href="../servers-by/score/2/"' in (site / "servers" / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def test_the_filter_and_sorting_reach_the_whole_list_in_the_browser(site: Path, browser) -> None:
    from playwright.sync_api import expect

    servers = _servers(site)
    last_page = _walk(site, "servers-by/name/index.html")[-1]
    wanted = servers[_slug(last_page[-1][1])]["displayName"]  # on page 3 of the names, not on page 1
    with served(site) as base:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(base + "servers/")
        assert page.locator("#servers-table tbody tr").count() == PER_PAGE
        page.locator(".table-filter input").fill(wanted)
        status = page.locator(".table-status")
        expect(status).to_have_text(re.compile(r"^Showing "))
        names = page.locator("#servers-table tbody tr td:first-child a").all_inner_texts()
        assert wanted in names and all(wanted.lower() in n.lower() for n in names)
        assert page.locator("nav.pager").first.is_hidden()
        page.locator(".table-filter input").fill("")
        expect(page.locator("#servers-table tbody tr")).to_have_count(PER_PAGE)
        assert page.locator("nav.pager").first.is_visible()
        # Sorting by a column without a page of its own: the whole list, lowest first on a second click.
        column = page.locator("#servers-table thead th", has_text="Min TDQS")
        column.locator("button").click()
        column.locator("button").click()
        expect(column).to_have_attribute("aria-sort", "ascending")
        expect(status).to_have_text(f"Showing 50 of {SERVERS} servers.")
        lowest = min(api["scores"]["minTdqs"] for api in servers.values())
        first = page.locator("#servers-table tbody tr").first.locator("td").nth(6).inner_text()
        assert Decimal(first) == Decimal(str(lowest)).quantize(Decimal("0.1"), ROUND_HALF_UP)
        page.locator("button.more").click()
        expect(page.locator("#servers-table tbody tr")).to_have_count(100)
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 2
        page.close()


def test_the_pages_work_without_javascript(site: Path, browser) -> None:
    with served(site) as base:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(base + "servers/")
        page.locator("nav.pager a[rel=next]").first.click()
        assert page.url == base + "servers-by/score/2/"
        page.locator("#servers-table thead th a", has_text="Tools").click()
        assert page.url == base + "servers-by/tools/"
        assert page.locator("#servers-table tbody tr").count() == PER_PAGE
        context.close()


def test_the_changes_pages_hold_every_capture_that_changed_something(site: Path) -> None:
    """Every server's first capture (it is new) and each later capture that moved a score, on pages
    of 50, newest first, each once; the count on the page is theirs."""
    captures = {(slug, c["scoredAt"]) for slug, api in _servers(site).items() for c in api["captures"]}
    first = {(slug, api["captures"][0]["scoredAt"]) for slug, api in _servers(site).items()}
    shown: list[tuple[str, str]] = []
    number = 1
    while (page := site / "changes" / ("" if number == 1 else str(number)) / "index.html").is_file():
        html = page.read_text(encoding="utf-8")
        body = html.split("<tbody>")[1].split("</tbody>")[0]
        up = "../" * (1 if number == 1 else 2)
        rows = re.findall(r'<tr><td class="date" data-sort="([^"]+)"><time[^>]*>[^<]*</time></td><td><a href="'
                          + re.escape(up) + r'servers/([^/]+)/">', body)
        assert len(rows) == body.count("<tr>") and (len(rows) == 50 or not (page.parent / "2").exists())
        shown += [(slug, when) for when, slug in rows]
        total = int(re.search(r"([\d,]+) changes: ", html).group(1).replace(",", ""))
        number += 1
    assert number > 2 and len(shown) == total == len(set(shown))
    assert first <= set(shown) <= captures
    assert [when for _, when in shown] == sorted((when for _, when in shown), reverse=True)
    assert 'href="../downloads/tool-scores-history.csv.gz"' in (site / "changes" / "index.html").read_text()
    assert (site / "downloads" / "tool-scores-history.csv.gz").is_file()


def test_the_site_feed_keeps_a_recent_window_and_links_the_full_history(site: Path) -> None:
    import xml.etree.ElementTree as ET

    atom = "{http://www.w3.org/2005/Atom}"
    captures = [c["scoredAt"] for api in _servers(site).values() for c in api["captures"]]
    feed = ET.fromstring((site / "feed.xml").read_bytes())
    updated = [entry.find(f"{atom}updated").text for entry in feed.findall(f"{atom}entry")]
    assert len(captures) > 100 and len(updated) == 100
    assert updated == sorted(captures, reverse=True)[:100]
    related = [link.get("href") for link in feed.findall(f"{atom}link") if link.get("rel") == "related"]
    assert related == ["/downloads/tool-scores-history.csv.gz"]
