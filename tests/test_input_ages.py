"""A server page says how old each input it was built from is, counted from the data's newest date
(never the clock), and links to the part of the manifest that lists it and them; an incremental
rebuild renders it again when that date moves, as a cold build would."""

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


def test_each_input_age_is_the_days_from_its_date_to_the_newest_in_the_data(tmp_path: Path) -> None:
    data, site = tmp_path / "data", tmp_path / "site"
    capture(data, "alpha", "2026-06-01T09:00:00.000Z")
    capture(data, "beta", "2026-03-03T23:00:00.000Z", name="old")
    build(data, site, SiteConfig(), search=False, workers=1)
    by_hand = (date(2026, 6, 1) - date(2026, 3, 3)).days
    assert by_hand == 90
    beta = text(site, "beta")
    assert (f"capture servers/beta/old.score.json: captured 3 Mar 2026, {by_hand} days before this build" in beta)
    assert (f"tools/list servers/beta/old.tools.json: captured 3 Mar 2026, {by_hand} days before this build" in beta)
    assert "This build: 1 Jun 2026" in beta
    assert "captured 1 Jun 2026, 0 days before this build" in text(site, "alpha")

    # The page links to its folder's part of the manifest, which lists the page's bytes and its inputs'.
    page = Page((site / "servers" / "beta" / "index.html").read_text(encoding="utf-8"))
    assert "manifest.jsonl" in page.links and "../../manifest.jsonl" in page.links
    listed = {row[1]: row[2] for row in map(json.loads, (site / "servers" / "beta" / "manifest.jsonl").read_text()
                                           .splitlines()) if isinstance(row, list)}
    for path, folder in (("servers/beta/index.html", site), ("servers/beta/old.score.json", data),
                         ("servers/beta/old.tools.json", data)):
        assert listed[path] == hashlib.sha256((folder / path).read_bytes()).hexdigest()


def test_a_newer_date_in_the_data_renders_the_ages_again_as_a_cold_build_does(tmp_path: Path) -> None:
    data, site = tmp_path / "data", tmp_path / "site"
    capture(data, "alpha", "2026-06-01T09:00:00.000Z")
    capture(data, "beta", "2026-03-03T23:00:00.000Z", name="old")
    build(data, site, SiteConfig(), search=False, workers=1)
    again = build(data, site, SiteConfig(), search=False, workers=1)
    assert again.timings["reused"] > 0 and "90 days before this build" in text(site, "beta")
    capture(data, "alpha", "2026-06-11T09:00:00.000Z")  # only alpha's folder changes; the newest date moves
    build(data, site, SiteConfig(), search=False, workers=1)
    assert f"{(date(2026, 6, 11) - date(2026, 3, 3)).days} days before this build" in text(site, "beta")
    cold = tmp_path / "cold"
    build(data, cold, SiteConfig(), search=False, workers=1)
    for page in ("servers/beta/index.html", "servers/alpha/index.html"):
        assert (site / page).read_bytes() == (cold / page).read_bytes()
