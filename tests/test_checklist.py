"""The improvement checklist: order, gains and anchors follow the rubric, computed by hand here."""

from __future__ import annotations

from corpus import definition, report, scores, tool_score

from builder.checklist import dimension_steps, lint_items, server_checklist
from builder.sources.tdqs.reader import ToolRecord
from builder.sources.tdqs.recompute import check_server, check_tool


def test_steps_are_ordered_by_weight_and_give_the_tdqs_after_one_point() -> None:
    # 4/2/2/3/4/2 → 2.85 → 2.9. One more point of usage (20%): 3.05 → 3.1; of purpose (25%): 3.10 → 3.1.
    steps = dimension_steps(scores(4, 2, 2, 3, 4, 2))
    assert [s.key for s in steps] == [
        "purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics",
        "conciseness_structure", "contextual_completeness",
    ]
    by_key = {s.key: s for s in steps}
    assert by_key["purpose_clarity"].tdqs_after == 3.1 and by_key["purpose_clarity"].points_per_step == 0.25
    assert by_key["usage_guidelines"].tdqs_after == 3.1 and by_key["usage_guidelines"].tier_after == "B"
    assert by_key["contextual_completeness"].tdqs_after == 3.0  # 2.95 rounds half up
    assert by_key["usage_guidelines"].anchor_now == "no guidance"
    assert by_key["usage_guidelines"].anchor_next == "implied usage"
    assert by_key["usage_guidelines"].full_gain == 0.6
    # Parameter Semantics' anchors are conditional baselines, never "reached".
    assert by_key["parameter_semantics"].anchor_now is None and by_key["parameter_semantics"].anchor_next is None
    assert all(s.score < 5 for s in steps)
    assert dimension_steps(scores(5, 5, 5, 5, 5, 5)) == []


def test_deterministic_items_name_undocumented_parameters() -> None:
    defn = definition("make_thing", "Makes a thing.", inputSchema={
        "type": "object",
        "properties": {"a": {"type": "string", "description": "A"}, "b": {"type": "string"}, "c": {"type": "number"}},
    })
    score = tool_score(defn, scores(3, 3, 3, 3, 3, 3))
    from tdqs import ToolDefinition, compute_input_hash

    from builder.sources.tdqs.reader import Definition

    tool = ToolDefinition.model_validate(defn)
    record = ToolRecord("make_thing", "make_thing", 0, check_tool(score, 0), Definition(tool, compute_input_hash(tool)), None)
    items = {i.rule: i for i in lint_items(record)}
    assert "2 of 3 parameters have no schema description (33% coverage): b, c" in items["undocumented-parameters"].message
    assert items["undocumented-parameters"].severity == "warning"
    assert set(items) == {"missing-annotations", "undocumented-parameters", "no-output-schema"}


def test_server_checklist_names_the_min_term_and_what_fixing_it_does() -> None:
    # TDQS 4.3, 4.3 and 1.1: mean 3.2333 → 3.2, min 1.1 → DQ round1(0.6×97/30 + 0.4×1.1) = round1(2.38) = 2.4.
    tools = [
        tool_score(definition("good_a"), scores(5, 5, 3, 3, 5, 5)),
        tool_score(definition("good_b"), scores(5, 5, 3, 3, 5, 5)),
        tool_score(definition("bad"), scores(1, 1, 1, 1, 2, 1)),
    ]
    rep = report("s", tools, coherence=(4, 4, 4, 4))
    checked = [check_tool(t, i) for i, t in enumerate(rep.tools)]
    records = tuple(ToolRecord(t.name, t.name, i, c, None, None) for i, (t, c) in enumerate(zip(rep.tools, checked, strict=True)))
    from builder.sources.tdqs.reader import Capture

    capture = Capture("c", "f", None, rep, records, check_server(rep, checked), "scoringSystem/1.2.0", "gradingSystem/1.2.0")
    result = server_checklist(capture)
    assert [t.name for t in result.pulling_down] == ["bad"]
    what_if = result.what_if
    assert what_if is not None and what_if.tool == "bad"
    assert what_if.before.description_quality_score == 2.4
    # Raised to 3.5: tenths 43 + 43 + 35 = 121, min 35: (6×121 + 4×3×35) / 300 = 1146 / 300 = 3.82 → 3.8.
    assert what_if.after.description_quality_score == 3.8
    # Overall: round1(0.7×3.8 + 0.3×4.0) = round1(3.86) = 3.9, tier A.
    assert (what_if.after.overall_score, what_if.after.overall_tier) == (3.9, "A")
