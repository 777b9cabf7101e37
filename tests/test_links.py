"""Every link of every rendered page is checked against the build's outputs before anything is
committed: a page that links to an output the plan lost fails the build, naming both."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.build import build, read_and_plan
from builder.config import SiteConfig
from builder.engine.grading_system import GradingSystem
from builder.engine.links import SPILL_PAGES, BrokenLinks, LinkLog, link_targets
from builder.engine.write import MemoryWriter
from builder.pages.page import Output, Page
from builder.systems import all_systems


def test_links_resolve_as_a_browser_resolves_them() -> None:
    """External links, fragments and a bare query (the page itself) are not targets."""
    html = (
        '<a href="../b/">b</a> <a href="../b/#top">same b</a> <a href="https://example.org/x">out</a> '
        '<a href="mailto:a@b.c">mail</a> <a href="#here">here</a> <a href="?q=1">query</a> '
        "<img src='../../static/logo.svg'> <a href=\"tools/t%20x/index.html\">escaped</a> "
        '<a href="/base/servers/">root-relative</a> <a href="/other/">outside the base</a> '
        '<a href="../../../../etc/passwd">above the site</a> <a href="a&amp;b.html">entity</a>'
    )
    assert link_targets("servers/a/index.html", html, "/base/") == {
        "servers/b/index.html",
        "static/logo.svg",
        "servers/a/tools/t x/index.html",
        "servers/index.html",
        "/other/",
        "../../../../etc/passwd",
        "servers/a/a&b.html",
    }


def test_a_page_linking_to_an_output_the_plan_lost_fails_the_build(tmp_path: Path) -> None:
    tools = [tool_score(definition(name), scores(4, 4, 3, 3, 4, 4)) for name in ("alpha", "beta")]
    write_capture(tmp_path, "srv", report("srv", tools))
    config = SiteConfig()
    lost = "servers/srv/tools/beta/index.html"
    assert any(isinstance(o, Page) and o.path == lost for o in read_and_plan(tmp_path, config).outputs)

    def losing(system: GradingSystem) -> GradingSystem:
        """The system, planning every output but `lost`."""
        def outputs(con: Any, corpus: Any, site_config: SiteConfig) -> Iterator[Output]:
            return (o for o in system.outputs(con, corpus, site_config) if o.path != lost)
        return dataclasses.replace(system, outputs=outputs)

    with pytest.raises(BrokenLinks) as raised:
        build(tmp_path, MemoryWriter(), config, search=False, systems=[losing(s) for s in all_systems()])
    assert f"servers/srv/index.html → {lost}" in str(raised.value)


def test_the_demo_corpus_has_no_broken_link_and_the_check_sees_them_all() -> None:
    data = Path(__file__).resolve().parents[1] / "data"
    config = SiteConfig(base_url="/scorecards/")
    writer = MemoryWriter()
    build(data, writer, config, search=False)  # raises BrokenLinks on any broken link
    pages = [path for path in writer.files if path.endswith(".html")]
    linked = set().union(*(link_targets(p, writer.text(p), config.base_path) for p in pages))
    assert len(pages) > 300 and {p for p in pages if p != "404.html"} <= linked | {"index.html"}


def _pages(count: int) -> list[tuple[str, str]]:
    """Pages linking to each other, to pages no build makes, and to targets seen again later."""
    pages = []
    for number in range(count):
        links = [f"../p{(number * 7) % count}/", f"../missing{number % 13}/", "../../static/a.css"]
        if number % 5 == 0:
            links.append(f"../gone{number}/")
        body = " ".join(f'<a href="{link}">x</a>' for link in links)
        pages.append((f"s/p{number}/index.html", body))
    return pages


def test_a_spilling_log_finds_what_a_log_in_memory_finds(tmp_path: Path) -> None:
    """Targets spilled to files by two "workers" (a few pages a file) and merged in order after
    the pages the build's process rendered: the same broken links, the same first pages, the same
    message as when every target is held in one dict."""
    pages = _pages(2500)
    made = {path for path, _ in pages} | {"static/a.css"}
    held = LinkLog("/")
    for path, body in pages:
        held.add(path, body)
    spilled = LinkLog("/")
    for path, body in pages[:100]:  # the build's own pages
        spilled.add(path, body)
    for number, share in enumerate((pages[100:1700], pages[1700:])):
        worker = LinkLog("/", spill=tmp_path / f"w{number}")
        for path, body in share:
            worker.add(path, body)
        files = worker.flush()
        assert len(files) == -(-len(share) // SPILL_PAGES) and not worker.targets
        spilled.merge(files)
    messages = []
    for log in (held, spilled):
        with pytest.raises(BrokenLinks) as raised:
            log.check(made)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("513 links point at pages this build does not make: s/p0/index.html → s/gone0/index.html; ")
    for log in (held, spilled):
        log.check(made | {f"s/missing{n}/index.html" for n in range(13)}
                  | {f"s/gone{n}/index.html" for n in range(0, 2500, 5)})
