"""Issue 33, part A, in a real browser over a generated registry with same-named servers: whose
server each is (the list, the page heading, its title and link preview, search results), finding a
server by its id, repository or owner (the search page and "Find a server"), search results
grouped with their grades and a grade order, category pages, and a home page for visitors.

The corpus is the demo generator's, with a large share of forks (servers named as an earlier one
of their kind) and more servers than one page of the list holds, so "Find a server" searches the
whole list's JSON. What each check expects is read from the corpus's own files (server.json, the
newest score.json), never from the builder.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from urllib.parse import quote, urljoin

import pytest
from browser import chromium, served

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

BASE = "/scorecards/"
TIERS = "ABCDF"


@dataclass(frozen=True)
class Server:
    server_id: str
    name: str
    repository: str | None
    """`owner/name` read off the repository URL by hand."""
    categories: tuple[str, ...]
    tier: str
    overall: float

    @property
    def owner(self) -> str | None:
        return self.repository.split("/")[0] if self.repository else None

    @property
    def who(self) -> str:
        """What the page must show under the name: the demo's repositories are named as the ids."""
        if self.repository is None:
            return self.server_id
        assert self.repository.split("/")[1] == self.server_id
        return self.repository


def _servers(data: Path) -> list[Server]:
    found = []
    for folder in sorted((data / "servers").iterdir()):
        meta = json.loads((folder / "server.json").read_text(encoding="utf-8"))
        newest = sorted(folder.glob("*.score.json"))[-1]
        score = json.loads(newest.read_text(encoding="utf-8"))["serverScore"]
        url = meta.get("repositoryUrl")
        repository = "/".join(url.split("://", 1)[1].split("/")[1:3]) if url else None
        assert re.fullmatch(r"[a-z0-9_-]+", folder.name)  # its page is servers/<id>/
        found.append(Server(folder.name, meta["displayName"], repository, tuple(meta.get("categories", ())),
                            score["overallTier"], score["overallScore"]))
    return found


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[Server]]]:
    root = tmp_path_factory.mktemp("identity")
    data, out = root / "data", root / "site"
    generate_demo(data, servers=60, tools=150, seed=5, history_share=0.3, fork_share=0.3, workers=1)
    build(data, out, SiteConfig(base_url=BASE))
    servers = _servers(data)
    with served(out, BASE) as url:
        yield url, out, servers


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def _same_named(servers: list[Server]) -> dict[str, list[Server]]:
    groups: dict[str, list[Server]] = {}
    for server in servers:
        groups.setdefault(server.name, []).append(server)
    return {name: group for name, group in groups.items() if len(group) > 1}


def _open(browser, url: str):  # type: ignore[no-untyped-def]
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="networkidle")
    return page, errors


def test_the_corpus_has_same_named_servers_and_categories(registry) -> None:
    _, _, servers = registry
    assert len(_same_named(servers)) >= 2
    assert any(server.repository is None for server in servers)
    assert sum(bool(server.categories) for server in servers) >= 40


def test_same_named_servers_are_told_apart_in_the_list_the_heading_and_link_previews(registry, browser) -> None:
    base, _, servers = registry
    shown: dict[str, list[str]] = {}
    for view in ("servers/", "servers-by/score/2/"):
        page, errors = _open(browser, base + view)
        for row in page.locator("#servers-table tbody tr").all():
            cell = row.locator("td").first
            shown.setdefault(cell.locator("a").inner_text(), []).append(cell.locator(".who").inner_text())
        assert not errors, errors
        page.close()
    for name, group in _same_named(servers).items():
        assert sorted(shown[name]) == sorted(server.who for server in group), name
        for server in group:
            page, errors = _open(browser, f"{base}servers/{server.server_id}/")
            heading = page.locator("h1")
            assert heading.count() == 1 and heading.locator(".who").inner_text() == server.who
            assert heading.inner_text().startswith(name)
            assert server.who in page.title()
            assert server.who in page.locator('meta[property="og:title"]').get_attribute("content")
            assert server.who in page.locator('meta[name="description"]').get_attribute("content")
            links = [a.inner_text() for a in page.locator("p.categories a").all()]
            assert links == list(server.categories)
            assert not errors, errors
            page.close()


def test_tool_pages_and_the_changes_page_say_whose_server(registry, browser) -> None:
    """A tool page's breadcrumb, title and link preview, and each row of the changes page, name the
    server with whose it is: two same-named servers' tools and changes are told apart too."""
    base, out, servers = registry
    by_id = {server.server_id: server for server in servers}
    for name, group in _same_named(servers).items():
        for server in group:
            tool = sorted((out / "servers" / server.server_id / "tools").iterdir())[0].name
            page, errors = _open(browser, f"{base}servers/{server.server_id}/tools/{tool}/")
            crumb = page.locator('nav[aria-label="Breadcrumb"]')
            assert crumb.locator("a").nth(1).inner_text() == name
            assert crumb.locator("small").inner_text() == f"({server.who})"
            assert f"{name} ({server.who})" in page.title()
            assert server.who in page.locator('meta[property="og:title"]').get_attribute("content")
            assert not errors, errors
            page.close()
    page, errors = _open(browser, base + "changes/")
    rows = page.locator("table.changes tbody tr").all()
    assert rows
    for row in rows:
        cell = row.locator("td").nth(1)
        server = by_id[cell.locator("a").get_attribute("href").rstrip("/").split("/")[-1]]
        assert (cell.locator("a").inner_text(), cell.locator(".who").inner_text()) == (server.name, server.who)
    assert not errors, errors
    page.close()


def _find(page, text: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    box = page.get_by_label("Find a server")
    box.fill(text)
    page.wait_for_function("t => document.querySelector('.table-status').textContent.includes('of') || "
                           "document.querySelector('.table-status').textContent.includes('No servers')", arg=text)
    page.wait_for_timeout(250)  # the filter waits for typing to pause
    rows = page.locator("#servers-table tbody tr").all()
    return [(row.locator("td a").first.inner_text(), row.locator("td .who").first.inner_text()) for row in rows]


def test_find_a_server_matches_its_id_repository_and_owner(registry, browser) -> None:
    base, _, servers = registry
    assert len(servers) > 50  # the list is paged: the box searches the whole list's JSON
    page, errors = _open(browser, base + "servers/")
    fork = next(server for group in _same_named(servers).values() for server in group if server.repository)
    assert _find(page, fork.server_id.upper()) == [(fork.name, fork.who)]
    assert (fork.name, fork.who) in _find(page, f"code.example/{fork.repository}")
    owner = fork.owner
    assert owner is not None
    mine = sorted((s.name, s.who) for s in servers
                  if owner in (s.server_id + " " + (s.repository or "") + " " + s.name).lower())
    assert sorted(_find(page, owner)) == mine
    assert _find(page, "no-such-server-anywhere") == []
    assert page.locator(".table-status").inner_text() == "No servers match."
    assert not errors, errors
    page.close()


def _search(browser, base: str, query: str, **options: str):  # type: ignore[no-untyped-def]
    extra = "".join(f"&{key}={quote(value)}" for key, value in options.items())
    page, errors = _open(browser, f"{base}search/?q={quote(query)}{extra}")
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('for “')")
    return page, errors


def _hits(page, heading: str) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    return page.evaluate(
        """(heading) => {
            const h = [...document.querySelectorAll('#search-results h2')].find(e => e.textContent.startsWith(heading));
            if (!h) return [];
            return [...h.nextElementSibling.children].filter(li => li.querySelector(':scope > a')).map(li => ({
                name: li.querySelector(':scope > a').textContent,
                href: li.querySelector(':scope > a').getAttribute('href'),
                grade: (li.querySelector(':scope > .tier, :scope > .state') || {}).textContent || '',
                pill: !!li.querySelector(':scope > .tier'),
                who: (li.querySelector(':scope > .who') || {}).textContent || '',
                excerpt: (li.querySelector(':scope > p') || {}).textContent || '',
            }));
        }""",
        heading,
    )


def _grade(server: Server) -> str:
    return f"{server.tier} {server.overall:.1f}"


def test_search_finds_a_server_by_its_id_repository_and_owner_with_whose_and_its_grade(registry, browser) -> None:
    base, _, servers = registry
    group = next(iter(_same_named(servers).values()))
    for server in group:
        queries = [server.server_id] + ([server.repository, server.owner] if server.repository else [])
        for query in queries:
            page, errors = _search(browser, base, query)
            hits = _hits(page, "Servers")
            match = [hit for hit in hits if hit["href"] == f"{BASE}servers/{server.server_id}/"]
            assert match, (query, hits)
            assert match[0]["who"] == server.who and match[0]["name"] == server.name
            assert match[0]["grade"] == _grade(server) and match[0]["pill"]
            if query == server.server_id:
                assert hits[0]["href"] == match[0]["href"], (query, hits)
            assert not errors, errors
            page.close()
    # Searching the shared name lists every server of that name, each with whose it is.
    page, _ = _search(browser, base, group[0].name)
    hits = _hits(page, "Servers")
    whose = {hit["who"] for hit in hits if hit["name"] == group[0].name}
    assert whose == {server.who for server in group}
    page.close()


def test_search_groups_servers_above_tools_with_grades_and_orders_by_grade(registry, browser) -> None:
    base, _, servers = registry
    page, errors = _search(browser, base, "list")
    headings = page.locator("#search-results h2").all_inner_texts()
    assert [h.split(" (")[0] for h in headings][:2] == ["Servers", "Tools"], headings
    server_hits, tool_hits = _hits(page, "Servers"), _hits(page, "Tools")
    assert server_hits and tool_hits
    by_page = {f"{BASE}servers/{s.server_id}/": s for s in servers}
    for hit in server_hits:
        assert hit["grade"] == _grade(by_page[hit["href"]]) and hit["pill"]
    for hit in tool_hits:
        assert re.fullmatch(r"[ABCDF] \d\.\d", hit["grade"]) and hit["pill"], hit
        assert hit["who"].startswith("of ")
        # The compact form indexed beside a tool's name (`listdirectories`) is not shown.
        compact = re.sub(r"[\s\-_./]+", "", hit["name"].lower())
        if compact != hit["name"].lower():
            assert compact not in hit["excerpt"].lower().split(), hit
    assert not errors, errors
    page.close()
    page, errors = _search(browser, base, "mcp", order="grade")
    assert "best grade first" in page.locator("#search-status").inner_text()
    graded = [float(hit["grade"].split()[1]) for hit in _hits(page, "Servers")]
    assert len(graded) >= 10 and graded == sorted(graded, reverse=True)
    assert graded[0] == pytest.approx(max(s.overall for s in servers))  # every server's document says "MCP server"
    assert not errors, errors
    page.close()


def _rank(server: Server) -> tuple[int, float, str, str]:
    return TIERS.index(server.tier), -server.overall, server.name.lower(), server.server_id


def test_category_pages_rank_their_servers_by_tier_then_overall(registry, browser) -> None:
    base, _, servers = registry
    page, errors = _open(browser, base + "categories/")
    links = {a.inner_text(): a.get_attribute("href") for a in page.locator("main h2 a").all()}
    categories = {c for s in servers for c in s.categories}
    assert set(links) == categories
    for category in sorted(categories):
        page.goto(urljoin(base + "categories/", links[category]), wait_until="networkidle")
        assert page.locator("h1").inner_text() == category
        rows = page.locator("table.ranked tbody tr").all()
        shown = [(row.locator("td a").inner_text(), row.locator("td .who").inner_text(),
                  row.locator("td .tier").first.inner_text()) for row in rows]
        expected = sorted((s for s in servers if category in s.categories), key=_rank)
        assert shown == [(s.name, s.who, _grade(s)) for s in expected], category
        assert [row.locator("td").first.inner_text() for row in rows] == [str(n) for n in range(1, len(rows) + 1)]
    assert not errors, errors
    page.close()


_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_DAY_IN_WORDS = re.compile(r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b")


def test_the_home_page_is_for_visitors(registry, browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    base, out, servers = registry
    page, errors = _open(browser, base)
    text = page.locator("main").inner_text()
    # Visitors' parts first, statistics after them.
    headings = page.locator("main h2").all_inner_texts()
    assert headings[:3] == ["Best servers", "Best by category", "Recent changes"], headings
    assert headings.index("The registry in numbers") == 3
    levels = [int(tag[1]) for tag in page.evaluate("[...document.querySelectorAll('main h1, main h2, main h3')]"
                                                   ".map(h => h.tagName)")]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in pairwise(levels)), levels
    # Plain words: no method jargon, no raw ISO dates; dates as days.
    for jargon in ("Hyndman", "guard tier", "p25", "p75", "quantile"):
        assert jargon not in text, jargon
    assert not _ISO_DAY.search(text), _ISO_DAY.search(text)
    recent = page.locator("ul.recent li").all_inner_texts()
    assert recent and all(_DAY_IN_WORDS.search(line) for line in recent), recent
    # The best servers overall and per category, each with whose and its grade.
    best = sorted(servers, key=_rank)[:5]
    shown = [(li.locator("a").inner_text(), li.locator(".who").inner_text(), li.locator(".tier").inner_text())
             for li in page.locator("#h-best + ol li").all()]
    assert [(s.name, s.who, _grade(s)) for s in best] == shown
    sections = page.locator("#h-categories + .grid-2 > div").all()
    assert sections
    for block in sections:
        category = block.locator("h3 a").inner_text()
        top = sorted((s for s in servers if category in s.categories), key=_rank)[:3]
        assert [li.locator(".who").inner_text() for li in block.locator("li").all()] == [s.who for s in top]
    # A search box, labelled, that takes the visitor to the search page's results.
    box = page.get_by_label("Find a server or tool by name, owner or repository")
    target = next(s for s in servers if s.repository)
    box.fill(target.server_id)
    box.press("Enter")
    page.wait_for_url(re.compile(r"/search/\?q="))
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('for “')")
    assert _hits(page, "Servers")[0]["who"] == target.who
    # The method notes are on the rubric page, in plain words first.
    page.goto(base + "rubric/", wait_until="networkidle")
    rubric = page.locator("main").inner_text()
    assert "How the figures are computed" in rubric and "Hyndman" in rubric and "no tool or server is graded F" in rubric
    # Light and accessible: each new page kind is small and passes axe with no serious violation.
    axe = Axe()
    category_path = next(p for p in sorted((out / "categories").glob("*/index.html")))
    for path in ("", "categories/", category_path.parent.relative_to(out).as_posix() + "/", "search/?q=list"):
        page.goto(base + path, wait_until="networkidle")
        page.wait_for_timeout(300)
        violations = [v["id"] for v in axe.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        assert not violations, (path, violations)
        html = (out / path.split("?")[0] / "index.html").read_bytes()
        assert len(gzip.compress(html)) < 10 * 1024, (path, len(gzip.compress(html)))
    assert not errors, errors
    page.close()
