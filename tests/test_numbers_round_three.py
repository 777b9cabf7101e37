"""Issue 35: every number agrees, round three. Each test builds a small hand-made corpus and checks
the pages against values worked out here with `fractions`, never with the builder's own code:
statistics that never cross a band edge, coverage against the newest tools/list, overall changes
inside a tier, more scored tools than the server has, shares rounded once, CLEO dimension means
with mixed maxima, and the tier trim of a Scoring Protocol report.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from flowmcp_fixtures import answer, entry, write
from site_helpers import Page, api, build_in_memory

FLOWMCP_BANDS = ((Fraction(45, 10), "A"), (Fraction(35, 10), "B"), (Fraction(25, 10), "C"), (Fraction(15, 10), "D"))


def band(value: Fraction) -> str:
    return next((letter for bound, letter in FLOWMCP_BANDS if value >= bound), "F")


def warnings(writer: Any) -> list[tuple[str, str, str]]:
    document = json.loads(writer.text("build-report.json"))
    return [(p["file"], p["jsonPath"], p["reason"]) for p in document["problems"] if p["severity"] == "warning"]


def row_cells(text: str, heading: str, first: str) -> list[str]:
    """The cells of the row that starts with `first` in the table captioned `heading`."""
    table = text[text.index(heading):]
    table = table[: table.index("</table>")]
    for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S):
        cells = [Page(cell).text.strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} under {heading!r}")


def report_file(slug: str, values: list[str], *, grade: str = "C", score: float = 3.0) -> dict[str, Any]:
    return {
        "schemaId": slug.replace("_", "/", 1), "schemaIdSlug": slug, "schemaHash": "sha256:ab", "date": "2026-05-18",
        "grade": grade, "score": score, "scoringProtocol": "v1", "creator": {"skill": "s"},
        "harness": {"name": "claude-code", "model": "m"}, "timestamps": {"reportedAt": "2026-05-18T00:00:00Z"},
        "dimensions": [{"dimension": d, "score": float(v)} for d, v in zip(("whenToUse", "parameters"), values, strict=True)],
        "validationPassed": True, "validationErrors": [],
    }


# ---- FlowMCP statistics: a rounded extreme never crosses a band edge ---------------------------


def test_flowmcp_statistics_never_print_a_figure_across_a_band_edge(tmp_path: Path) -> None:
    single = ["4.4999", "4.5", "4.5"]
    for i, value in enumerate(single):
        write(tmp_path / f"grading-data/providers/ns/s{i}/tools/t/_gradings/single-test--2026-06-01T00-00-00Z.json",
              entry([answer("Q-a", float(value))], grade="B", schemaId=f"ns.s{i}"))
    write(tmp_path / "grading-data/providers/ns/s0/_gradings/tools-aggregate-schema--2026-06-01T00-00-00Z.json",
          entry([answer("Q-a", 1.4999)], area="tools-aggregate-schema", grade="F", schemaId="ns.s0"))
    write(tmp_path / "scoring-reports/ns_a/ns_a-2026-05-18.json", report_file("ns_a", ["1.4998", "2"]))
    write(tmp_path / "scoring-reports/ns_b/ns_b-2026-05-18.json", report_file("ns_b", ["1.5", "2"]))
    writer, _ = build_in_memory(tmp_path)
    text = writer.text("flowmcp/index.html")

    exact = [Fraction(v) for v in single]
    mean, lowest = sum(exact) / 3, min(exact)
    assert band(mean) == band(lowest) == "B" and mean == Fraction(134999, 30000)  # 4.499966…
    cells = row_cells(text, "Areas:", "single-test")
    printed_mean, printed_lowest, printed_highest = cells[4:7]
    assert "4.50" not in (printed_mean, printed_lowest)
    assert band(Fraction(printed_mean)) == "B" and band(Fraction(printed_lowest)) == "B"
    assert abs(Fraction(printed_mean) - mean) < Fraction(1, 10**5) and printed_lowest == "4.4999"
    assert printed_highest == "4.50"

    aggregate = row_cells(text, "Areas:", "tools-aggregate-schema")
    assert aggregate[5] == "1.4999" and band(Fraction(aggregate[5])) == "F"

    dimension = row_cells(text, "Scoring Protocol dimensions", "whenToUse")
    assert dimension[3] == "1.4998" and band(Fraction(dimension[3])) == "F"  # never "1.5"
    dimension_mean = (Fraction("1.4998") + Fraction("1.5")) / 2  # 1.4999: an F, never "1.50"
    assert band(Fraction(dimension[2])) == band(dimension_mean) == "F"


# ---- A rescore inside a tier is a change -------------------------------------------------------

TDQS_WEIGHTS = (25, 20, 20, 15, 10, 10)


def round1(value: Fraction) -> Fraction:
    return Fraction(int((value * 10 + Fraction(1, 2)) // 1), 10)


def tdqs_tier(score: Fraction) -> str:
    return "A" if score >= Fraction(35, 10) else "B" if score >= 3 else "C" if score >= 2 else "D" if score >= 1 else "F"


def overall_by_hand(dims: tuple[int, ...], coherence: tuple[int, ...]) -> Fraction:
    tdqs = round1(Fraction(sum(w * d for w, d in zip(TDQS_WEIGHTS, dims, strict=True)), 100))
    description_quality = round1(Fraction(6, 10) * tdqs + Fraction(4, 10) * tdqs)  # one tool: mean = min
    return round1(Fraction(7, 10) * description_quality + Fraction(3, 10) * round1(Fraction(sum(coherence), 4)))


def test_a_rescore_inside_a_tier_is_listed_in_history_changes_and_feeds(tmp_path: Path) -> None:
    from corpus import definition, report, scores, tool_score, write_capture

    dims, first, second = (4, 4, 4, 4, 4, 4), (2, 2, 2, 3), (3, 3, 3, 4)
    before, after = overall_by_hand(dims, first), overall_by_hand(dims, second)
    assert (before, after) == (Fraction(35, 10), Fraction(38, 10)) and tdqs_tier(before) == tdqs_tier(after) == "A"
    defn = definition("fetch")
    for stamp, coherence in (("2026-05-01T00:00:00.000Z", first), ("2026-06-01T00:00:00.000Z", second)):
        write_capture(tmp_path, "srv", report("srv", [tool_score(defn, scores(*dims))], coherence=coherence,
                                               generated_at=stamp), [defn])
    writer, _ = build_in_memory(tmp_path)
    line = "overall A 3.5 → A 3.8"
    history = Page(writer.text("servers/srv/index.html")).text
    assert line in history and "no change" not in history
    changes = Page(writer.text("changes/index.html")).text
    assert line in changes and "3.5 → 3.8 (+0.3)" in changes
    for feed in ("feed.xml", "servers/srv/feed.xml"):
        xml = writer.text(feed)
        assert xml.count("<entry>") == 2 and line in xml, feed


# ---- Shares are rounded once, from their counts ------------------------------------------------


def percent_by_hand(count: int, total: int, digits: int) -> str:
    units = int((Fraction(100 * count, total) * 10**digits + Fraction(1, 2)) // 1)
    return f"{units // 10**digits}.{units % 10**digits:0{digits}d}%"


def test_a_share_is_rounded_once_from_its_counts(tmp_path: Path) -> None:
    from corpus import definition, report, scores, tool_score, write_capture

    flagged, total = 50, 101
    # 49.50495…%: two decimals give 49.50%; rounded first to six places (0.495050) it read 49.51%.
    assert percent_by_hand(flagged, total, 2) == "49.50%"
    defs = [definition(f"t{i}") for i in range(total)]
    tools = [tool_score(d, scores(4, 4, 4, 4, 4, 4), flags=["Annotation Contradiction"] if i < flagged else [])
             for i, d in enumerate(defs)]
    write_capture(tmp_path, "srv", report("srv", tools), defs)
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("index.html")).text
    assert f"Annotation Contradiction {percent_by_hand(flagged, total, 2)} ({flagged})" in text
    assert "49.51%" not in text
    # Every tool with the flag scores Behavioral Transparency 1: the same 50 carry a smell.
    assert f"{percent_by_hand(flagged, total, 1)} of tools carry at least one smell" in text
    stats = api(writer, "api/stats.json")
    assert stats["flagShares"]["Annotation Contradiction"] == flagged / total  # the nearest float, not 0.49505


def test_the_issues_tier_share_655_of_1749_reads_37_4_percent() -> None:
    from pydantic import BaseModel

    from builder.numbers import Exact, percent, share_of

    exact = Fraction(100 * 655, 1749)  # 37.449971…%
    assert exact < Fraction(3745, 100) and percent_by_hand(655, 1749, 1) == "37.4%"
    twice = Fraction(int((Fraction(655, 1749) * 10**6 + Fraction(1, 2)) // 1), 10**6)  # 0.374500, the old way
    assert percent_by_hand(twice.numerator, twice.denominator, 1) == "37.5%"

    class Row(BaseModel):
        share: Exact

    row = Row(share=share_of(655, 1749))
    assert percent(row.share) == "37.4%" and row.model_dump_json() == f'{{"share":{655 / 1749!r}}}'


# ---- CLEO dimension means with mixed maxima ----------------------------------------------------


def test_cleo_dimension_means_with_mixed_maxima_print_the_ratio_beside_them(tmp_path: Path) -> None:
    from test_cleo_reader import KEYS, grade_row, write_lines

    key = KEYS[0]
    rows = []
    for i, (score, maximum) in enumerate(((17, 20), (13, 16), (19, 20))):
        row = grade_row(f"s{i}", (20, 20, 20, 20, 20), timestamp=f"2026-05-0{i + 1}T10:00:00.000Z")
        row["dimensions"][key] = {"score": score, "max": maximum, "evidence": ["e"]}
        row["totalScore"], row["maxScore"] = 80 + score, 80 + maximum
        rows.append(row)
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", rows)
    writer, _ = build_in_memory(tmp_path)
    mean_score, mean_max = Fraction(17 + 13 + 19, 3), Fraction(20 + 16 + 20, 3)  # 16.33… of 18.66…
    share = mean_score / mean_max  # 49/56 = 87.5%, not the mean of the three shares (87.1%)
    mean_of_shares = (Fraction(17, 20) + Fraction(13, 16) + Fraction(19, 20)) / 3
    assert percent_by_hand(share.numerator, share.denominator, 1) == "87.5%"
    assert percent_by_hand(mean_of_shares.numerator, mean_of_shares.denominator, 1) == "87.1%"
    text = writer.text("sessions/index.html")
    [label] = [c for c in re.findall(r'<th scope="row">([^<]+)</th>', text[text.index("Dimension means"):])][:1]
    cells = row_cells(text, "Dimension means", label)
    assert cells[1] == "16.3 of 18.7"  # the mean maximum rounded like the mean, never 18.666666666667
    assert cells[2] == "87.5%"


# ---- Coverage is counted against the newest tools/list -----------------------------------------


def write_tools_list(data: Path, server: str, stem: str, definitions: list[dict[str, Any]]) -> None:
    (data / "servers" / server / f"{stem}.tools.json").write_text(json.dumps({"tools": definitions}), encoding="utf-8")


def test_coverage_counts_against_the_newest_tools_list(tmp_path: Path) -> None:
    from corpus import definition, report, scores, tool_score, write_capture

    old = [definition(f"tool{i}", f"Does thing {i}.") for i in range(4)]
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in old]), old)
    newest = [*old[:3], definition("tool3", "Does thing 3, differently."), definition("added0"), definition("added1")]
    write_tools_list(tmp_path, "srv", "2026-07-01T00-00-00Z", newest)
    writer, _ = build_in_memory(tmp_path)
    # By hand: 3 tools scored for their newest definition, 1 stale (tool3 changed), 2 unscored, of 6.
    scored, stale, unscored, listed = 3, 1, 2, 6
    assert Fraction(scored, listed) < Fraction(4, 5)  # below the 80% TDQS needs: nothing aggregate is published
    text = Page(writer.text("servers/srv/index.html")).text
    assert f"{scored} of {listed} tools scored against the newest tools/list" in text
    assert f"{scored} scored for their current definition, {stale} stale, {unscored} not scored yet" in text
    assert "not published: below 80% coverage" in text and "at least 80%, so the aggregate is published" not in text
    assert "4 of 4 tools scored" not in text
    to_publish = -(-(4 * listed - 5 * scored) // 5)  # ceil((80% of 6) − 3) = 2
    assert f"Score {to_publish} more tools" in text
    document = api(writer, "api/servers/srv.json")
    assert document["scores"]["overallScore"] is None and document["scores"]["coverageOk"] is False
    assert {k: document["coverage"][k] for k in ("scored", "stale", "unscored", "toolCount")} == {
        "scored": scored, "stale": stale, "unscored": unscored, "toolCount": listed}
    assert "below 80% coverage" in Page(writer.text("servers/index.html")).text


def test_a_capture_scoring_more_tools_than_the_server_has_is_a_warning_and_says_so(tmp_path: Path) -> None:
    from corpus import definition, report, scores, tool_score, write_capture

    defs = [definition(f"tool{i}") for i in range(5)]
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in defs], tool_count=3))
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("servers/srv/index.html")).text
    assert "5 tools scored" in text and "more than the 3 the capture's toolCount says the server has" in text
    assert "5 of 3" not in text
    [found] = [w for w in warnings(writer) if w[1] == "$.serverScore.toolCount"]
    assert found[0] == "servers/srv/2026-06-01T00-00-00Z.score.json" and "scores 5 tools, more than the 3" in found[2]


# ---- A Scoring Protocol report is trimmed like the autonomous areas ----------------------------


def test_a_scoring_protocol_report_is_capped_at_b_like_the_autonomous_areas(tmp_path: Path) -> None:
    values = ["4.5", "4.5"]
    mean = sum(Fraction(v) for v in values) / 2
    assert band(mean) == "A"  # before the trim; both dimensions are autonomous (Grading-Spec 06 §4): B at most
    write(tmp_path / "scoring-reports/ns_a/ns_a-2026-05-18.json", report_file("ns_a", values, grade="A", score=4.5))
    write(tmp_path / "grading-data/providers/ns/a/tools/t/_gradings/single-test--2026-06-01T00-00-00Z.json",
          entry([answer("Q-a", 4.5)], grade="B", schemaId="ns.a"))
    writer, _ = build_in_memory(tmp_path)
    document = api(writer, "api/flowmcp/scoring-reports/ns_a.json")
    assert (document["grade"], document["rawGrade"], document["storedGrade"]) == ("B", "A", "A")
    text = Page(writer.text("scoring-reports/ns_a/index.html")).text
    assert "dimension scores is 4.50, which bands to A" in text and "The tier trim caps it at B" in text
    assert "an autonomous grading never reaches A" in text
    [found] = [w for w in warnings(writer) if w[0] == "scoring-reports/ns_a/ns_a-2026-05-18.json" and w[1] == "$.grade"]
    assert "trimmed to B" in found[2]
    section = writer.text("flowmcp/index.html")
    assert row_cells(section, "Scoring Protocol reports", "B")[1] == "1"
