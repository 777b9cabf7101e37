"""The CLEO section built end to end (read → DuckDB → pages → HTML), checked with a real HTML
parser. Expected numbers are recomputed here from the raw JSON lines, independently of the
section's SQL."""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from statistics import mean
from typing import Any

import plotly.graph_objects as go
import pytest
from shared_data import shared_file
from site_helpers import Page as ParsedPage
from test_cleo_reader import KEYS, grade_row, write_lines

from builder.build import BuildResult, read_and_plan
from builder.build import build as build_site
from builder.cleo.pages import section as cleo_pages
from builder.config import CleoGradeScale, SiteConfig
from builder.engine.write import MemoryWriter
from builder.pages.page import Page

DEMO = Path(__file__).resolve().parents[1] / "data"
NO_AUDIT = "No audit entries found for session (use --grade flag when starting session)"


def build(data: Path, config: SiteConfig | None = None) -> tuple[MemoryWriter, BuildResult]:
    writer = MemoryWriter()
    return writer, build_site(data, writer, config or SiteConfig(), search=False, systems=[cleo_pages.system()])


class Tables(HTMLParser):
    """Every <table>: its classes, and its body rows as (cell text, data-sort) pairs."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict[str, Any]] = []
        self._cell: list[str] | None = None
        self._sort: str | None = None
        self._in_body = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "table":
            self.tables.append({"classes": (attributes.get("class") or "").split(), "rows": []})
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self._in_body:
            self._cell, self._sort = [], attributes.get("data-sort")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1]["rows"][-1].append((" ".join("".join(self._cell).split()), self._sort))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def table(self, css_class: str) -> list[list[tuple[str, str | None]]]:
        [found] = [t for t in self.tables if css_class in t["classes"]]
        return found["rows"]


def raw_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def letter(share: float, scale: CleoGradeScale) -> str:
    for grade, bound in (("A", scale.a), ("B", scale.b), ("C", scale.c), ("D", scale.d)):
        if share >= bound:
            return grade
    return "F"


def gradable(row: dict[str, Any]) -> bool:
    return row["entryCount"] > 0 and not any(flag.startswith("No audit entries") for flag in row["flags"])


def current_rows(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per session: the newest gradable row, else the newest row (ISO strings in Z sort by time)."""
    by_session: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_session.setdefault(row["sessionId"], []).append(row)
    chosen = {}
    for session_id, runs in by_session.items():
        runs.sort(key=lambda r: r["timestamp"])
        usable = [r for r in runs if gradable(r)]
        chosen[session_id] = (usable or runs)[-1]
    return chosen


@pytest.fixture(scope="module")
def demo() -> tuple[MemoryWriter, BuildResult]:
    return build(DEMO)


def test_the_demo_statistics_match_an_independent_count(demo: tuple[MemoryWriter, BuildResult]) -> None:
    writer, model = demo
    rows = raw_rows(DEMO / "sessions" / "GRADES.jsonl")
    scale = CleoGradeScale()
    graded = [r for r in current_rows(rows).values() if gradable(r)]
    ungraded = [r for r in current_rows(rows).values() if not gradable(r)]
    html = writer.text("sessions/index.html")
    text = ParsedPage(html).text
    tables = Tables(html)

    shares = [r["totalScore"] / r["maxScore"] for r in graded]
    assert f"{len(graded)} graded, {len(ungraded)} not gradable" in text
    assert f"Mean score: {mean(shares) * 100:.1f}% of the maximum" in text
    expected = Counter(letter(s, scale) for s in shares)
    assert [(row[0][0], int(row[2][0])) for row in tables.table("cleo-distribution")] == [
        (grade, expected[grade]) for grade in "ABCDF"
    ]
    means = [mean(r["dimensions"][key]["score"] for r in graded) for key in KEYS]
    assert [row[1][0] for row in tables.table("cleo-means")] == [f"{m:.1f} of 20" for m in means]

    listed = tables.table("cleo-graded")
    assert len(listed) == len(graded)
    assert {row[0][0]: row[1][0] for row in listed} == {
        r["sessionId"]: letter(r["totalScore"] / r["maxScore"], scale) for r in graded
    }
    times = [float(row[5][1] or 0) for row in listed]
    assert times == sorted(times, reverse=True)  # newest first
    assert [row[0][0] for row in tables.table("cleo-ungradable")] == [r["sessionId"] for r in ungraded]
    assert model.log.error_count == 0 and len(model.log) == 0


def test_the_demo_says_it_is_synthetic_everywhere(demo: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = demo
    pages = [path for path in writer.files if path.startswith("sessions/") and path.endswith(".html")]
    assert pages
    for path in pages:
        assert "Synthetic demo data." in ParsedPage(writer.text(path)).text, path


def test_the_grade_scale_is_a_setting() -> None:
    viewer_scale = CleoGradeScale(a=0.9, b=0.8, c=0.7, d=0.6)  # CLEO's own viewer
    writer, _ = build(DEMO, SiteConfig(cleo_grades=viewer_scale))
    rows = raw_rows(DEMO / "sessions" / "GRADES.jsonl")
    shares = [r["totalScore"] / r["maxScore"] for r in current_rows(rows).values() if gradable(r)]
    expected = Counter(letter(s, viewer_scale) for s in shares)
    assert expected != Counter(letter(s, CleoGradeScale()) for s in shares)  # the demo tells them apart
    distribution = Tables(writer.text("sessions/index.html")).table("cleo-distribution")
    assert [(row[0][0], int(row[2][0])) for row in distribution] == [(g, expected[g]) for g in "ABCDF"]
    api = json.loads(writer.text("api/sessions.json"))
    assert api["gradeScale"] == {"A": 0.9, "B": 0.8, "C": 0.7, "D": 0.6}


def test_the_api_holds_every_row_as_cleo_wrote_it(demo: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = demo
    rows = raw_rows(DEMO / "sessions" / "GRADES.jsonl")
    api = json.loads(writer.text("api/sessions.json"))
    assert api["runCount"] == len(api["runs"]) == len(rows)
    for line, (row, run) in enumerate(zip(rows, api["runs"], strict=True), start=1):
        assert {key: run[key] for key in row} == row
        assert run["source"] == {"file": "sessions/GRADES.jsonl", "line": line}
        assert run["gradable"] == gradable(row)
        assert run["page"] in writer.paths and run["sessionPage"] in writer.paths
    current = {(r["sessionId"], r["timestamp"]) for r in current_rows(rows).values()}
    assert {(r["sessionId"], r["timestamp"]) for r in api["runs"] if r["current"]} == current


def test_the_chart_is_a_valid_figure_of_every_gradable_run(demo: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = demo
    model = read_and_plan(DEMO, SiteConfig(), systems=[cleo_pages.system()])
    [index] = [o for o in model.outputs if isinstance(o, Page) and o.path == "sessions/index.html"]
    figure = index.context.chart  # type: ignore[attr-defined]
    go.Figure(figure)  # raises on anything plotly.js would not accept
    rows = raw_rows(DEMO / "sessions" / "GRADES.jsonl")
    assert len(figure["data"][0]["x"]) == sum(1 for r in rows if gradable(r))
    # Drawn at build time: one point per gradable run in the page's SVG, no script to run.
    html = writer.text("sessions/index.html")
    drawing = html.split('<figure class="chart" id="cleo-scores-over-time">', 1)[1].split("</figure>", 1)[0]
    assert drawing.count("<circle ") == sum(1 for r in rows if gradable(r))
    assert "plot-data" not in html and "<script" not in drawing


def test_links_resolve_and_tables_sort_by_numbers(demo: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = demo
    for path in [p for p in writer.files if p.startswith("sessions/") and p.endswith(".html")]:
        html = writer.text(path)
        for href in ParsedPage(html).links:
            if href.startswith("#"):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href.split("#")[0]))
            if href.endswith("/"):
                target = posixpath.join(target, "index.html") if target != "." else "index.html"
            if target in ("index.html", "problems/index.html"):
                continue  # the site's own pages, made by the build for every site
            assert target in writer.paths, (path, href)
        for table in Tables(html).tables:
            assert "sortable" in table["classes"], path
            for row in table["rows"]:
                for _, sort in row:
                    if sort is not None:
                        float(sort)


def test_the_real_cleo_file_shows_sessions_without_audit_entries_not_failing_agents(tmp_path: Path) -> None:
    (tmp_path / "sessions").mkdir()
    # A copy in the temporary data folder: a symbolic link in a data folder is never followed (issue 21).
    (tmp_path / "sessions" / "GRADES.jsonl").write_bytes(shared_file("real-cleo/GRADES.jsonl").read_bytes())
    writer, model = build(tmp_path)
    assert len(model.log) == 0
    html = writer.text("sessions/index.html")
    text = ParsedPage(html).text
    assert "4 sessions, 35 grading runs" in text and "0 graded, 4 not gradable (no audit entries)" in text
    assert "are not failing agents" in text
    ungradable = Tables(html).table("cleo-ungradable")
    assert {row[0][0]: int(row[1][0]) for row in ungradable} == {
        "sess1": 31, "list": 2, "session-1777057080354-839c6c": 1, "ses_test_123": 1
    }
    assert not any("cleo-graded" in t["classes"] for t in Tables(html).tables)
    assert '<figure class="chart"' not in html
    html_pages = [p for p in writer.files if p.startswith("sessions/") and p.endswith(".html")]
    assert len(html_pages) == 1 + 4 + 35
    for path in html_pages:
        page = writer.text(path)
        assert "tier-f" not in page and ">F<" not in page, path
    assert len(Tables(writer.text("sessions/sess1/index.html")).table("cleo-runs")) == 31
    api = json.loads(writer.text("api/sessions.json"))
    assert len(api["runs"]) == 35
    assert all(r["grade"] is None and r["share"] is None and not r["gradable"] for r in api["runs"])


def test_a_broken_line_in_the_middle_is_reported_and_its_neighbours_reach_the_site(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [
        grade_row("first"), grade_row("second"), "{not json", grade_row("third", (5, 5, 5, 5, 5)),
    ])
    writer, _ = build(tmp_path)
    report = json.loads(writer.text("build-report.json"))
    assert [(p["file"], p["jsonPath"], p["severity"]) for p in report["problems"]] == [
        ("sessions/GRADES.jsonl", "line 3", "error")
    ]
    api = json.loads(writer.text("api/sessions.json"))
    assert [(r["sessionId"], r["source"]["line"]) for r in api["runs"]] == [("first", 1), ("second", 2), ("third", 4)]
    for name in ("first", "second", "third"):
        assert f"sessions/{name}/index.html" in writer.paths
    problems = Tables(writer.text("sessions/index.html")).table("cleo-problems")
    assert [(row[0][0], row[1][0]) for row in problems] == [("sessions/GRADES.jsonl", "line 3")]


def test_a_run_page_shows_both_totals_unknown_flags_and_the_checklist(tmp_path: Path) -> None:
    row = grade_row("s", (20, 10, 20, 20, 10), totalScore=75, flags=[
        "tasks.list used 3x (prefer tasks.find for discovery)",
        "No MCP query calls (prefer cleo_query over CLI for programmatic access)",
        "Grader 2.0 noticed something new",
    ])
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [row])
    writer, model = build(tmp_path)
    assert [(p.json_path, p.severity) for p in model.log.problems] == [("line 1, $.totalScore", "warning")]
    text = ParsedPage(writer.text("sessions/s/index.html")).text
    # Issue 22: totalScore is the sum of the dimensions, so the run is graded from the sum (80)
    # and the stated total is shown beside it.
    assert "Graded from the dimension scores, which add up to 80 (totalScore is their sum); stated in the capture: total 75" in text
    assert "B 80 / 100 (80.0%)" in text
    assert "Unknown flag: Grader 2.0 noticed something new" in text
    assert "Fixing the flagged rules is worth up to +20 points" in text  # 10 lost + 10 lost
    assert "up to +15" in text and "+10" in text


def test_hostile_third_party_text_is_escaped(tmp_path: Path) -> None:
    ids = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "../../etc/passwd", "{{ 7*7 }}", "x" * 5000]
    rows = [grade_row(session_id, flags=["<b>bold</b> flag"]) for session_id in ids]
    rows[0]["dimensions"]["taskHygiene"]["evidence"] = ["javascript:alert(1)", "https://example.com/evidence"]
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", rows)
    writer, _ = build(tmp_path)
    for path in [p for p in writer.files if p.startswith("sessions/") and p.endswith(".html")]:
        parsed = ParsedPage(writer.text(path))
        for tag, attributes in parsed.tags:
            assert tag != "b", path
            if tag == "img":  # only the session's own card (issue 48), its id in the alt text as text
                assert (attributes.get("class"), attributes.get("src")) == ("card", "card.svg"), path
            assert not any(name.startswith("on") for name in attributes), path
            if tag == "script":
                assert "plot-data" in (attributes.get("class") or "") or (attributes.get("src") or "").endswith(".js")
        assert not any(href.lower().startswith("javascript:") for href in parsed.links), path
        assert "49" not in parsed.text.split("7*7")[0][-5:]  # the template engine did not evaluate it
    index = ParsedPage(writer.text("sessions/index.html")).text
    for session_id in ids[:4]:
        assert session_id in index
    assert "x" * 79 + "…" in index and "x" * 81 not in index  # shortened in the table
    [hostile_page] = [p for p in writer.files if p.endswith("/index.html") and "script" in p and "/runs/" not in p]
    page = ParsedPage(writer.text(hostile_page))
    assert "https://example.com/evidence" in page.links
    assert "javascript:alert(1)" in page.text


def test_the_build_is_deterministic() -> None:
    first, _ = build(DEMO)
    second, _ = build(DEMO)
    assert first.files == second.files


def test_a_session_with_a_later_no_audit_run_keeps_its_grade(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [
        grade_row("s", (20, 20, 20, 20, 15), timestamp="2026-05-01T08:00:00Z"),
        grade_row("s", (0, 0, 0, 0, 0), flags=[NO_AUDIT], entryCount=0, timestamp="2026-05-02T08:00:00Z"),
    ])
    writer, _ = build(tmp_path)
    graded = Tables(writer.text("sessions/index.html")).table("cleo-graded")
    assert [(row[0][0], row[1][0]) for row in graded] == [("s", "A")]
    runs = Tables(writer.text("sessions/s/index.html")).table("cleo-runs")
    assert [(row[1][0], "(current)" in row[0][0]) for row in runs] == [("not gradable", False), ("A", True)]
    later = ParsedPage(writer.text("sessions/s/runs/20260502-080000-000/index.html")).text
    assert "This is not the session's current run" in later and "Not gradable: no audit entries." in later


def test_a_file_of_only_broken_lines_still_shows_the_section_and_its_problems(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", ["{", "[]"])
    writer, model = build(tmp_path)
    assert model.log.error_count == 2
    html = writer.text("sessions/index.html")
    text = ParsedPage(html).text
    assert "0 sessions, 0 grading runs: 0 graded, 0 not gradable" in text
    assert [row[1][0] for row in Tables(html).table("cleo-problems")] == ["line 1", "line 2"]
    assert json.loads(writer.text("api/sessions.json"))["runs"] == []
