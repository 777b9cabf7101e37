"""The TDQS specification's own test vectors, pushed through the whole pipeline: capture file →
reader → DuckDB → page and API. Expected values are the specification's, checked here once more
with exact fractions, independently of tdqs's arithmetic."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

from corpus import KEYS, definition, report, scores, tool_score, write_capture
from site_helpers import Page, api, build_in_memory

WEIGHTS = {"purpose_clarity": 25, "usage_guidelines": 20, "behavioral_transparency": 20,
           "parameter_semantics": 15, "conciseness_structure": 10, "contextual_completeness": 10}


def half_up_tenths(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def by_hand(dims: dict[str, int]) -> Fraction:
    return half_up_tenths(sum(Fraction(WEIGHTS[k] * v, 100) for k, v in dims.items()))


def vector_for(target: str) -> dict[str, int]:
    """Some dimension vector whose hand-computed TDQS is `target`."""
    want = Fraction(target)
    for values in itertools.product(range(1, 6), repeat=6):
        dims = dict(zip(KEYS, values, strict=True))
        if by_hand(dims) == want:
            return dims
    raise AssertionError(target)


def test_worked_example_and_calibration_tools(tmp_path: Path) -> None:
    vectors = {
        "worked": (scores(4, 2, 2, 3, 4, 2), "2.9", "C"),
        "get_calls": (scores(5, 5, 3, 3, 5, 5), "4.3", "A"),
        "update_drive": (scores(4, 2, 2, 3, 4, 2), "2.9", "C"),
        "process": (scores(1, 1, 1, 1, 2, 1), "1.1", "D"),
    }
    for name, (dims, expected, _) in vectors.items():
        assert by_hand(dims) == Fraction(expected), name
    tools = [tool_score(definition(name), dims) for name, (dims, _, _) in vectors.items()]
    write_capture(tmp_path, "vectors", report("vectors", tools))
    writer, _ = build_in_memory(tmp_path)
    published = {row["name"]: row for row in api(writer, "api/servers/vectors.json")["tools"]}
    for name, (_, expected, tier) in vectors.items():
        assert published[name]["tdqs"] == float(expected)
        assert published[name]["tier"] == tier
        page = Page(writer.text(f"servers/vectors/tools/{name}/index.html"))
        assert f"TDQS {tier} {expected}" in page.text


def test_server_example(tmp_path: Path) -> None:
    low, high = vector_for("2.1"), vector_for("4.7")
    mean = (by_hand(low) + by_hand(high)) / 2
    assert mean == Fraction("3.4")
    description_quality = half_up_tenths(Fraction(6, 10) * Fraction("3.4") + Fraction(4, 10) * Fraction("2.1"))
    coherence = half_up_tenths(Fraction(4 + 5 + 5 + 4, 4))
    overall = half_up_tenths(Fraction(7, 10) * description_quality + Fraction(3, 10) * coherence)
    assert (description_quality, coherence, overall) == (Fraction("2.9"), Fraction("4.5"), Fraction("3.4"))

    tools = [tool_score(definition("low_tool"), low), tool_score(definition("high_tool"), high)]
    write_capture(tmp_path, "example", report("example", tools, coherence=(4, 5, 5, 4)))
    writer, _ = build_in_memory(tmp_path)
    scores_ = api(writer, "api/servers/example.json")["scores"]
    assert scores_["meanTdqs"] == 3.4 and scores_["minTdqs"] == 2.1
    assert (scores_["descriptionQualityScore"], scores_["descriptionQualityTier"]) == (2.9, "C")
    assert (scores_["coherenceScore"], scores_["coherenceTier"]) == (4.5, "A")
    assert (scores_["overallScore"], scores_["overallTier"]) == (3.4, "B")
    text = Page(writer.text("servers/example/index.html")).text
    assert "Overall B 3.4" in text and "Tool definition quality (70%) C 2.9" in text and "Coherence (30%) A 4.5" in text
    assert "2 of 2 tools scored" in text
