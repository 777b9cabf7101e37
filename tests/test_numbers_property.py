"""Issue 22, as a property: for random corpora of every grading system, every number printed next
to a grade on any page bands to that grade, and every printed formula gives its printed result.
Issue 35 adds: every figure of the FlowMCP statistics bands like its exact value (worked out here
from the drawn corpus), and every share printed on the TDQS home page and the CLEO section is its
exact count ratio rounded once, half up. Issue 49 adds: for random tools/lists (changed, dropped and
added tools, partial lists, toolCounts above and below the tools scored), the servers list, the
static comparisons, the API (what compare.js prints) and the downloads count a server's tools as its
page does.

The corpora lean on the edges (descriptions that are blank or restate the name, stored scores
that disagree, means a hair below a band, CLEO totals that are not their sum). The bands and
the formula are evaluated here with `fractions`, from the printed text alone.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

from corpus import definition, report, scores, tool_score, write_capture
from flowmcp_fixtures import answer, entry, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from site_helpers import Page, api, build_in_memory
from tdqs import TOOL_DIMENSIONS
from test_cleo_reader import grade_row, write_lines

TDQS_TIERS = ((Fraction(35, 10), "A"), (Fraction(3), "B"), (Fraction(2), "C"), (Fraction(1), "D"))
FLOWMCP_BANDS = ((Fraction(45, 10), "A"), (Fraction(35, 10), "B"), (Fraction(25, 10), "C"), (Fraction(15, 10), "D"))
CLEO_SCALE = ((Fraction(90), "A"), (Fraction(75), "B"), (Fraction(60), "C"), (Fraction(45), "D"))
"""The site's default CLEO scale, in percent."""

NUMBER = r"(-?\d+(?:\.\d+)?)"
TIER_SPAN = re.compile(r'<span class="tier tier-[a-z]+">([A-F]) ' + NUMBER + "</span>")
FORMULA = re.compile(r"round1\(0\.6 × mean " + NUMBER + r" \+ 0\.4 × min " + NUMBER + r"\) = " + NUMBER)
FLOW_MEAN = re.compile(r"mean,? " + NUMBER + r",? bands to ([A-F])")
"""The entry's "weighted mean 3.4999 bands to C" and the hints' "The weighted mean, 3.4999, bands to C"."""
REPORT_MEAN = re.compile(r"dimension scores is " + NUMBER + r", which bands to ([A-F])")
CLEO_SCORE = re.compile(r"\b([A-F]) " + NUMBER + " / " + NUMBER + r" \(" + NUMBER + r"%\)")


def band(value: Fraction, scale: tuple[tuple[Fraction, str], ...]) -> str:
    return next((letter for bound, letter in scale if value >= bound), "F")


def half_up(value: Fraction) -> Fraction:
    return Fraction(int((value * 10 + Fraction(1, 2)) // 1), 10)


# ---- random corpora ---------------------------------------------------------------------------

dims = st.tuples(*[st.integers(1, 5)] * 6)
description = st.sampled_from(["Does a thing.", "", "   ", None, "<name>", "Reads the <b>page</b>."])
tool = st.tuples(dims, description, st.booleans(), st.booleans())
"""(dimension scores, description, stored Annotation Contradiction, stored TDQS drifted)."""
servers = st.lists(st.lists(tool, min_size=1, max_size=4), min_size=1, max_size=3)

near_bands = st.sampled_from(["1.4999", "1.5", "2.4999", "2.5", "3.4999", "3.5", "4.4999", "4.5", "5", "1", "3.25"])
answers = st.lists(st.tuples(near_bands, st.sampled_from([1.0, 2.0, 0.5])), min_size=1, max_size=3)
entries = st.lists(answers, min_size=0, max_size=3)
reports = st.lists(st.lists(near_bands, min_size=1, max_size=3), min_size=0, max_size=2)

points = st.sampled_from([0, 5, 9.99, 10, 12.5, 17.99, 18, 20])
cleo_rows = st.lists(st.tuples(st.tuples(*[points] * 5), st.booleans()), min_size=0, max_size=4)


def write_tdqs(data: Path, drawn: list[list[tuple[Any, ...]]]) -> None:
    for s, tools in enumerate(drawn):
        defs, scored = [], []
        for t, (values, text, contradiction, drift) in enumerate(tools):
            name = f"tool_{t}"
            defn = definition(name, name if text == "<name>" else text)
            score = tool_score(defn, scores(*values), flags=["Annotation Contradiction"] if contradiction else [])
            if drift:
                score = score.model_copy(update={"tdqs": 5.0, "tier": "A"})
            defs.append(defn)
            scored.append(score)
        write_capture(data, f"srv-{s}", report(f"srv-{s}", scored), defs)


def write_flowmcp(data: Path, drawn_entries: list[Any], drawn_reports: list[Any]) -> None:
    for i, found in enumerate(drawn_entries):
        gradings = [answer(f"Q-{k}", float(Fraction(v)), weight=w) for k, (v, w) in enumerate(found)]
        write(data / f"grading-data/providers/ns/t{i}/tools/t{i}/_gradings/single-test--2026-06-01T00-00-00Z.json",
              entry(gradings, grade="C", schemaId=f"ns.t{i}"))
    for i, values in enumerate(drawn_reports):
        write(data / f"scoring-reports/r{i}/r{i}-2026-05-18.json", {
            "schemaId": f"r/{i}", "schemaIdSlug": f"r{i}", "schemaHash": "sha256:ab", "date": "2026-05-18",
            "grade": "C", "score": 3.0, "scoringProtocol": "v1", "creator": {"skill": "s"},
            "harness": {"name": "claude-code", "model": "m"}, "timestamps": {"reportedAt": "2026-05-18T00:00:00Z"},
            "dimensions": [{"dimension": f"d{k}", "score": float(Fraction(v))} for k, v in enumerate(values)],
            "validationPassed": True, "validationErrors": [],
        })


def write_cleo(data: Path, rows: list[tuple[tuple[float, ...], bool]]) -> None:
    lines = []
    for i, (values, wrong_total) in enumerate(rows):
        row = grade_row(f"s{i}", values, timestamp=f"2026-05-0{i + 1}T10:00:00.000Z")
        if wrong_total:
            row["totalScore"] = 100 - row["totalScore"]
        lines.append(row)
    if lines:
        write_lines(data / "sessions" / "GRADES.jsonl", lines)


# ---- by hand: FlowMCP statistics and shares ----------------------------------------------------


def entry_mean(found: list[tuple[str, float]]) -> Fraction:
    weights = [Fraction(str(w)) for _, w in found]
    return sum((Fraction(v) * w for (v, _), w in zip(found, weights, strict=True)), Fraction(0)) / sum(weights)


def table_rows(html: str, caption: str) -> list[list[str]]:
    start = html.index(caption)
    table = html[start: html.index("</table>", start)]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, flags=re.S):
        cells = [Page(cell).text.strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
        if cells and not row.lstrip().startswith("<th scope=\"col\""):
            rows.append(cells)
    return rows


def percent(count: int, total: int, digits: int = 1) -> str:
    units = int((Fraction(100 * count, total) * 10**digits + Fraction(1, 2)) // 1)
    return f"{units // 10**digits}.{units % 10**digits:0{digits}d}%"


def check_flowmcp_statistics(html: str, drawn_entries: list[Any], drawn_reports: list[Any]) -> int:
    """Each printed mean, lowest and highest bands like the exact value worked out from the corpus."""
    checked = 0
    means = [entry_mean(found) for found in drawn_entries]
    if means:
        [row] = [r for r in table_rows(html, "Areas:") if r[0] == "single-test"]
        exact = (sum(means) / len(means), min(means), max(means))
        for printed, value in zip(row[4:7], exact, strict=True):
            assert band(Fraction(printed), FLOWMCP_BANDS) == band(value, FLOWMCP_BANDS), (row, value)
            assert abs(Fraction(printed) - value) <= Fraction(1, 200), (row, value)
            checked += 1
    by_dimension: dict[str, list[Fraction]] = {}
    for values in drawn_reports:
        for k, v in enumerate(values):
            by_dimension.setdefault(f"d{k}", []).append(Fraction(v))
    rows = {r[0]: r for r in table_rows(html, "Scoring Protocol dimensions")} if by_dimension else {}
    for name, values in by_dimension.items():
        for printed, value in zip(rows[name][2:4], (sum(values) / len(values), min(values)), strict=True):
            assert band(Fraction(printed), FLOWMCP_BANDS) == band(value, FLOWMCP_BANDS), (name, printed, value)
            checked += 1
    return checked


def check_tdqs_shares(writer: Any) -> int:
    """Every share of the home page from the counts in the servers' API (integers, never rounded)."""
    servers = [json.loads(writer.text(p)) for p in writer.paths if p.startswith("api/servers/")]
    servers = [s for s in servers if s.get("tools")]
    tools = [t for s in servers for t in s["tools"]]
    if not tools:
        return 0
    html, total, checked = writer.text("index.html"), len(tools), 0
    text = Page(html).text
    tiers = Counter(t["tier"] for t in tools)
    for row in table_rows(html, "Tier distribution"):
        letter = row[0].split()[0]
        assert (row[2], row[3]) == (str(tiers[letter]), percent(tiers[letter], total)), row
        checked += 1
    assert f"{percent(tiers['A'] + tiers['B'], total)} of tools reach tier B, the passing bar" in text
    assert f"{percent(sum(1 for t in tools if t['smells']), total)} of tools carry at least one smell" in text
    names = {d.name: d.key for d in TOOL_DIMENSIONS}
    for row in table_rows(html, "Dimensions"):
        smelly = sum(1 for t in tools if t["scores"][names[row[0]]] < 3)
        assert row[3] == percent(smelly, total), row
        checked += 1
    for name, printed, count in re.findall(r"(Annotation Contradiction|No Description|Tautological Description|"
                                           r"Shadowing Risk) (\d+\.\d\d%) \((\d+)\)", text):
        flagged = sum(1 for t in tools if name in t["flags"] + t["serverFlags"])
        assert (int(count), printed) == (flagged, percent(flagged, total, 2)), (name, printed, count)
        checked += 1

    def outlier(server: dict[str, Any]) -> bool:
        values = [Fraction(str(t["tdqs"])) for t in server["tools"]]
        return sum(values) - len(values) * min(values) >= len(values)

    with_outlier = sum(1 for s in servers if outlier(s))
    assert f"{percent(with_outlier, len(servers))} of servers have at least one tool a full point" in text
    below = sum(1 for s in servers if not s["scores"]["coverageOk"])
    if below:
        assert f"{percent(below, len(servers))} of servers have fewer than 80%" in text
    return checked + 3


def check_cleo_shares(writer: Any, drawn: list[tuple[tuple[float, ...], bool]]) -> int:
    """The grade distribution from its session counts; each dimension's share of max and the mean
    share from the drawn scores (five dimensions of 20 points, one run per session)."""
    if "sessions/index.html" not in writer.paths:
        return 0
    html = writer.text("sessions/index.html")
    rows = table_rows(html, "Grade distribution")
    graded = sum(int(r[2]) for r in rows)
    for row in rows:
        assert row[3] == (percent(int(row[2]), graded) if graded else "—"), row
    sessions = [[Fraction(str(v)) for v in values] for values, _ in drawn]
    for position, row in enumerate(table_rows(html, "Dimension means")):
        scored = sum(values[position] for values in sessions)
        assert row[2] == percent(scored.numerator, (20 * len(sessions) * scored.denominator)), row
    mean = sum(sum(values) / 100 for values in sessions) / len(sessions)
    assert f"Mean score: {percent(mean.numerator, mean.denominator)} of the maximum" in Page(html).text
    return len(rows) + 6


# ---- the property -----------------------------------------------------------------------------


def check_page(path: str, html: str) -> int:
    """Every grade-and-number pair of one page; returns how many it checked."""
    checked = 0
    for letter, number in TIER_SPAN.findall(html):
        assert band(Fraction(number), TDQS_TIERS) == letter, (path, letter, number)
        checked += 1
    text = Page(html).text
    for mean, minimum, result in FORMULA.findall(text):
        value = Fraction(6, 10) * Fraction(mean) + Fraction(4, 10) * Fraction(minimum)
        assert half_up(value) == Fraction(result), (path, mean, minimum, result)
        checked += 1
    for pattern in (FLOW_MEAN, REPORT_MEAN):
        for number, letter in pattern.findall(text):
            assert band(Fraction(number), FLOWMCP_BANDS) == letter, (path, number, letter)
            checked += 1
    for letter, total, maximum, share in CLEO_SCORE.findall(text):
        assert band(Fraction(share), CLEO_SCALE) == letter, (path, letter, share)
        assert band(Fraction(total) * 100 / Fraction(maximum), CLEO_SCALE) == letter, (path, letter, total)
        checked += 1
    return checked


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(servers, entries, reports, cleo_rows)
def test_every_printed_number_bands_to_its_grade_and_every_formula_holds(
    tdqs_servers: list[Any], flow_entries: list[Any], flow_reports: list[Any], cleo: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        write_tdqs(data, tdqs_servers)
        write_flowmcp(data, flow_entries, flow_reports)
        write_cleo(data, cleo)
        writer, _ = build_in_memory(data)
        checked = sum(check_page(path, writer.text(path)) for path in writer.paths if path.endswith(".html"))
        if flow_entries or flow_reports:
            checked += check_flowmcp_statistics(writer.text("flowmcp/index.html"), flow_entries, flow_reports)
        checked += check_tdqs_shares(writer) + check_cleo_shares(writer, cleo)
    # Every tool and server page prints at least one TDQS grade with its score, and every server
    # page its formula: the property is never vacuous.
    assert checked >= 2 * len(tdqs_servers)


# ---- issue 49: every count of a server's tools is the server page's ---------------------------

ToolFate = st.sampled_from(["kept", "changed", "dropped"])
coverage_servers = st.lists(
    st.tuples(
        st.lists(ToolFate, min_size=1, max_size=4),  # each scored tool's fate in a newer tools/list
        st.integers(-1, 3),  # toolCount − the number of tools scored (below zero: more scored than the server has)
        st.integers(0, 2),  # tools the newer tools/list adds
        st.sampled_from(["none", "beside", "newer"]),  # where the tools/list is: none, beside the score, or newer
    ),
    min_size=1, max_size=4,
)

SCORED_LINE = re.compile(r"Description quality = round1\([^)]*\)(?: = [\d.]+)?\. (\d+)(?: of (\d+))? tools scored")


def write_coverage_corpus(data: Path, drawn: list[tuple[list[str], int, int, str]]) -> None:
    for s, (fates, extra, added, where) in enumerate(drawn):
        defs = [definition(f"tool_{t}", f"Does thing {t}.") for t in range(len(fates))]
        tools = [tool_score(d, scores(4, 4, 3, 4, 3, 4)) for d in defs]
        rep = report(f"srv-{s}", tools, tool_count=max(1, len(tools) + extra))
        write_capture(data, f"srv-{s}", rep, defs if where == "beside" else None)
        if where == "newer":
            newer = [definition(d["name"], "Does it another way.") if fate == "changed" else d
                     for d, fate in zip(defs, fates, strict=True) if fate != "dropped"]
            newer += [definition(f"added_{a}") for a in range(added)]
            if newer:
                (data / f"servers/srv-{s}/2026-07-01T00-00-00Z.tools.json").write_text(json.dumps({"tools": newer}))


def row_with(html: str, link: str) -> list[str]:
    """The cells of the table row that links to `link`."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, flags=re.S):
        if f'href="{link}"' in row:
            return [Page(cell).text.strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
    raise AssertionError(f"no row links to {link}")


def server_downloads(writer: Any) -> dict[str, dict[str, str]]:
    import csv
    import gzip
    import io

    text = gzip.decompress(writer.files["downloads/servers.csv.gz"]).decode("utf-8")
    return {row["server_id"]: row for row in csv.DictReader(io.StringIO(text))}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coverage_servers)
def test_the_list_compare_pages_api_and_downloads_count_tools_as_the_server_page(
    drawn: list[tuple[list[str], int, int, str]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        write_coverage_corpus(data, drawn)
        writer, _ = build_in_memory(data)
        listing = writer.text("servers/index.html")
        downloads = server_downloads(writer)
        for s in range(len(drawn)):
            server = f"srv-{s}"
            found = SCORED_LINE.search(Page(writer.text(f"servers/{server}/index.html")).text)
            assert found is not None, server
            scored, count = int(found[1]), int(found[2]) if found[2] else None
            scores_api = api(writer, f"api/servers/{server}.json")["scores"]
            if count is None:  # "5 tools scored, more than the 3 the capture's toolCount says the server has"
                assert scores_api["scoredToolCount"] == scored > scores_api["toolCount"], server
                count = scores_api["toolCount"]
            assert (scores_api["scoredToolCount"], scores_api["toolCount"]) == (scored, count), server
            text = f"{scored} of {count}"  # compare.js prints scoredToolCount + " of " + toolCount
            assert (text if scored != count else str(scored)) in row_with(listing, f"{server}/"), server
            compare = writer.text(f"compare/{server}/index.html")
            first = re.search(r'<tr data-measure="coverage">.*?<td class="num">(.*?)</td>', compare, flags=re.S)
            assert first is not None and Page(first[1]).text.startswith(text), (server, first)
            row = downloads[server]
            assert (int(row["scored_tool_count"]), int(row["tool_count"])) == (scored, count), server
