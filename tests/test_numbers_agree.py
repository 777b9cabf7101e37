"""Issue 22: every number agrees with its spec, with its grade and with the numbers beside it.

Each test builds a small hand-made corpus and checks the page text and the API against values
worked out here by hand with `fractions` (the TDQS weights, half-up rounding, the FlowMCP bands,
CLEO's sums), never with the builder's own code.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from corpus import definition, report, scores, tool_score, write_capture
from flowmcp_fixtures import VETO_ENTRY, answer, entry, spec_tree, write
from site_helpers import Page, api, build_in_memory
from test_cleo_reader import grade_row, write_lines

WEIGHTS = (25, 20, 20, 15, 10, 10)
"""Purpose, guidelines, transparency, params, conciseness, completeness (the TDQS rubric)."""
KEYS = ("purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics",
        "conciseness_structure", "contextual_completeness")


def half_up(value: Fraction, digits: int = 1) -> Fraction:
    scale = 10**digits
    return Fraction(int((value * scale + Fraction(1, 2)) // 1), scale)


def text_of(value: Fraction, digits: int) -> str:
    units = int(value * 10**digits)
    return f"{units // 10**digits}.{units % 10**digits:0{digits}d}"


def tdqs_by_hand(dims: tuple[int, ...]) -> Fraction:
    return half_up(Fraction(sum(w * d for w, d in zip(WEIGHTS, dims, strict=True)), 100))


def tier_by_hand(score: Fraction) -> str:
    return "A" if score >= Fraction(35, 10) else "B" if score >= 3 else "C" if score >= 2 else "D" if score >= 1 else "F"


def warnings(writer: Any) -> list[tuple[str, str]]:
    document = json.loads(writer.text("build-report.json"))
    return [(p["jsonPath"], p["reason"]) for p in document["problems"] if p["severity"] == "warning"]


def tool_page(writer: Any, server: str, tool: dict[str, Any]) -> str:
    return Page(writer.text(f"servers/{server}/tools/{tool['slug']}/index.html")).text


# ---- TDQS: hard gates and overrides -----------------------------------------------------------


def test_a_whitespace_only_description_scores_1_everywhere_with_its_flag(tmp_path: Path) -> None:
    defn = definition("fetch_page", " \t\n ")
    stored = (4, 4, 4, 4, 4, 4)
    write_capture(tmp_path, "srv", report("srv", [tool_score(defn, scores(*stored))]), [defn])
    writer, _ = build_in_memory(tmp_path)
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    floor = tdqs_by_hand((1,) * 6)
    assert floor == 1 and tier_by_hand(floor) == "D"
    assert (tool["tdqs"], tool["tier"], tool["flags"]) == (float(floor), "D", ["No Description"])
    assert tool["scores"] == dict.fromkeys(KEYS, 1)
    stated = tdqs_by_hand(stored)
    assert (tool["statedTdqs"], tool["statedTier"]) == (float(stated), tier_by_hand(stated))
    text = tool_page(writer, "srv", tool)
    assert f"TDQS D {text_of(floor, 1)}" in text
    assert f"(stated in the capture: {tier_by_hand(stated)} {text_of(stated, 1)})" in text
    assert "Flags: No Description" in text and "Flags: none" not in text
    paths = [path for path, _ in warnings(writer)]
    assert "$.tools[0].tdqs" in paths and "$.tools[0].flags" in paths and "$.tools[0].scores.purpose_clarity" in paths


def test_a_tautological_description_caps_purpose_clarity_at_2(tmp_path: Path) -> None:
    defn = definition("Fetch_Page", "  fetch_page ")  # lowercased and trimmed, it is the name
    stored = (5, 4, 4, 4, 4, 4)
    write_capture(tmp_path, "srv", report("srv", [tool_score(defn, scores(*stored))]), [defn])
    writer, _ = build_in_memory(tmp_path)
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    capped = tdqs_by_hand((2, 4, 4, 4, 4, 4))  # (50 + 80 + 80 + 60 + 40 + 40) / 100 = 3.5
    stated = tdqs_by_hand(stored)  # 4.25 → 4.3
    assert (capped, stated) == (Fraction(35, 10), Fraction(43, 10))
    assert (tool["tdqs"], tool["tier"], tool["scores"]["purpose_clarity"]) == (3.5, "A", 2)
    assert tool["flags"] == ["Tautological Description"] and tool["smells"] == ["purpose_clarity"]
    text = tool_page(writer, "srv", tool)
    assert "TDQS A 3.5" in text and "(stated in the capture: A 4.3)" in text
    assert "2 (stated in the capture: 5)" in text
    assert any(path == "$.tools[0].scores.purpose_clarity" for path, _ in warnings(writer))


def test_an_annotation_contradiction_scores_behavioral_transparency_1(tmp_path: Path) -> None:
    defn = definition("create_record", "Creates a record.", annotations={"readOnlyHint": True})
    stored = (4, 4, 4, 4, 4, 4)
    write_capture(tmp_path, "srv", report("srv", [
        tool_score(defn, scores(*stored), flags=["Annotation Contradiction"])]), [defn])
    writer, _ = build_in_memory(tmp_path)
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    want = tdqs_by_hand((4, 4, 1, 4, 4, 4))  # (100 + 80 + 20 + 60 + 40 + 40) / 100 = 3.4
    assert want == Fraction(34, 10)
    assert (tool["tdqs"], tool["tier"], tool["scores"]["behavioral_transparency"]) == (3.4, "B", 1)
    text = tool_page(writer, "srv", tool)
    assert "TDQS B 3.4" in text and "(stated in the capture: A 4.0)" in text
    assert "1 (stated in the capture: 4)" in text
    assert "Behavioral Transparency scores 1." in text  # the flag's effect, now true of the table


def test_without_a_stored_definition_a_stored_no_description_flag_still_floors_the_scores(tmp_path: Path) -> None:
    defn = definition("ghost", "Described after all.")
    write_capture(tmp_path, "srv", report("srv", [
        tool_score(defn, scores(3, 3, 3, 3, 3, 3), flags=["No Description"])]))  # no tools.json
    writer, _ = build_in_memory(tmp_path)
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    assert (tool["tdqs"], tool["tier"], tool["flags"]) == (1.0, "D", ["No Description"])
    assert (tool["statedTdqs"], tool["statedTier"]) == (3.0, "B")


def test_shadowing_risk_stays_a_server_flag_in_the_api(tmp_path: Path) -> None:
    defn = definition("search_all", "Searches everything.")
    score = tool_score(defn, scores(4, 4, 4, 4, 4, 4)).model_copy(update={"server_flags": ["Shadowing Risk"]})
    write_capture(tmp_path, "srv", report("srv", [score]), [defn])
    writer, _ = build_in_memory(tmp_path)
    [tool] = api(writer, "api/servers/srv.json")["tools"]
    assert tool["flags"] == [] and tool["serverFlags"] == ["Shadowing Risk"]


# ---- TDQS: the formula line and the home page -------------------------------------------------


def test_the_formula_line_reproduces_the_description_quality_beside_it(tmp_path: Path) -> None:
    low, high = (3, 4, 3, 3, 3, 4), (4, 3, 3, 3, 3, 4)
    tools = [tool_score(definition("a"), scores(*low)), tool_score(definition("b"), scores(*high))]
    write_capture(tmp_path, "srv", report("srv", tools))
    writer, _ = build_in_memory(tmp_path)
    a, b = tdqs_by_hand(low), tdqs_by_hand(high)
    assert (a, b) == (Fraction(33, 10), Fraction(34, 10))
    mean, minimum = (a + b) / 2, min(a, b)
    dq = half_up(Fraction(6, 10) * mean + Fraction(4, 10) * minimum)  # 2.01 + 1.32 = 3.33 → 3.3
    # The mean rounded to one decimal (3.4) would give round1(2.04 + 1.32) = 3.4: not the score.
    assert half_up(Fraction(6, 10) * half_up(mean) + Fraction(4, 10) * minimum) != dq
    text = Page(writer.text("servers/srv/index.html")).text
    assert f"round1(0.6 × mean {text_of(mean, 2)} + 0.4 × min {text_of(minimum, 1)}) = {text_of(dq, 1)}" in text
    assert api(writer, "api/servers/srv.json")["scores"]["descriptionQualityScore"] == float(dq)


def test_home_page_figures_round_half_up(tmp_path: Path) -> None:
    three_five, three_six = (4, 3, 3, 4, 3, 4), (4, 3, 3, 4, 4, 4)
    tools = [tool_score(definition(f"t{i}"), scores(*three_five)) for i in range(3)]
    tools.append(tool_score(definition("t3"), scores(*three_six)))
    write_capture(tmp_path, "srv", report("srv", tools))
    writer, _ = build_in_memory(tmp_path)
    mean = (3 * tdqs_by_hand(three_five) + tdqs_by_hand(three_six)) / 4
    assert mean == Fraction(3525, 1000)
    text = Page(writer.text("index.html")).text
    assert f"The average tool scores {text_of(half_up(mean, 2), 2)}" in text and "3.53" in text


def test_a_share_of_one_in_sixteen_reads_6_3_percent(tmp_path: Path) -> None:
    tools = [tool_score(definition(f"t{i}"), scores(4, 4, 4, 4, 4, 4)) for i in range(15)]
    tools.append(tool_score(definition("smelly"), scores(4, 4, 4, 4, 4, 2)))
    write_capture(tmp_path, "srv", report("srv", tools))
    writer, _ = build_in_memory(tmp_path)
    share = half_up(Fraction(100, 16), 1)  # 6.25 → 6.3
    assert f"{text_of(share, 1)}% of tools carry at least one smell" in Page(writer.text("index.html")).text


def test_scored_definitions_are_distinct_and_the_percentile_method_is_on_the_rubric_page(tmp_path: Path) -> None:
    same, changed = definition("same", "Stays the same."), definition("moves", "First wording.")
    newer = definition("moves", "Second wording.")
    for stamp, moving in (("2026-05-01T00:00:00.000Z", changed), ("2026-06-01T00:00:00.000Z", newer)):
        rep = report("srv", [tool_score(same, scores(4, 4, 4, 4, 4, 4)), tool_score(moving, scores(3, 3, 3, 3, 3, 3))],
                     generated_at=stamp)
        write_capture(tmp_path, "srv", rep, [same, moving])
    writer, _ = build_in_memory(tmp_path)
    stats = api(writer, "api/stats.json")
    assert (stats["toolCount"], stats["scoredDefinitions"]) == (2, 3)  # 4 rows, 3 distinct definitions
    text = Page(writer.text("index.html")).text
    assert "3 distinct definitions have been scored" in text
    # The method is said on the rubric page, in plain words first; the home page links there.
    assert "Hyndman" not in text and "quartiles" not in text
    rubric = Page(writer.text("rubric/index.html")).text
    assert "linear interpolation between the two nearest ranks: DuckDB's quantile_cont" in rubric


# ---- CLEO -------------------------------------------------------------------------------------


def test_a_cleo_total_that_disagrees_is_graded_from_the_dimensions(tmp_path: Path) -> None:
    dims = (20, 20, 20, 20, 9.99)
    graded = sum(Fraction(str(d)) for d in dims)  # 89.99
    row = grade_row("s", dims, totalScore=95)
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [row])
    writer, _ = build_in_memory(tmp_path)
    share = graded / 100
    assert share < Fraction(9, 10) and share >= Fraction(75, 100)  # B under the default 90/75/60/45
    text = Page(writer.text("sessions/s/index.html")).text
    assert "B 89.99 / 100 (89.99%)" in text and "(90.0%)" not in text
    assert "stated in the capture: total 95" in text
    [run] = api(writer, "api/sessions.json")["runs"]
    assert (run["grade"], run["totalScore"], run["gradedTotal"]) == ("B", 95, float(graded))
    assert any(path == "line 1, $.totalScore" for path, _ in warnings(writer))


def test_a_cleo_run_without_audit_entries_but_with_points_is_reported(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [grade_row("s", (0, 10, 0, 0, 0), entryCount=0)])
    writer, _ = build_in_memory(tmp_path)
    [run] = api(writer, "api/sessions.json")["runs"]
    assert run["gradable"] is False and run["grade"] is None
    assert [(p, "10 points" in r) for p, r in warnings(writer)] == [("line 1, $.totalScore", True)]


# ---- FlowMCP and Scoring Protocol -------------------------------------------------------------


def test_a_flowmcp_mean_just_below_a_band_reads_below_it(tmp_path: Path) -> None:
    values = (Fraction("3.4998"), Fraction("3.5"))
    mean = sum(values) / len(values)
    assert mean == Fraction("3.4999") and mean < Fraction(7, 2)  # C, not B
    write(tmp_path / "grading-data/providers/ns/t/tools/t/_gradings/single-test--2026-06-01T00-00-00Z.json",
          entry([answer("Q-a", 3.4998), answer("Q-b", 3.5)], grade="C"))
    write(tmp_path / "scoring-reports/ns_file/ns_file-2026-05-18.json", {
        "schemaId": "ns/file", "schemaIdSlug": "ns_file", "schemaHash": "sha256:ab", "date": "2026-05-18",
        "grade": "C", "score": 3.4999, "scoringProtocol": "v1", "creator": {"skill": "s"},
        "harness": {"name": "claude-code", "model": "m"}, "timestamps": {"reportedAt": "2026-05-18T00:00:00Z"},
        "dimensions": [{"dimension": "whenToUse", "score": 3.4998}, {"dimension": "parameters", "score": 3.5}],
        "validationPassed": True, "validationErrors": [],
    })
    writer, _ = build_in_memory(tmp_path)
    [path] = [p for p in writer.paths if p.startswith("providers/ns/") and "/_gradings/" in p and p.endswith(".html")]
    text = Page(writer.text(path)).text
    assert "Weighted mean 3.4999" in text and "weighted mean 3.4999 bands to C" in text and "3.50" not in text
    [json_path] = [p for p in writer.paths if p.startswith("api/flowmcp/providers/ns/") and "/_gradings/" in p]
    assert api(writer, json_path)["mean"] == float(mean)
    report_text = Page(writer.text("scoring-reports/ns_file/index.html")).text
    assert "dimension scores is 3.4999, which bands to C" in report_text and "3.50" not in report_text
    assert api(writer, "api/flowmcp/scoring-reports/ns_file.json")["score"] == float(mean)


def test_a_vetoed_entry_shows_rejected_and_its_mean_only_as_before_the_veto(tmp_path: Path) -> None:
    assert "maliciousAdapter" in VETO_ENTRY
    writer, _ = build_in_memory(spec_tree(tmp_path))
    [path] = [p for p in writer.paths if p.endswith(".html") and "/maliciousadapter-" in p and "/_gradings/" in p]
    text = Page(writer.text(path)).text
    # One fail answer: before the veto the mean is 1.0 (fail = 1.0), which bands to F.
    assert text.index("REJECTED") < text.index("Before the veto")
    assert "Before the veto: weighted mean and rawGrade 1.00, F" in text
    assert "Weighted mean" not in text.replace("Before the veto: weighted mean", "")
    [json_path] = [p for p in writer.paths if p.startswith("api/") and "/maliciousadapter-" in p and "/_gradings/" in p]
    document = api(writer, json_path)
    assert (document["grade"], document["mean"], document["rawGrade"]) == ("REJECTED", None, None)
    assert document["beforeVeto"] == {"mean": 1.0, "meanText": "1.00", "rawGrade": "F"}
