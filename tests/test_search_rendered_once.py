"""The pages Pagefind indexes are rendered once, for the site and the index alike, and handed to the
index as they are (builder.build.Indexing); those a rebuild lends from the previous build are
rendered for the index alone, so a rebuild's index is a cold build's."""

from __future__ import annotations

import hashlib
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from builder.build import build
from builder.config import SiteConfig
from builder.engine.render import Renderer
from builder.pages.page import Output, Page
from builder.systems import all_systems

ROOT = Path(__file__).resolve().parents[1]


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html") if not p.relative_to(site).parts[0].startswith("pagefind")}


def indexed(site: Path) -> set[str]:
    """The pages whose HTML marks a body for Pagefind, read from the site."""
    return {path for path in pages(site) if "data-pagefind-body" in (site / path).read_text(encoding="utf-8")}


def test_each_page_is_rendered_once_and_a_rebuild_indexes_as_a_cold_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = tmp_path / "data"
    for folder in ("grading-data", "sessions"):  # FlowMCP and CLEO: systems whose pages Pagefind indexes
        shutil.copytree(ROOT / "data" / folder, data / folder)
    rendered: Counter[str] = Counter()
    render = Renderer.render

    def counted(self: Renderer, page: Page) -> str:
        rendered[page.path] += 1
        return render(self, page)

    monkeypatch.setattr(Renderer, "render", counted)
    site = tmp_path / "site"
    build(data, site, SiteConfig(), workers=2)
    assert rendered == Counter(pages(site))  # every page once, those indexed too
    fragments = list((site / "pagefind" / "fragment").iterdir())
    assert len(indexed(site)) >= 10 and len(fragments) == len(indexed(site))  # Pagefind writes a fragment a page

    # A system whose indexed pages have keys (none has today: CLEO's and FlowMCP's pages are always
    # rendered, as they read the whole corpus) has them lent by a rebuild, and indexed all the same.
    systems = [replace(system, outputs=keyed(system.outputs)) for system in all_systems()]
    build(data, site, SiteConfig(), workers=2, systems=systems)
    rendered.clear()
    again = build(data, site, SiteConfig(), workers=2, systems=systems)
    sessions = {path for path in pages(site) if path.startswith("sessions/session-")}
    assert len(sessions & indexed(site)) >= 8 and again.timings["reused"] == len(sessions)  # lent, not rendered…
    assert rendered == Counter(pages(site))  # … but for the index alone: every page still rendered once
    cold = tmp_path / "cold"
    build(data, cold, SiteConfig(), workers=1, systems=systems)
    assert tree(site) == tree(cold)


def keyed(outputs: Callable[..., Iterable[Output]]) -> Callable[..., Iterator[Output]]:
    def with_keys(*args: Any) -> Iterator[Output]:
        for output in outputs(*args):
            yield Page(output.path, output.template, output.context, "key of " + output.path) if isinstance(
                output, Page) and output.path.startswith("sessions/session-") else output
    return with_keys
