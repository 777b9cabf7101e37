"""What a registry publishes beside its pages: badges, feeds, bulk data, sitemap, the Pages workflow."""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import duckdb
import pytest
from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, api, build_in_memory

from builder.build import read_and_plan
from builder.config import SiteConfig
from builder.publish.sitemap import sitemap_files

ROOT = Path(__file__).resolve().parents[1]
ATOM = "{http://www.w3.org/2005/Atom}"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    data = tmp_path_factory.mktemp("publish")
    first = [tool_score(definition("alpha"), scores(3, 2, 2, 3, 3, 2)), tool_score(definition("beta"), scores(5, 5, 4, 4, 5, 4))]
    write_capture(data, "two-captures", report("two-captures", first, generated_at="2026-05-01T00:00:00.000Z"))
    second = [
        tool_score(definition("alpha", "Now it says what it does <b>and when</b>."), scores(5, 4, 4, 3, 4, 4)),
        tool_score(definition("beta"), scores(5, 5, 4, 4, 5, 4)),
    ]
    write_capture(data, "two-captures", report("two-captures", second, generated_at="2026-06-01T00:00:00.000Z"))
    write_capture(data, "single", report("single", [tool_score(definition("gamma\u0000\u0007"), scores(2, 2, 2, 2, 2, 2))]))
    writer, _ = build_in_memory(data, SiteConfig(site_url="https://example.github.io", base_url="/scorecards/",
                                                 dispute_url="https://github.com/example/registry/issues/new"))
    return writer


def test_badges_are_svg_and_change_address_with_the_score(site) -> None:
    # The corpus is scored by a stand-in (model stand-in/test): its badges say so (issue 23).
    server = api(site, "api/servers/two-captures.json")["scores"]
    svg_path = f"badges/tdqsstandin-{server['overallTier']}-{server['overallScore']:.1f}.svg"
    root = ET.fromstring(site.files[svg_path])
    assert root.tag == f"{SVG}svg"
    assert f"TDQS (stand-in){server['overallTier']} {server['overallScore']:.1f}" in "".join(root.itertext())
    endpoint = api(site, "servers/two-captures/badge.json")
    assert endpoint["schemaVersion"] == 1 and endpoint["message"] == f"{server['overallTier']} {server['overallScore']:.1f}"
    assert endpoint["label"] == "TDQS (stand-in)"
    page = Page(site.text("servers/two-captures/index.html"))
    assert f"(https://example.github.io/scorecards/{svg_path})" in page.text
    tool = api(site, "api/servers/two-captures.json")["tools"][0]
    tool_svg = f"badges/tdqsstandin-{tool['tier']}-{tool['tdqs']:.1f}.svg"
    assert ET.fromstring(site.files[tool_svg]).tag == f"{SVG}svg"
    tool_endpoint = tool_svg.removesuffix(".svg") + ".json"
    assert api(site, tool_endpoint)["message"] == f"{tool['tier']} {tool['tdqs']:.1f}"
    assert api(site, tool_endpoint)["label"] == "TDQS (stand-in)"
    assert f"servers/two-captures/tools/{tool['slug']}/badge.json" not in site.files  # shared, not one per tool
    tool_page = Page(site.text(f"servers/two-captures/tools/{tool['slug']}/index.html"))
    assert f"../../../../{tool_endpoint}" in tool_page.links
    assert f"(https://example.github.io/scorecards/{tool_svg})" in tool_page.text


def test_the_stable_badge_follows_the_current_grade_through_shields(site) -> None:
    html = site.text("servers/two-captures/index.html")
    stable = ("[![TDQS (stand-in)](https://img.shields.io/endpoint?url=https%3A%2F%2Fexample.github.io%2Fscorecards"
              "%2Fservers%2Ftwo-captures%2Fbadge.json)](https://example.github.io/scorecards/servers/two-captures/)")
    assert stable in Page(html).text
    assert 'href="badge.json"' in html  # the endpoint itself, beside the scorecard


def test_without_a_site_url_the_stable_badge_asks_for_one(tmp_path: Path) -> None:
    write_capture(tmp_path, "srv", report("srv", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))],
                                          model="acme/grader-2"))
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("servers/srv/index.html")).text
    assert "img.shields.io" not in text
    assert "needs the site's absolute address: build with --site-url" in text
    # Overall: description quality 4.0, coherence (4 + 5 + 5 + 4) / 4 = 4.5; 0.7 × 4.0 + 0.3 × 4.5 = 4.15 → 4.2.
    # A real model's badge carries no stand-in label.
    assert "[![TDQS A 4.2](/badges/tdqs-A-4.2.svg)](/servers/srv/)" in text
    assert "badges/tdqs-A-4.2.svg" in writer.paths and api(writer, "servers/srv/badge.json")["label"] == "TDQS"


def test_every_score_says_when_by_which_model_and_under_which_rubric(site) -> None:
    line = "Scored 1 Jun 2026 · model stand-in/test · rubric TDQS 1.2"
    tool = api(site, "api/servers/two-captures.json")["tools"][0]
    for path in ("servers/two-captures/index.html", f"servers/two-captures/tools/{tool['slug']}/index.html"):
        html = site.text(path)
        assert line in Page(html).text, path
        assert '<time datetime="2026-06-01T00:00:00.000Z" data-ago>1 Jun 2026</time>' in html
        assert html.index(line.split(" · ")[0].replace("Scored ", "")) < html.index("<h2"), "beside the score"
        assert "time.js" in html
    servers = site.text("servers/index.html")
    assert '<time datetime="2026-06-01T00:00:00.000Z">1 Jun 2026</time>' in servers
    headings = [t for t in Page(servers).text.split("Server", 1)[1].split() if t in ("Overall", "Scored", "Tools")]
    assert headings[:2] == ["Overall", "Scored"]  # the date sits beside the score, not past the right edge


def test_the_server_pages_history_writes_its_dates_as_its_freshness_line_does(site) -> None:
    """Issue 49: the history listed 2026-06-01 under "Scored 1 Jun 2026". Captures of 1 May and 1 June 2026."""
    html = site.text("servers/two-captures/index.html")
    history = html.split("<h2>History</h2>", 1)[1].split("<h2", 1)[0]
    days = re.findall(r'<li><time datetime="([^"]+)">([^<]+)</time>:', history)
    assert days == [("2026-06-01T00:00:00.000Z", "1 Jun 2026"), ("2026-05-01T00:00:00.000Z", "1 May 2026")]
    assert ">1 Jun 2026</time> · model" in html  # the freshness line, the same way


def test_feeds_are_atom_and_list_grade_changes(site) -> None:
    for path in ("feed.xml", "servers/two-captures/feed.xml", "servers/single/feed.xml"):
        root = ET.fromstring(site.files[path])
        assert root.tag == f"{ATOM}feed"
        for entry in root.iter(f"{ATOM}entry"):
            assert entry.find(f"{ATOM}id") is not None and entry.find(f"{ATOM}updated") is not None
    entries = ET.fromstring(site.files["servers/two-captures/feed.xml"]).findall(f"{ATOM}entry")
    assert len(entries) == 2  # first scored, then rescored with changes
    summaries = [e.find(f"{ATOM}summary").text for e in entries]
    assert any("alpha: definition changed" in (s or "") for s in summaries)
    # Each title says whose server it is, as its page does: its repository (owner/name), else its id (issue 49).
    # This server has no server.json: its name is its id, and so is its identity.
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert [title.split(", overall")[0] for title in titles] == [  # the newest first
        "two-captures (two-captures): rescored", "two-captures (two-captures): first scored"]
    assert "Purpose Clarity 3 → 5" in site.text("changes/index.html")


def test_bulk_data_reads_back_with_one_row_per_tool(site, tmp_path: Path) -> None:
    tools = api(site, "api/stats.json")["toolCount"]
    for name in ("tools.parquet", "tools.csv.gz", "tools.jsonl.gz"):
        (tmp_path / name).write_bytes(site.files[f"downloads/{name}"])
    con = duckdb.connect()
    assert con.execute(f"SELECT count(*) FROM '{tmp_path / 'tools.parquet'}'").fetchone()[0] == tools == 3
    assert con.execute(f"SELECT count(*) FROM read_csv('{tmp_path / 'tools.csv.gz'}')").fetchone()[0] == tools
    assert con.execute(f"SELECT count(*) FROM read_json('{tmp_path / 'tools.jsonl.gz'}')").fetchone()[0] == tools
    history = site.files["downloads/tool-scores-history.parquet"]
    (tmp_path / "h.parquet").write_bytes(history)
    assert con.execute(f"SELECT count(*) FROM '{tmp_path / 'h.parquet'}'").fetchone()[0] == 5
    assert any(link.endswith("downloads/") for link in Page(site.text("index.html")).links)


def test_pages_carry_canonical_opengraph_dispute_and_provenance(site) -> None:
    page = Page(site.text("servers/two-captures/index.html"))
    attrs = {(tag, a.get("rel"), a.get("property")): a for tag, a in page.tags if tag in ("link", "meta")}
    assert attrs[("link", "canonical", None)]["href"] == "https://example.github.io/scorecards/servers/two-captures/"
    assert attrs[("meta", None, "og:url")]["content"] == "https://example.github.io/scorecards/servers/two-captures/"
    assert "https://github.com/example/registry/issues/new" in page.links
    # Issue 22: the capture's values (its first line) apart from those the site derived (its last), said
    # once each (issue 45), with a link to where the rubric page says which is which.
    capture = '<p class="freshness">Scored <time datetime="2026-06-01T00:00:00.000Z" data-ago>'
    derived = "Derived by this site from TDQS 1.2: scoringSystem/1.2.0 · gradingSystem/1.2.0 · "
    tool_html = site.text(f"servers/two-captures/tools/{api(site, 'api/servers/two-captures.json')['tools'][0]['slug']}/index.html")
    for html in (site.text("servers/two-captures/index.html"), tool_html):
        assert capture in html and "· model stand-in/test · rubric TDQS 1.2</p>" in html
        assert derived in html and "#where-each-figure-comes-from" in html
    assert "inputHash" in tool_html
    assert 'id="where-each-figure-comes-from"' in site.text("rubric/index.html")
    robots = site.text("robots.txt")
    assert "Sitemap: https://example.github.io/scorecards/sitemap.xml" in robots
    root = ET.fromstring(site.files["sitemap.xml"])
    locations = [loc.text for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert "https://example.github.io/scorecards/servers/single/" in locations
    assert ".nojekyll" in site.paths and "404.html" in site.paths


def test_a_big_sitemap_becomes_an_index() -> None:
    config = SiteConfig(site_url="https://example.org")
    files = {f.path: f.content for f in sitemap_files([f"p{i}/index.html" for i in range(25)], config, max_urls=10)}
    assert sorted(files) == ["sitemap.xml", "sitemaps/sitemap-1.xml", "sitemaps/sitemap-2.xml", "sitemaps/sitemap-3.xml"]
    root = ET.fromstring(files["sitemap.xml"])
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
    assert len(list(root)) == 3
    assert not list(sitemap_files(["a/index.html"], SiteConfig()))  # no absolute URL known: no sitemap


def test_every_scorecard_kind_has_the_dispute_link(tmp_path: Path) -> None:
    import json as _json

    write_capture(tmp_path, "srv", report("srv", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))
    (tmp_path / "sessions").mkdir()
    row = {"sessionId": "s1", "totalScore": 60, "maxScore": 100, "flags": [], "timestamp": "2026-05-01T10:00:00Z",
           "entryCount": 4, "evaluator": "auto",
           "dimensions": {k: {"score": 12, "max": 20, "evidence": []} for k in (
               "sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")}}
    (tmp_path / "sessions" / "g.jsonl").write_text(_json.dumps(row) + "\n")
    dispute = "https://example.org/issues/new"
    writer, _ = build_in_memory(tmp_path, SiteConfig(dispute_url=dispute))
    kinds = {o.template: o.path for o in read_and_plan(tmp_path, SiteConfig(dispute_url=dispute)).outputs
             if hasattr(o, "template")}
    for template in ("tdqs/server.html", "tdqs/tool.html", "cleo/session.html", "cleo/run.html"):
        assert dispute in Page(writer.text(kinds[template])).links, template


def test_downloads_keep_the_server_flag_apart_from_the_tools_flags(tmp_path: Path) -> None:
    """As in the API (issue 22): a server's Shadowing Risk is not one of each tool's own flags."""
    shadowed = tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4)).model_copy(update={"server_flags": ["Shadowing Risk"]})
    write_capture(tmp_path / "data", "srv", report("srv", [shadowed]))
    writer, _ = build_in_memory(tmp_path / "data")
    (tmp_path / "tools.csv.gz").write_bytes(writer.files["downloads/tools.csv.gz"])
    (tmp_path / "tools.jsonl.gz").write_bytes(writer.files["downloads/tools.jsonl.gz"])
    con = duckdb.connect()
    csv_row = con.execute(f"SELECT flags, server_flags FROM read_csv('{tmp_path / 'tools.csv.gz'}', all_varchar=true)").fetchone()
    assert csv_row == (None, "Shadowing Risk")
    json_row = con.execute(f"SELECT flags, server_flags FROM read_json('{tmp_path / 'tools.jsonl.gz'}')").fetchone()
    assert json_row == ([], ["Shadowing Risk"])
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    assert tool["flags"] == []


def test_bulk_files_wait_on_disk_and_are_removed_with_their_outputs(tmp_path: Path) -> None:
    """A registry's downloads are tens of MB: DuckDB's COPY leaves each in a temporary file until
    the build writes it; the file goes when the output holding it does. The file is in the build's
    cache (whose path may hold a quote), never in the system's temporary folder, and the next build
    that opens the store there removes what a killed one left."""
    import gc

    from builder.store.tables import FILES_FOLDER, connect, files_folder
    from builder.tdqs.bulk import _copy

    cache = tmp_path / "it's .site.cache"
    con = connect(cache)
    con.execute("CREATE TABLE t AS SELECT 1 AS x")
    copied = _copy(con, files_folder(con), "SELECT x, 'a' AS y FROM t", "FORMAT csv, HEADER true", ".csv")
    path = Path(copied.path)
    assert path.parent == cache / FILES_FOLDER
    assert copied() == copied() == b"x,y\n1,a\n"  # read as often as asked
    del copied
    gc.collect()
    assert not path.exists()

    left = cache / FILES_FOLDER / "scorecards-bulk-killed.csv"
    left.write_bytes(b"x\n")
    con.close()
    connect(cache).close()
    assert not left.exists()


def test_each_download_holds_the_same_rows_in_the_same_order_in_every_format(site, tmp_path: Path) -> None:
    """The gzipped CSV and JSON Lines are copied from the Parquet file in the background
    (builder.tdqs.bulk): read back by DuckDB, each format gives the Parquet file's rows in its order
    (CSV's lists joined with ';', as the downloads page says; an empty one is an empty cell)."""
    con = duckdb.connect()
    for name in ("tools", "servers", "tool-scores-history"):
        for suffix in ("parquet", "csv.gz", "jsonl.gz"):
            (tmp_path / f"{name}.{suffix}").write_bytes(site.files[f"downloads/{name}.{suffix}"])
        parquet = con.execute(f"SELECT * FROM '{tmp_path / name}.parquet'").fetchall()
        columns = [d[0] for d in con.description]
        lines = gzip.decompress(site.files[f"downloads/{name}.jsonl.gz"]).decode("utf-8").splitlines()
        assert [tuple(json.loads(line)[c] for c in columns) for line in lines] == parquet
        csv_rows = con.execute(f"SELECT * FROM read_csv('{tmp_path / name}.csv.gz', all_varchar = true)").fetchall()
        assert len(csv_rows) == len(parquet) > 0
        for csv_row, row in zip(csv_rows, parquet, strict=True):
            expected = [(";".join(v) or None) if isinstance(v, list) else v for v in row]  # '' reads back empty
            assert [c for c in csv_row] == [None if v is None else _csv_text(v) for v in expected]


def _csv_text(value: object) -> str:
    """A value as DuckDB's CSV writer spells it: booleans lower-case, everything else as `str`."""
    return str(value).lower() if isinstance(value, bool) else str(value)
