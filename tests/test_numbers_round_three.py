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
from site_helpers import Page, build_in_memory

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
