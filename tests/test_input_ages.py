"""A server page lists each input it was built from with its date (the browser adds how long ago,
static/time.js) and links to the part of the manifest that lists them with their age in days
before the data's newest date (never the clock); a newer date elsewhere renders no page again."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page

from builder.build import build
from builder.config import SiteConfig


def capture(data: Path, server: str, when: str, name: str | None = None) -> None:
    tools = [tool_score(definition(f"{server}_t"), scores(4, 4, 4, 4, 4, 4))]
    write_capture(data, server, report(server, tools, generated_at=when), [definition(f"{server}_t")], name=name)


def text(site: Path, server: str) -> str:
    """The page's text, without the space the parser puts where an element ends before a comma or colon."""
    found = Page((site / "servers" / server / "index.html").read_text(encoding="utf-8")).text
    return found.replace(" :", ":").replace(" ,", ",")


def test_each_input_is_listed_with_its_date_and_its_part_of_the_manifest(tmp_path: Path) -> None:
    data, site = tmp_path / "data", tmp_path / "site"
    capture(data, "alpha", "2026-06-01T09:00:00.000Z")
    capture(data, "beta", "2026-03-03T23:00:00.000Z", name="old")
    build(data, site, SiteConfig(), search=False, workers=1)
    beta = text(site, "beta")
    assert "capture servers/beta/old.score.json: captured 3 Mar 2026" in beta
    assert "tools/list servers/beta/old.tools.json: captured 3 Mar 2026" in beta
    html = (site / "servers" / "beta" / "index.html").read_text(encoding="utf-8")
    # The browser says how long ago (static/time.js), from the date the page carries: the same data
    # builds the same bytes whatever the day, and a page is not rendered again because a day passed.
    built_from = html[html.index('id="inputs"'):]
    assert built_from.count('<time datetime="2026-03-03T23:00:00.000Z" data-ago>3 Mar 2026</time>') == 2
    # The manifest's part gives each input's age in days before the data's newest date.
    rows = [json.loads(line) for line in (site / "servers" / "beta" / "manifest.jsonl").read_text().splitlines()]
    ages = {row[1]: row[5] for row in rows if isinstance(row, list) and row[0] == "input"}
    by_hand = (date(2026, 6, 1) - date(2026, 3, 3)).days
    assert by_hand == 90
    # The tools/list carries no date of its own, nor one in its name ("old"): the manifest gives it none.
    assert ages == {"servers/beta/old.score.json": by_hand, "servers/beta/old.tools.json": None}

    # The page links to its folder's part of the manifest, which lists the page's bytes and its inputs'.
    page = Page(html)
    assert "manifest.jsonl" in page.links and "../../manifest.jsonl" in page.links
    listed = {row[1]: row[2] for row in rows if isinstance(row, list)}
    for path, folder in (("servers/beta/index.html", site), ("servers/beta/old.score.json", data),
                         ("servers/beta/old.tools.json", data)):
        assert listed[path] == hashlib.sha256((folder / path).read_bytes()).hexdigest()


def test_a_newer_date_elsewhere_in_the_data_renders_no_other_server_page_again(tmp_path: Path) -> None:
    """Alpha's new capture moves the data's newest date (1 Jun to 11 Jun): beta's page is lent as it
    was (the same file: a lent output keeps its inode), since its inputs' dates are on it and their
    age is the browser's to say; the rebuild equals a cold build."""
    data, site = tmp_path / "data", tmp_path / "site"
    capture(data, "alpha", "2026-06-01T09:00:00.000Z")
    capture(data, "beta", "2026-03-03T23:00:00.000Z", name="old")
    build(data, site, SiteConfig(), search=False, workers=1)
    pages = {name: site / "servers" / name / "index.html" for name in ("alpha", "beta")}
    inodes = {name: page.stat().st_ino for name, page in pages.items()}
    capture(data, "alpha", "2026-06-11T09:00:00.000Z", name="new")
    build(data, site, SiteConfig(), search=False, workers=1)
    assert pages["beta"].stat().st_ino == inodes["beta"]
    assert pages["alpha"].stat().st_ino != inodes["alpha"]
    cold = tmp_path / "cold"
    build(data, cold, SiteConfig(), search=False, workers=1)
    for page in ("servers/beta/index.html", "servers/alpha/index.html", "servers/beta/manifest.jsonl"):
        assert (site / page).read_bytes() == (cold / page).read_bytes()
