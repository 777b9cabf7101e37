"""The improvement advice: the biggest real gain first, and every projection worked out here by hand,
with `fractions` and the specification's weights and half-up rounding, never with the builder's code."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory
from tdqs import ToolDefinition, compute_input_hash

from builder.tdqs.checklist import tool_actions
from builder.tdqs.reader import Capture, Definition, ToolRecord
from builder.tdqs.recompute import check_server, check_tool
from builder.tdqs.server_advice import server_advice
from builder.tdqs.tool_reach import tool_reach

WEIGHTS = (25, 20, 20, 15, 10, 10)
"""Purpose, usage, transparency, parameters, conciseness, completeness, as the specification weighs them."""
TIER_BOUNDS = ((Fraction(35, 10), "A"), (Fraction(3), "B"), (Fraction(2), "C"), (Fraction(1), "D"))


def half_up_tenths(value: Fraction) -> Fraction:
    """`value` rounded half up to one decimal."""
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def tier(value: Fraction) -> str:
    return next((letter for bound, letter in TIER_BOUNDS if value >= bound), "F")


def tdqs_by_hand(*dims: int) -> Fraction:
    return half_up_tenths(Fraction(sum(w * d for w, d in zip(WEIGHTS, dims, strict=True)), 100))


def server_by_hand(tool_tdqs: list[Fraction], coherence: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """(description quality, overall): round1(0.6 × mean + 0.4 × min), round1(0.7 × DQ + 0.3 × coherence)."""
    quality = half_up_tenths(Fraction(6, 10) * sum(tool_tdqs) / len(tool_tdqs) + Fraction(4, 10) * min(tool_tdqs))
    cohesion = half_up_tenths(Fraction(sum(coherence), len(coherence)))
    return quality, half_up_tenths(Fraction(7, 10) * quality + Fraction(3, 10) * cohesion)


def record(defn: dict[str, Any], dims: dict[str, int], flags: tuple[str, ...] = ()) -> ToolRecord:
    score = tool_score(defn, dims, flags=flags)
    tool = ToolDefinition.model_validate(defn)
    return ToolRecord(tool.name, tool.name, 0, check_tool(score, 0), Definition(tool, compute_input_hash(tool)), None)


def capture_of(tools: list[tuple[dict[str, Any], dict[str, int], tuple[str, ...]]], coherence: tuple[int, ...],
               tool_count: int | None = None) -> Capture:
    scored = [tool_score(defn, dims, flags=flags) for defn, dims, flags in tools]
    rep = report("s", scored, coherence=coherence, tool_count=tool_count)
    checked = [check_tool(t, i) for i, t in enumerate(rep.tools)]
    records = tuple(
        ToolRecord(t.name, t.name, i, c, Definition(ToolDefinition.model_validate(d), ""), None)
        for i, (t, c, (d, _, _)) in enumerate(zip(rep.tools, checked, tools, strict=True))
    )
    return Capture("c", "f", None, rep, records, check_server(rep, checked), "scoringSystem/1.2.0", "gradingSystem/1.2.0")


def test_a_tool_without_a_description_is_told_to_write_one_first_with_its_gain() -> None:
    tool = record(definition("make_thing", None, inputSchema={
        "type": "object", "properties": {"a": {"type": "string"}}}), scores(1, 1, 1, 1, 1, 1), ("No Description",))
    actions = tool_actions(tool)
    first = actions[0]
    assert first.key == "write-description" and first.text.startswith("Write a description")
    # Every dimension from 1 to 3: 2 × (25 + 20 + 20 + 15 + 10 + 10) / 100 = 2.0; TDQS 1.0 → 3.0, tier D → B.
    assert Fraction(first.gain).limit_denominator(100) == 2
    assert (first.tdqs_before, first.tier_before) == (float(tdqs_by_hand(1, 1, 1, 1, 1, 1)), "D")
    assert (first.tdqs_after, first.tier_after) == (float(tdqs_by_hand(3, 3, 3, 3, 3, 3)), "B")
    assert first.assumption and "3 on every dimension" in first.assumption
    # No "1 → 2" dimension steps: the hard gate holds every dimension at 1 until a description exists.
    priced = [a for a in actions if a.gain is not None]
    assert [a.key for a in priced] == ["write-description"]
    assert not any("tautology" in (a.anchor or "") + a.text for a in actions)
    # What else the tool lacks is still said, unpriced: the hard gate holds it at 1 until then.
    assert [a.key for a in actions if a.gain is None] == ["undocumented-parameters", "missing-annotations",
                                                          "no-output-schema"]


def test_actions_come_biggest_gain_first_with_the_tdqs_they_lead_to() -> None:
    dims = (4, 1, 2, 3, 4, 1)
    tool = record(definition("fetch_page", "Fetches a page."), scores(*dims))
    actions = [a for a in tool_actions(tool) if a.gain is not None]
    # Below 3 a step goes to 3, else one point: usage 1→3 = 0.40, purpose 4→5 = 0.25, transparency 2→3 = 0.20,
    # completeness 1→3 = 0.20, parameters 3→4 = 0.15, conciseness 4→5 = 0.10.
    assert [(a.key, round(a.gain, 2)) for a in actions] == [
        ("usage_guidelines", 0.40), ("purpose_clarity", 0.25), ("behavioral_transparency", 0.20),
        ("contextual_completeness", 0.20), ("parameter_semantics", 0.15), ("conciseness_structure", 0.10),
    ]
    usage = actions[0]
    # 2.55 → 2.6 (C) now; usage at 3: 2.95 → 3.0, rounded half up, tier B.
    assert usage.tdqs_before == float(tdqs_by_hand(*dims)) == 2.6
    assert (usage.tdqs_after, usage.tier_after) == (float(tdqs_by_hand(4, 3, 2, 3, 4, 1)), "B")
    assert usage.anchor is None  # a step to 3 is a minimum, not a goal worth quoting
    assert actions[1].anchor == "specific verb+resource, distinguishes the tool from siblings"


def test_undocumented_parameters_are_priced_at_the_coverage_baseline() -> None:
    defn = definition("make_thing", "Makes a thing.", inputSchema={
        "type": "object",
        "properties": {"a": {"type": "string", "description": "A"}, "b": {"type": "string"}, "c": {"type": "number"}},
    })
    actions = {a.key: a for a in tool_actions(record(defn, scores(3, 3, 3, 1, 3, 3)))}
    parameters = actions["undocumented-parameters"]
    assert "2 of 3 have no description, 33% coverage: b, c" in parameters.text
    assert round(parameters.gain, 2) == 0.30  # Parameter Semantics 1 → 3: 15 × 2 / 100
    assert "parameter_semantics" not in actions  # that step is the parameter action
    assert {"missing-annotations", "no-output-schema"} <= set(actions)
    assert actions["missing-annotations"].gain is None and actions["missing-annotations"].severity == "warning"


def _pattern_tools() -> list[tuple[dict[str, Any], dict[str, int], tuple[str, ...]]]:
    """Seven tools: four good ones (two with an output schema), two without a description, one weak."""
    good = scores(5, 5, 3, 3, 5, 5)
    with_output = {"outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    return [
        (definition("good_a", "Good.", **with_output), good, ()),
        (definition("good_b", "Good.", **with_output), good, ()),
        (definition("good_c", "Good."), good, ()),
        (definition("good_d", "Good."), good, ()),
        (definition("bad_a", None), scores(1, 1, 1, 1, 1, 1), ("No Description",)),
        (definition("bad_b", None), scores(1, 1, 1, 1, 1, 1), ("No Description",)),
        (definition("weak", "Weak."), scores(2, 1, 1, 1, 2, 1), ()),
    ]


def fewest_by_brute_force(values: list[Fraction], coherence: tuple[int, ...], level: Fraction,
                          letter: str) -> int | None:
    """The fewest tools raised to `level` that put the overall score in tier `letter` or better,
    trying every set of tools."""
    for size in range(1, len(values) + 1):
        for chosen in combinations(range(len(values)), size):
            raised = [max(level, v) if i in chosen else v for i, v in enumerate(values)]
            if tier(server_by_hand(raised, coherence)[1]) <= letter:  # "A" < "B" < …: as good or better
                return size
    return None


def test_the_fewest_tools_for_each_reachable_tier_match_a_search_of_every_set() -> None:
    tools = _pattern_tools()
    coherence = (4, 4, 4, 4)
    capture = capture_of(tools, coherence)
    values = [tdqs_by_hand(*d.values()) for _, d, _ in tools]
    now = tier(server_by_hand(values, coherence)[1])
    best = server_by_hand([Fraction(5)] * len(values), coherence)[1]
    reach = tool_reach(capture)
    assert reach is not None and reach.best.overall_score == float(best)
    tiers = [letter for letter in "ABCD" if tier(best) <= letter < now]
    assert [m.tier for m in reach.milestones] == tiers[::-1] and tiers  # the lowest tier first
    for milestone in reach.milestones:
        at_a = fewest_by_brute_force(values, coherence, Fraction(35, 10), milestone.tier)
        at_best = fewest_by_brute_force(values, coherence, Fraction(5), milestone.tier)
        assert at_best is not None
        expected = (Fraction(35, 10), at_a) if at_a is not None else (Fraction(5), at_best)
        assert (Fraction(milestone.level).limit_denominator(10), len(milestone.tools)) == expected
        assert milestone.fewer_at_best == (at_best if at_best < expected[1] else None)
        raised = [max(expected[0], v) if t.name in {m.name for m in milestone.tools} else v
                  for (defn, _, _), v, t in zip(tools, values, capture.tools, strict=True)]
        quality, overall = server_by_hand(raised, coherence)
        assert (milestone.after.description_quality_score, milestone.after.overall_score) == (
            float(quality), float(overall))
    # One tool is not enough for the next tier: the min stays at 1.0 while bad_b has no description.
    assert [t.name for t in reach.milestones[0].tools] == ["bad_a", "bad_b"]


def test_below_80_percent_coverage_nothing_unpublished_is_projected() -> None:
    capture = capture_of(_pattern_tools()[:3], (4, 4, 4, 4), tool_count=5)
    advice = server_advice(capture)
    assert advice.reach is None and not advice.steps
    assert all(p.after is None for p in advice.unprojected) and not advice.no_effect
    assert advice.to_publish == 1  # 3 of 5 = 60%; 4 of 5 = 80%
    assert advice.unscored_count == 2


@pytest.fixture(scope="module")
def pattern_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    data = tmp_path_factory.mktemp("patterns")
    tools = _pattern_tools()
    write_capture(data, "srv", report("srv", [tool_score(d, s, flags=f) for d, s, f in tools], coherence=(4, 4, 4, 4)),
                  [d for d, _, _ in tools])
    writer, _ = build_in_memory(data)
    return Page(writer.text("servers/srv/index.html")).text, Page(writer.text("servers/srv/tools/bad_a/index.html")).text


def test_the_server_page_says_each_shared_defect_once_with_its_count_and_effect(pattern_site: tuple[str, str]) -> None:
    text, _ = pattern_site
    tools = _pattern_tools()
    coherence = (4, 4, 4, 4)
    values = [tdqs_by_hand(*d.values()) for _, d, _ in tools]
    quality, overall = server_by_hand(values, coherence)
    # No description: writing one is assumed to reach 3 on every dimension, so bad_a and bad_b go 1.0 → 3.0.
    after = [*values[:4], tdqs_by_hand(3, 3, 3, 3, 3, 3), tdqs_by_hand(3, 3, 3, 3, 3, 3), values[6]]
    quality_after, overall_after = server_by_hand(after, coherence)
    assert text.count("2 of 7 tools have no description") == 1
    assert (f"Fixing them (writing one) would move the overall score from {float(overall):.1f} to "
            f"{float(overall_after):.1f} (tier {tier(overall_after)}) and description quality from "
            f"{float(quality):.1f} to {float(quality_after):.1f}, assuming every dimension rises to 3") in text
    # Output schema: only good_a and good_b have one. Contextual Completeness to 3 on the described ones without
    # it (good_c and good_d are at 5 already; weak goes 1 → 3); the two without a description stay at 1.0, so
    # the min term does not move and neither does description quality.
    after = [*values[:6], tdqs_by_hand(2, 1, 1, 1, 2, 3)]
    assert server_by_hand(after, coherence) == (quality, overall)
    assert text.count("5 of 7 tools have no output schema") == 1
    # It moves nothing, so it is no step: it is said apart, under "No effect".
    no_effect = text.split("No effect on the overall score on its own:", 1)[1]
    assert (f"5 of 7 tools have no output schema: fixing them (adding one) would leave the overall score at "
            f"{float(overall):.1f}, assuming Contextual Completeness rises to 3") in no_effect
    assert "the 2 among them without a description stay at 1.0" in text
    assert "5 of 7 tools declare no MCP annotations" in text
    assert "Fix the 2 worst tools → overall" in text


def test_the_tool_page_puts_the_description_first(pattern_site: tuple[str, str]) -> None:
    _, text = pattern_site
    checklist = text.split("Improvement checklist", 1)[1]
    assert checklist.lstrip().startswith("Write a description")
    assert "+2.00: TDQS 1.0 → 3.0 (tier D → B)" in checklist
    assert "tautology" not in checklist.split("Dimensions", 1)[0]


def test_a_server_below_coverage_names_its_unscored_tools(tmp_path: Path) -> None:
    tools = [definition(f"t{i}", "Does a thing.") for i in range(5)]
    scored = [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in tools[:3]]
    write_capture(tmp_path, "partial", report("partial", scored, tool_count=5), tools)
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("servers/partial/index.html")).text
    assert "Score 1 more tool of the 2 without a score (t3, t4)" in text
    assert "Fix the" not in text and "would move" not in text
