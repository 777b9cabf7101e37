"""Issue 49 in a real browser, on a generated registry of 120 servers published under a base path:
servers picked to compare from any list (three pages of the servers list, "Find a server", a
category's page) and from search results are kept while the visitor browses, and compared; no tick
without JavaScript; search past its first 30 matches, with the true count, its query in the address
and Back returning to it; a fragment from the middle of an id found as the list's filter finds it,
with excerpts that do not repeat what the hit shows above them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser import chromium, served

from builder.build import build
from builder.cli import main as scorecards
from builder.config import SiteConfig

BASE = "/scorecards/"
MARK = "zorblax"
"""A word written into the description of MARKED servers, and nowhere else."""
MARKED = 40


class Registry:
    def __init__(self, url: str, meta: dict[str, dict[str, Any]], marked: list[str]) -> None:
        self.url = url
        self.meta = meta
        self.marked = marked

    def who(self, slug: str) -> str:
        """Whose server it is, read off server.json by hand (builder/tdqs/identity.py's rule): the
        repository's owner/name, then the id when the id is not the repository's name; else the id."""
        url = self.meta[slug].get("repositoryUrl")
        if not url:
            return slug
        owner, name = url.rstrip("/").split("/")[-2:]
        return f"{owner}/{name}" if name == slug else f"{owner}/{name} · {slug}"

    def heading(self, slug: str) -> str:
        """A compare column's heading as text: the name, then (after a line break) whose server."""
        return self.meta[slug]["displayName"] + self.who(slug)


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    data = tmp_path_factory.mktemp("registry") / "data"
    assert scorecards(["demo", str(data), "--servers", "120", "--tools", "700"]) == 0
    servers = sorted(p.name for p in (data / "servers").iterdir())
    meta = {}
    marked = servers[10:10 + MARKED]
    for slug in servers:
        path = data / "servers" / slug / "server.json"
        found = json.loads(path.read_text(encoding="utf-8"))
        if slug in marked:
            found["description"] = f"{found.get('description') or ''} Also a {MARK}."
            path.write_text(json.dumps(found), encoding="utf-8")
        meta[slug] = found
    assert scorecards(["index", str(data)]) == 0
    out = data.parent / "site"
    build(data, out, SiteConfig(base_url=BASE))
    assert not any(MARK in p.read_text(encoding="utf-8") for p in (data / "servers").rglob("*.tools.json"))
    with served(out, BASE) as url:
        yield Registry(url, meta, marked)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as instance:
        yield instance


def _picks(page: Any, scope: str) -> list[str]:
    return page.locator(f"{scope} [data-pick]").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pick'))")


def _heads(page: Any) -> list[str]:
    return page.evaluate("""() => [...document.querySelector('#compare-table').tHead.rows[0].cells].slice(1)
        .map((th) => th.textContent.trim())""")


def test_servers_picked_on_list_pages_a_category_and_search_are_compared(registry: Registry, browser: Any) -> None:
    base = registry.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Page 1 of the list: tick one.
    page.goto(base + "servers/", wait_until="networkidle")
    first = _picks(page, "#servers-table")[0]
    page.check(f"#servers-table input.pick[value='{first}']")
    assert page.locator(".pick-bar").inner_text().startswith("1 server ticked")
    # Page 2, through the pager: the tick on page 1 is kept; one found there with "Find a server".
    page.locator("nav.pager a[rel=next]").first.click()
    page.wait_for_load_state("networkidle")
    assert page.url == base + "servers-by/score/2/"
    second = next(slug for slug in _picks(page, "#servers-table") if slug != first)
    page.get_by_label("Find a server").fill(second)
    page.wait_for_selector(f"#servers-table tbody tr:only-child input.pick[value='{second}']")
    page.check(f"#servers-table input.pick[value='{second}']")
    # The filter run again (another text that still finds it), then cleared: the tick stays.
    page.evaluate("() => document.querySelectorAll('#servers-table tbody tr').forEach((tr) => tr.classList.add('drawn-before'))")
    page.get_by_label("Find a server").fill(second[:-1])
    page.wait_for_selector(f"#servers-table tr:not(.drawn-before) input.pick[value='{second}']")
    assert page.locator(f"#servers-table input.pick[value='{second}']").is_checked()
    page.get_by_label("Find a server").fill("")
    page.wait_for_selector("nav.pager:not([hidden])")
    assert page.locator(f"#servers-table input.pick[value='{second}']").is_checked()
    assert page.locator(".pick-bar a").inner_text() == "Compare (2)"
    # A category's page.
    page.goto(base + "categories/", wait_until="networkidle")
    page.locator("main h2 a").first.click()
    page.wait_for_load_state("networkidle")
    assert "/categories/" in page.url
    third = next(slug for slug in _picks(page, "table.ranked") if slug not in (first, second))
    page.check(f"table.ranked input.pick[value='{third}']")
    # Search results: a server found by its id.
    fourth = next(slug for slug in registry.marked if slug not in (first, second, third))
    page.goto(base + "search/?q=" + fourth, wait_until="networkidle")
    page.wait_for_selector(f"#search-results input.pick[value='{fourth}']")
    assert page.locator(".pick-bar a").inner_text() == "Compare (3)"
    page.check(f"#search-results input.pick[value='{fourth}']")
    # A fifth is refused, and the page says why.
    page.goto(base + "search/?q=" + MARK, wait_until="networkidle")
    fifth = next(slug for slug in _picks(page, "#search-results") if slug not in (first, second, third, fourth))
    page.click(f"#search-results input.pick[value='{fifth}']")
    assert not page.locator(f"#search-results input.pick[value='{fifth}']").is_checked()
    assert "Four servers at most" in page.locator(".pick-bar [role=status]").inner_text()
    # Back on page 1, the first is still ticked; then compare the four, in the order they were chosen.
    page.goto(base + "servers/", wait_until="networkidle")
    assert page.locator(f"#servers-table input.pick[value='{first}']").is_checked()
    page.click(".pick-bar a:has-text('Compare (4)')")
    page.wait_for_selector("#compare-status:has-text('Comparing 4 servers.')")
    chosen = [first, second, third, fourth]
    assert page.url == base + "compare/?" + "&".join(f"s={slug}" for slug in chosen)
    assert _heads(page) == [registry.heading(slug) for slug in chosen]
    # Cleared, no tick is left.
    page.goto(base + "servers/", wait_until="networkidle")
    page.click(".pick-bar button:has-text('Clear')")
    assert page.locator("input.pick:checked").count() == 0 and not page.locator(".pick-bar").is_visible()
    page.close()
    assert not errors, errors


def test_without_javascript_no_tick_shows(registry: Registry, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    category = None
    for path in ("servers/", "servers-by/score/2/", "servers-by/name/", "categories/", "search/?q=" + MARK):
        page.goto(registry.url + path)
        assert page.locator("input[type=checkbox]").count() == 0, path
        assert page.get_by_text("Compare the ticked servers").count() == 0, path
        if path == "categories/":
            category = page.locator("main h2 a").first.get_attribute("href")
    assert category is not None
    page.goto(registry.url + "categories/" + category)
    assert page.locator("table.ranked tbody tr").count() > 0
    assert page.locator("input[type=checkbox]").count() == 0
    # A server's own comparison is still a static page.
    page.goto(registry.url + f"servers/{registry.marked[0]}/")
    page.click("text=Compare with similar servers")
    assert page.url == registry.url + f"compare/{registry.marked[0]}/"
    assert page.locator("#compare-table thead th").count() >= 3  # the measure's column and two servers at least
    context.close()


def _status(page: Any, words: str) -> str:
    page.wait_for_selector(f"#search-status:has-text('{words}')")
    return str(page.locator("#search-status").inner_text())


def _server_hits(page: Any) -> list[str]:
    hrefs = [str(a.get_attribute("href")) for a in page.locator("#search-results li > a").all()]
    return [href for href in hrefs if re.fullmatch(BASE + r"servers/[a-z0-9_-]+/", href)]


def test_search_goes_past_30_counts_every_match_and_keeps_its_query_in_the_address(registry: Registry,
                                                                                   browser: Any) -> None:
    base = registry.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "search/", wait_until="networkidle")
    page.fill("#q", MARK)
    page.press("#q", "Enter")
    assert _status(page, "showing") == f"{MARKED} servers for “{MARK}”; showing the first 30."
    assert page.locator("#search-results h2").all_inner_texts() == [f"Servers ({MARKED})"]
    assert len(_server_hits(page)) == 30
    assert page.url == base + "search/?q=" + MARK
    # Results 31 to 40.
    page.click("button.more:has-text('Show the last 10')")
    assert _status(page, "results") == f"{MARKED} results for “{MARK}”"
    expected = {BASE + f"servers/{slug}/" for slug in registry.marked}
    assert sorted(_server_hits(page)) == sorted(expected)
    assert not page.locator("button.more").is_visible()
    # Another search is a new step in the history: Back returns to this one, and so it does from a result.
    page.fill("#q", registry.marked[0])
    page.press("#q", "Enter")
    _status(page, "1 result")
    assert page.url == base + "search/?q=" + registry.marked[0]
    page.go_back()
    assert page.url == base + "search/?q=" + MARK
    assert _status(page, "showing").startswith(f"{MARKED} servers for")
    assert page.input_value("#q") == MARK
    page.locator("#search-results li > a").first.click()
    page.wait_for_load_state()
    assert "/servers/" in page.url
    page.go_back()
    assert page.url == base + "search/?q=" + MARK
    assert _status(page, "showing").startswith(f"{MARKED} servers for")
    # The order is in the address too, and a shared address runs its search.
    page.select_option("#order", "grade")
    assert _status(page, "best grade first").startswith(f"{MARKED} servers for")
    assert page.url == base + f"search/?q={MARK}&order=grade"
    page.goto(base + f"search/?q={MARK}&order=grade", wait_until="networkidle")
    assert page.input_value("#order") == "grade"
    assert _status(page, "best grade first") == f"{MARKED} servers for “{MARK}”, best grade first; showing the first 30."
    page.close()
    assert not errors, errors


def _fragment(registry: Registry) -> tuple[str, str]:
    """A server and four letters from inside a word of its id (not its beginning)."""
    for slug in sorted(registry.meta):
        for word in slug.split("-"):
            if len(word) >= 7:
                return slug, word[2:6]
    raise AssertionError("no id with a long word")


def test_a_fragment_from_inside_an_id_finds_the_server_as_the_lists_filter_does(registry: Registry,
                                                                                browser: Any) -> None:
    base = registry.url
    slug, fragment = _fragment(registry)
    # The list's rule, by hand: the fragment inside the name, whose server it is, or the repository's URL.
    expected = sorted(s for s, m in registry.meta.items()
                      if fragment in f"{m['displayName']} {registry.who(s)} {m.get('repositoryUrl') or ''}".lower())
    assert slug in expected
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + "servers/", wait_until="networkidle")
    page.get_by_label("Find a server").fill(fragment)
    page.wait_for_selector(".table-status:has-text('server')")
    listed = sorted(_picks(page, "#servers-table") + [
        a.split("/")[-2] for a in page.locator("#servers-table tbody tr:not(:has([data-pick])) td:first-child a")
        .evaluate_all("(els) => els.map((e) => e.getAttribute('href'))")])
    assert listed == expected
    page.goto(base + "search/?q=" + fragment, wait_until="networkidle")
    _status(page, "for")
    found = {href.split("/")[-2] for href in _server_hits(page)}
    assert set(expected) <= found, (fragment, expected, found)
    # Each hit's excerpt says what the hit adds: not its id nor whose server it is, shown above it.
    page.goto(base + "search/?q=" + slug, wait_until="networkidle")
    _status(page, "for")
    hit = page.locator(f"#search-results li:has(> a[href='{BASE}servers/{slug}/'])")
    excerpt = hit.locator("p").inner_text()
    assert hit.locator("small.who").inner_text() == registry.who(slug)
    # Every word of it is the server's description's or its categories'.
    about = " ".join([registry.meta[slug].get("description") or "", *(registry.meta[slug].get("categories") or [])])
    words = {word.strip(".,:;()").lower() for word in about.split()}
    assert excerpt and {word.strip(".,:;()").lower() for word in excerpt.split()} <= words, excerpt
    for shown in (slug, slug.replace("-", ""), registry.who(slug)):
        assert shown.lower() not in excerpt.lower(), (shown, excerpt)
    page.close()
