"""Issue 49, "Numbers": six edge cases of the TDQS figures, each in a hand-made corpus (none occurs
in `data/` or the demo). The expected figures are worked out here by hand or with `fractions`,
never with the builder's own code: TDQS = Σ weight × score (25, 20, 20, 15, 10, 10 %), description
quality = round1(0.6 × mean + 0.4 × min), overall = round1(0.7 × DQ + 0.3 × coherence), half up.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, api, build_in_memory

WEIGHTS = (25, 20, 20, 15, 10, 10)


def round1(value: Fraction) -> Fraction:
    return Fraction(int((value * 10 + Fraction(1, 2)) // 1), 10)


def tdqs_by_hand(dims: tuple[int, ...]) -> Fraction:
    return round1(Fraction(sum(w * d for w, d in zip(WEIGHTS, dims, strict=True)), 100))


def overall_by_hand(tools: list[tuple[int, ...]], coherence: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """(description quality, overall) of the tools' dimension scores and the coherence answers."""
    each = [tdqs_by_hand(dims) for dims in tools]
    quality = round1(Fraction(6, 10) * sum(each) / len(each) + Fraction(4, 10) * min(each))
    return quality, round1(Fraction(7, 10) * quality + Fraction(3, 10) * round1(Fraction(sum(coherence), 4)))


def problems(writer: Any) -> list[tuple[str, str, str]]:
    document = json.loads(writer.text("build-report.json"))
    return [(p["file"], p["jsonPath"], p["reason"]) for p in document["problems"]]


# ---- 3. Captures are ordered by the instant, never by their text -------------------------------

HIGH, LOW = (3, 3, 3, 4), (2, 2, 2, 3)
FOURS = (4, 4, 4, 4, 4, 4)


def test_captures_are_ordered_by_the_instant_their_timestamp_names(tmp_path: Path) -> None:
    before, after = overall_by_hand([FOURS], HIGH)[1], overall_by_hand([FOURS], LOW)[1]
    assert (before, after) == (Fraction(38, 10), Fraction(35, 10))  # 0.7 × 4.0 + 0.3 × 3.3; 0.7 × 4.0 + 0.3 × 2.3
    # (older, newer): 10:00+05:00 is 05:00Z, an hour before 06:00Z, though its text sorts after it;
    # 00:00:00.5Z is half a second after 00:00:00Z, though "." sorts before "Z".
    pairs = {"offset": ("2026-06-01T10:00:00+05:00", "2026-06-01T06:00:00Z"),
             "fraction": ("2026-06-01T00:00:00Z", "2026-06-01T00:00:00.5Z")}
    assert all(newer < older for older, newer in pairs.values())  # the text misorders both
    defn = definition("fetch")
    for server, (older, newer) in pairs.items():
        for stem, stamp, coherence in (("b-older", older, HIGH), ("a-newer", newer, LOW)):
            write_capture(tmp_path, server, report(server, [tool_score(defn, scores(*FOURS))], coherence=coherence,
                                                   generated_at=stamp), [defn], name=stem)
    writer, _ = build_in_memory(tmp_path)
    for server in pairs:
        document = api(writer, f"api/servers/{server}.json")
        assert document["scores"]["overallScore"] == float(after), server
        assert [c["id"] for c in document["captures"]] == ["b-older", "a-newer"], server
        history = Page(writer.text(f"servers/{server}/index.html")).text
        assert "overall A 3.8 → A 3.5" in history and "overall A 3.5 → A 3.8" not in history, server
    changes = Page(writer.text("changes/index.html")).text
    assert changes.count("3.8 → 3.5 (-0.3)") == 2 and "3.5 → 3.8" not in changes
    assert not [p for p in problems(writer) if p[1] == "$.generatedAt"]


def test_two_captures_at_the_same_instant_are_a_problem_named_in_the_report(tmp_path: Path) -> None:
    defn = definition("fetch")
    same = (("c1", "2026-06-01T10:00:00+05:00"), ("c2", "2026-06-01T05:00:00.000Z"))  # both 05:00:00Z
    for stem, stamp in same:
        write_capture(tmp_path, "srv", report("srv", [tool_score(defn, scores(*FOURS))], generated_at=stamp), [defn],
                      name=stem)
    writer, _ = build_in_memory(tmp_path)
    [found] = [p for p in problems(writer) if p[1] == "$.generatedAt"]
    assert found[0] == "servers/srv/c2.score.json"
    assert "same instant" in found[2] and "servers/srv/c1.score.json" in found[2]
    assert "same instant" in Page(writer.text("problems/index.html")).text


# ---- 1. A partial tools/list never raises coverage above what the report says ----------------


def test_a_partial_tools_list_never_raises_coverage_and_is_reported(tmp_path: Path) -> None:
    listed, stated = 79, 99
    defs = [definition(f"tool{i:02d}") for i in range(listed)]
    tools = [tool_score(d, scores(*FOURS)) for d in defs]
    # Before: every tool listed and scored, toolCount 79: 79 of 79, published.
    write_capture(tmp_path, "srv", report("srv", tools, generated_at="2026-05-01T00:00:00.000Z"), defs)
    # Now: the same 79 scored, toolCount 99, and a tools/list beside it that names only the 79.
    write_capture(tmp_path, "srv", report("srv", tools, generated_at="2026-06-01T00:00:00.000Z", tool_count=stated),
                  defs)
    quality, overall = overall_by_hand([FOURS], (4, 5, 5, 4))
    assert (quality, overall) == (Fraction(4), Fraction(42, 10))  # 0.7 × 4.0 + 0.3 × round1(18/4 = 4.5) = 4.15 → 4.2
    assert Fraction(listed, stated) < Fraction(4, 5) <= Fraction(listed, listed)  # 79.8%: below the bar, by one tool
    to_publish = -(-(4 * stated - 5 * listed) // 5)  # ceil((396 − 395) / 5) = 1
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("servers/srv/index.html")).text
    assert f"{listed} of {stated} tools scored" in text and f"{listed} of {listed} tools scored" not in text
    assert "not published: below 80% coverage" in text and f"Score {to_publish} more tool" in text
    assert f"{stated - listed} more the capture's toolCount of {stated} counts" in text
    document = api(writer, "api/servers/srv.json")
    assert document["scores"]["overallScore"] is None and document["scores"]["coverageOk"] is False
    assert {k: document["coverage"][k] for k in ("scored", "stale", "unscored", "toolCount")} == {
        "scored": listed, "stale": 0, "unscored": 0, "toolCount": stated}  # 20 the list does not name
    # History: from A 4.2 to not published, never "no change".
    assert "overall tier A → — (A 4.2 → not published)" in text
    [found] = [p for p in problems(writer) if p[1] == "$.tools"]
    assert found[0] == "servers/srv/2026-06-01T00-00-00Z.tools.json"
    assert f"names {listed} tools, fewer than the {stated}" in found[2]
    assert "partial tools/list" in Page(writer.text("problems/index.html")).text
    assert "below 80% coverage" in Page(writer.text("servers/index.html")).text


# ---- 2. Every list, comparison, API and download counts the tools as the server page does ------


def servers_download(writer: Any) -> dict[str, dict[str, str]]:
    """downloads/servers.csv.gz, by server id."""
    import csv
    import gzip
    import io

    rows = csv.DictReader(io.StringIO(gzip.decompress(writer.files["downloads/servers.csv.gz"]).decode("utf-8")))
    return {row["server_id"]: row for row in rows}


def test_the_list_compare_pages_api_and_downloads_count_tools_as_the_server_page(tmp_path: Path) -> None:
    old = [definition(f"tool{i}", f"Does thing {i}.") for i in range(4)]
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(*FOURS)) for d in old]), old)
    newest = [*old[:3], definition("tool3", "Does thing 3, differently."), definition("added0"), definition("added1")]
    (tmp_path / "servers/srv/2026-07-01T00-00-00Z.tools.json").write_text(json.dumps({"tools": newest}))
    other = definition("fetch")
    write_capture(tmp_path, "other", report("other", [tool_score(other, scores(*FOURS))]), [other])
    # By hand: tool0-2 scored for their current definition, tool3 changed since, 2 added: 3 of 6.
    scored, listed = 3, 6
    writer, _ = build_in_memory(tmp_path)
    page = Page(writer.text("servers/srv/index.html")).text
    assert f"{scored} of {listed} tools scored" in page
    text = f"{scored} of {listed}"
    assert text in Page(writer.text("servers/index.html")).text and "4 of 4" not in writer.text("servers/index.html")
    compare = writer.text("compare/other/index.html")
    assert f"{text} (below 80%: not published)" in Page(compare).text and "4 of 4" not in compare
    scores_api = api(writer, "api/servers/srv.json")["scores"]
    assert (scores_api["scoredToolCount"], scores_api["toolCount"]) == (scored, listed)  # what compare.js prints
    row = servers_download(writer)["srv"]
    assert (row["scored_tool_count"], row["tool_count"]) == (str(scored), str(listed))


# ---- 5. A tool the newest tools/list no longer has sets no minimum -----------------------------


def test_a_tool_no_longer_listed_sets_no_minimum_and_no_advice_names_it(tmp_path: Path) -> None:
    kept = [definition("lookup", "Looks a thing up."), definition("search", "Searches things.")]
    gone = definition("retired_tool", "Did a thing once.")
    low = (2, 2, 2, 2, 2, 2)
    tools = [tool_score(d, scores(*FOURS)) for d in kept] + [tool_score(gone, scores(*low))]
    write_capture(tmp_path, "srv", report("srv", tools), [*kept, gone])
    (tmp_path / "servers/srv/2026-07-01T00-00-00Z.tools.json").write_text(json.dumps({"tools": kept}))
    # By hand: over the current tool set (lookup, search: TDQS 4.0 each) DQ = round1(0.6 × 4.0 + 0.4 × 4.0) = 4.0,
    # overall = round1(0.7 × 4.0 + 0.3 × round1(18/4)) = round1(4.15) = 4.2; with retired_tool (TDQS 2.0) it was
    # round1(0.6 × 10/3 + 0.4 × 2.0) = 2.8, overall round1(0.7 × 2.8 + 0.3 × 4.5) = round1(3.31) = 3.3.
    quality, overall = overall_by_hand([FOURS, FOURS], (4, 5, 5, 4))
    assert (quality, overall) == (Fraction(4), Fraction(42, 10))
    assert overall_by_hand([FOURS, FOURS, low], (4, 5, 5, 4)) == (Fraction(28, 10), Fraction(33, 10))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/srv/index.html")
    text = Page(html).text
    assert "2 of 2 tools scored" in text and "1 scored tool is no longer listed" in text
    assert "Description quality = round1(0.6 × mean 4.0 + 0.4 × min 4.0) = 4.0" in text
    assert "min 2.0" not in text
    document = api(writer, "api/servers/srv.json")["scores"]
    assert (document["descriptionQualityScore"], document["overallScore"]) == (float(quality), float(overall))
    description_and_advice = html[html.index("Tool definition quality"): html.index("<h2>Tools, worst first</h2>")]
    assert "retired_tool" not in Page(description_and_advice).text
    assert "retired_tool" in text  # still listed among the tools, as no longer listed


# ---- 4. Stale means the definition known now is newer than the one scored -----------------------


def test_tools_scored_after_the_newest_tools_list_are_not_stale(tmp_path: Path) -> None:
    first = [definition(f"tool{i}", f"Does thing {i}.") for i in range(3)]
    second = [definition(f"tool{i}", f"Does thing {i}, now with its limits said.") for i in range(3)]
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(*FOURS)) for d in first],
                                          generated_at="2026-05-01T00:00:00.000Z"), first)
    # Rescored a month later for the new definitions, filed without its tools/list: the newest list
    # known (May's) is older than this score, so it says nothing of what was scored.
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(*FOURS)) for d in second],
                                          generated_at="2026-06-01T00:00:00.000Z"))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/srv/index.html")
    text = Page(html).text
    assert "3 of 3 tools scored" in text  # by hand: 3 scored, toolCount 3, no tools/list as new as the score
    assert html.count("<i>stale</i>") == 1  # the legend's, and no tool's
    assert [t["stale"] for t in api(writer, "api/servers/srv.json")["tools"]] == [False, False, False]
    for i in range(3):
        assert "Stale: scored" not in Page(writer.text(f"servers/srv/tools/tool{i}/index.html")).text


def test_a_tools_list_captured_after_the_score_still_makes_a_changed_tool_stale(tmp_path: Path) -> None:
    defs = [definition(f"tool{i}", f"Does thing {i}.") for i in range(3)]
    write_capture(tmp_path, "srv", report("srv", [tool_score(d, scores(*FOURS)) for d in defs]), defs)
    changed = [*defs[:2], definition("tool2", "Does thing 2, differently.")]
    (tmp_path / "servers/srv/2026-07-01T00-00-00Z.tools.json").write_text(json.dumps({"tools": changed}))
    writer, _ = build_in_memory(tmp_path)
    # By hand: tool0, tool1 scored for their current definition, tool2 changed since: 2 of 3, 1 stale.
    assert "2 of 3 tools scored" in Page(writer.text("servers/srv/index.html")).text
    assert [t["stale"] for t in api(writer, "api/servers/srv.json")["tools"]] == [False, False, True]


# ---- 6. A coherence table that disagrees with the score above it is reported --------------------


def test_coherence_justifications_that_disagree_with_the_coherence_score_are_reported(tmp_path: Path) -> None:
    defn = definition("fetch")
    document = report("srv", [tool_score(defn, scores(*FOURS))], coherence=(2, 5, 5, 4)).model_dump(mode="json")
    document["serverScore"]["coherenceJustifications"]["disambiguation"]["score"] = 5  # the field stays 2
    write_capture(tmp_path, "srv", document, [defn])
    # By hand: coherence = round1((2 + 5 + 5 + 4) / 4) = 4.0 (the justifications' 5 would give round1(19/4) = 4.8);
    # overall = round1(0.7 × 4.0 + 0.3 × 4.0) = 4.0.
    coherence = round1(Fraction(2 + 5 + 5 + 4, 4))
    assert coherence == 4 and round1(Fraction(5 + 5 + 5 + 4, 4)) == Fraction(48, 10)
    assert overall_by_hand([FOURS], (2, 5, 5, 4)) == (Fraction(4), Fraction(4))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("servers/srv/index.html")
    table = html[html.index("<h2>Coherence"): html.index("<h3>Shadowing risks</h3>")]
    assert "A 4.0" in Page(table).text
    assert "Disambiguation 2 (its justification says 5: a data problem)" in Page(table).text
    assert api(writer, "api/servers/srv.json")["coherence"]["disambiguation"] == 2
    [found] = [p for p in problems(writer) if p[1] == "$.serverScore.coherenceJustifications.disambiguation.score"]
    assert found[0] == "servers/srv/2026-06-01T00-00-00Z.score.json"
    assert "justification score 5 disagrees with 2 in $.serverScore.disambiguation" in found[2]
    assert "coherenceJustifications.disambiguation.score" in Page(writer.text("problems/index.html")).text
