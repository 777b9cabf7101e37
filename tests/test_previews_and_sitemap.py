"""Link previews carry the grade, the sitemap dates each page by its data, and a `--site-url` with
a path is folded into the base URL (or refused in one line), never doubled."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import build_in_memory

from builder.cli import main as scorecards
from builder.config import SiteConfig

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def half_up(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def two_servers(data: Path) -> None:
    write_capture(data, "early", report("early", [tool_score(definition("t_one"), scores(5, 4, 4, 3, 5, 4))],
                                        generated_at="2026-03-04T10:00:00.000Z"))
    write_capture(data, "late", report("late", [tool_score(definition("t_two"), scores(2, 2, 2, 2, 2, 2))],
                                       generated_at="2026-05-06T23:59:59.000Z"))


def meta(html: str, attribute: str, name: str) -> str:
    found = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)">', html)
    assert found, name
    return found.group(1)


def test_server_and_tool_previews_carry_the_grade(tmp_path: Path) -> None:
    two_servers(tmp_path)
    writer, _ = build_in_memory(tmp_path, SiteConfig(site_url="https://example.org"))
    # By hand: TDQS of (5, 4, 4, 3, 5, 4) with weights .25 .2 .2 .15 .1 .1 is 4.2; one tool, so
    # description quality is 4.2; coherence (4, 5, 5, 4) is 4.5; overall round1(.7 × 4.2 + .3 × 4.5) = 4.3, A.
    tdqs = Fraction(5 * 25 + 4 * 20 + 4 * 20 + 3 * 15 + 5 * 10 + 4 * 10, 100)
    overall = half_up(Fraction(7, 10) * tdqs + Fraction(3, 10) * Fraction(9, 2))
    assert (tdqs, overall) == (Fraction(21, 5), Fraction(43, 10))
    page = writer.text("servers/early/index.html")
    assert meta(page, "property", "og:title").endswith(" · overall A 4.3")
    # The description once: link previews read it when a page has no og:description (issue 45).
    assert "og:description" not in page
    description = meta(page, "name", "description")
    assert "overall A 4.3" in description and "coherence A 4.5" in description
    tool = writer.text("servers/early/tools/t_one/index.html")
    # Whose server, as on its page: no repository, so its id (issue 33).
    assert meta(tool, "property", "og:title") == "t_one · early (early) · TDQS A 4.2"
    assert "4.2" in meta(tool, "name", "description") and "og:description" not in tool


def test_the_sitemap_dates_each_page_by_its_capture(tmp_path: Path) -> None:
    two_servers(tmp_path)
    writer, _ = build_in_memory(tmp_path, SiteConfig(site_url="https://example.org", base_url="/cards/"))
    root = ET.fromstring(writer.text("sitemap.xml"))
    lastmod = {u.find(f"{SITEMAP}loc").text: u.find(f"{SITEMAP}lastmod").text for u in root.iter(f"{SITEMAP}url")}
    base = "https://example.org/cards/"
    assert lastmod[base + "servers/early/"] == lastmod[base + "servers/early/tools/t_one/"] == "2026-03-04"
    assert lastmod[base + "servers/late/"] == lastmod[base + "servers/late/tools/t_two/"] == "2026-05-06"
    # A page of the whole corpus: the newest capture's date.
    assert lastmod[base] == lastmod[base + "servers/"] == "2026-05-06"
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) for date in lastmod.values())


@pytest.mark.parametrize("base_url", ["/", "/repo/", "repo"])
def test_a_site_url_with_a_path_is_folded_into_the_base_url(tmp_path: Path, base_url: str) -> None:
    two_servers(tmp_path)
    config = SiteConfig(site_url="https://owner.github.io/repo/", base_url=base_url)
    assert (config.site_url, config.base_url) == ("https://owner.github.io", "/repo/")
    writer, _ = build_in_memory(tmp_path, config)
    page = writer.text("servers/early/index.html")
    assert '<link rel="canonical" href="https://owner.github.io/repo/servers/early/">' in page
    assert "/repo/repo/" not in writer.text("sitemap.xml")


def test_a_site_url_whose_path_is_not_the_base_url_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    two_servers(tmp_path)
    code = scorecards(["build", str(tmp_path), "-o", str(tmp_path / "site"), "--site-url",
                       "https://owner.github.io/repo", "--base-url", "/other/"])
    error = capsys.readouterr().err.strip()
    assert code != 0 and not (tmp_path / "site").exists()
    assert "\n" not in error and "/repo/" in error and "/other/" in error
