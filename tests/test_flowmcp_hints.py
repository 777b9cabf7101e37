"""Improvement hints: what to fix first, with the gain on the entry's mean worked out by hand."""

from __future__ import annotations

from pathlib import Path

from flowmcp_fixtures import answer, entry, shared, write

from builder.engine.problems import ProblemLog
from builder.flowmcp.pages.hints import entry_hints, report_hints, rollup_hints
from builder.flowmcp.reader import read
from builder.flowmcp.records import EntryRecord, Rollup
from builder.flowmcp.report_models import GradeReport
from builder.flowmcp.reports import ReportRecord, recompute

TOOL = "grading-data/providers/ns/s/tools/t/_gradings"


def read_one(tmp_path: Path, *documents: dict) -> tuple[EntryRecord, Rollup]:
    for day, document in enumerate(documents, start=1):
        write(tmp_path / TOOL / f"single-test--2026-06-0{day}T00-00-00Z.json", document)
    corpus = read(tmp_path, ProblemLog())
    assert corpus is not None
    [rollup] = corpus.providers
    node = rollup.node("schemas", "s", "tools", "t")
    assert node is not None and node.current is not None
    return node.current, rollup


def test_low_answers_come_biggest_gain_first(tmp_path: Path) -> None:
    # counted weight 1 + 2 + 1 = 4; raising 3.0 (weight 2) to 5 adds 2 × 2 / 4 = 1.0, raising 2.0 adds 1 × 3 / 4 = 0.75
    record, _ = read_one(tmp_path, entry([answer("Q-low", 2.0), answer("Q-mid", 3.0, weight=2.0),
                                          answer("Q-ok", "pass"), answer("Q-old", "stale")], grade="C"))
    hints = entry_hints(record)
    assert [(h.kind, h.gain) for h in hints if h.kind == "answer"] == [("answer", 1.0), ("answer", 0.75)]
    assert [h.text.split(" ")[0] for h in hints if h.kind == "answer"] == ["Q-mid", "Q-low"]
    assert [h.kind for h in hints if h.kind != "answer"] == ["stale"]


def test_tier_trim_and_llm_rule_hints(tmp_path: Path) -> None:
    # pass + pass = 5.0 → A, capped at B; and no non-deterministic answer for a B
    record, _ = read_one(tmp_path, entry([answer("Q-a", "pass"), answer("Q-b", "pass")]))
    kinds = [h.kind for h in entry_hints(record)]
    assert kinds == ["tier", "llm"]


def test_a_partial_grading_says_so_and_never_claims_a_trim(tmp_path: Path) -> None:
    record, _ = read_one(tmp_path, entry([answer("Q-a", 3.0)], grade="C"),
                         entry([answer("Q-a", "pass", llm=True)], grade="C", gradingMode="partial"))
    assert [h.kind for h in entry_hints(record)] == ["partial"]


def test_a_veto_and_a_precondition_are_hints(tmp_path: Path) -> None:
    vetoed = shared("grading-entry-rejected-veto.json")
    vetoed["schemaId"] = "ns.t"
    vetoed["gradings"].append(answer("Q-pre", "n/a", naReason="blocked-by-precondition"))
    record, _ = read_one(tmp_path, vetoed)
    hints = entry_hints(record)
    assert [h.kind for h in hints] == ["veto", "answer", "n/a"]
    assert "schema declares FACEBOOK_API_KEY for example.xyz" in hints[0].text
    assert hints[1].gain == 4.0  # the one counted answer, a fail (1.0) → 5.0


def test_rollup_hints_list_pending_nodes_then_answers(tmp_path: Path) -> None:
    _, rollup = read_one(tmp_path, entry([answer("Q-a", 3.0, llm=True)], grade="C"))
    hints = rollup_hints(rollup, {})
    pending = [h.where for h in hints if h.kind == "pending"]
    assert pending == ["about", "description", "namespaceAggregate", "schemas.s.toolsAggregate"]
    assert [(h.kind, h.where, h.gain) for h in hints if h.kind == "answer"] == [("answer", "schemas.s.tools.t", 2.0)]


def test_report_hints_from_failed_validation_and_low_dimensions() -> None:
    report = GradeReport.model_validate({
        "schemaId": "a/b", "schemaIdSlug": "a_b", "schemaHash": "sha256:0", "date": "2026-06-01", "grade": "F",
        "score": 4.0, "scoringProtocol": "v1", "creator": {}, "harness": {"name": "h", "model": "m"}, "timestamps": {},
        "dimensions": [{"dimension": "whenToUse", "score": 5.0}, {"dimension": "parameters", "score": 3.0}],
        "validationPassed": False, "validationErrors": ["VAL-001: no tools"],
    })
    score, grade = recompute(report)
    hints = report_hints(ReportRecord("f", "f", report, score, grade, ()), {"parameters": "no descriptions"})
    assert [h.kind for h in hints] == ["validation", "validation", "dimension"]
    assert hints[1].text == "Fix: VAL-001: no tools"
    # (5 − 3) / 2 dimensions = 1.0 on the mean; the reasoning comes from scores.json when the report has none
    assert (hints[2].gain, hints[2].text) == (1.0, "parameters scored 3.0: no descriptions")


def test_a_report_graded_b_says_b_is_its_cap_never_nothing_to_fix() -> None:
    report = GradeReport.model_validate({
        "schemaId": "a/b", "schemaIdSlug": "a_b", "schemaHash": "sha256:0", "date": "2026-06-01", "grade": "B",
        "score": 3.83, "scoringProtocol": "v1", "creator": {}, "harness": {"name": "h", "model": "m"}, "timestamps": {},
        "dimensions": [{"dimension": "whenToUse", "score": 4.0}, {"dimension": "parameters", "score": 3.5},
                       {"dimension": "output", "score": 4.0}, {"dimension": "errors", "score": 5.0}],
        "validationPassed": True, "validationErrors": [],
    })
    score, grade = recompute(report)
    assert grade == "B"  # (4 + 3.5 + 4 + 5) / 4 = 4.125
    hints = report_hints(ReportRecord("f", "f", report, score, grade, ()))
    assert hints, "a B has something to fix"
    # Then every dimension below 5.0, biggest gain first:
    # parameters (5 − 3.5) / 4 = 0.375, then output and whenToUse (5 − 4) / 4 = 0.25 each.
    # A report is capped at B (its dimensions are autonomous, issue 35): no A to aim for, B is the cap.
    assert hints[0].kind == "grade" and hints[0].text.startswith("B is the most a Scoring Protocol report can reach")
    assert [(h.text.split(" ")[0], h.gain) for h in hints[1:]] == [("parameters", 0.375), ("output", 0.25),
                                                                    ("whenToUse", 0.25)]
