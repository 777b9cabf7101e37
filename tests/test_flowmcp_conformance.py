"""A grading entry that breaks the grading model is named with its JSON path and, where the spec
gives one, its error code (NA-001, GRD-005, VET-003)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flowmcp_fixtures import answer, entry, shared

from builder.flowmcp.conformance import Violation, check_entry


def violations(document: Any) -> list[Violation]:
    found, problems = check_entry(document)
    assert found is None, "expected the entry to be rejected"
    return problems


def test_the_specs_own_examples_are_valid() -> None:
    for name in ("grading-entry-autonomous.json", "grading-entry-rejected-veto.json"):
        found, problems = check_entry(shared(name))
        assert problems == []
        assert found is not None


def test_free_text_na_reason_is_na_001() -> None:
    document = entry([answer("Q-a", "pass"), answer("Q-b", "n/a", naReason="the API was down")])
    [problem] = violations(document)
    assert problem.json_path == "$.gradings[1].naReason"
    assert problem.code == "NA-001"
    assert "the API was down" in problem.reason


def test_na_without_a_reason_is_na_001() -> None:
    [problem] = violations(entry([answer("Q-a", "n/a")]))
    assert (problem.json_path, problem.code) == ("$.gradings[0].naReason", "NA-001")


def test_non_deterministic_answer_without_personas_is_grd_005() -> None:
    bare = answer("Q-a", 4.0, llm=True)
    del bare["selectionContext"]
    [problem] = violations(entry([bare]))
    assert (problem.json_path, problem.code) == ("$.gradings[0].selectionContext.personaIds", "GRD-005")
    empty = answer("Q-a", 4.0, llm=True, selectionContext={"groupId": "g", "personaIds": []})
    [problem] = violations(entry([empty]))
    assert (problem.json_path, problem.code) == ("$.gradings[0].selectionContext.personaIds", "GRD-005")


def test_veto_without_evidence_is_vet_003() -> None:
    document = shared("grading-entry-rejected-veto.json")
    del document["categoricalVeto"]["evidence"]
    [problem] = violations(document)
    assert (problem.json_path, problem.code) == ("$.categoricalVeto.evidence", "VET-003")


def test_ai_security_veto_without_reasoning_is_vet_003() -> None:
    document = shared("grading-entry-rejected-veto.json")
    document["categoricalVeto"]["triggeredBy"] = "ai-security-veto"
    [problem] = violations(document)
    assert (problem.json_path, problem.code) == ("$.categoricalVeto.reasoning", "VET-003")
    document["categoricalVeto"]["reasoning"] = "exfiltrates the API key"
    assert check_entry(document)[1] == []


def test_a_missing_field_is_named_without_a_code() -> None:
    document = shared("grading-entry-autonomous.json")
    del document["scoringSystem"]
    [problem] = violations(document)
    assert (problem.json_path, problem.reason, problem.code) == ("$.scoringSystem", "Field required", None)


def test_every_problem_is_listed_at_once() -> None:
    # a shape error (pydantic) and a conditional rule (if/then) in the same entry: both are reported
    llm_without_context = answer("Q-b", 4.0, llm=True)
    del llm_without_context["selectionContext"]
    document = entry([answer("Q-a", "3.0"), llm_without_context])
    paths = {p.json_path for p in violations(document)}
    assert paths == {"$.gradings[0].score", "$.gradings[1].selectionContext.personaIds"}


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["gradings"][0].update(score="3.0"), "$.gradings[0].score"),  # two domains mixed (§5.2)
        (lambda d: d["gradings"][0].update(score=5.5), "$.gradings[0].score"),
        (lambda d: d["gradings"][0].update(score=True), "$.gradings[0].score"),
        (lambda d: d["gradings"][0].update(weight=True), "$.gradings[0].weight"),
        (lambda d: d["gradings"][0].update(weight=-1), "$.gradings[0].weight"),
        (lambda d: d["gradings"][0].update(questionId="api"), "$.gradings[0].questionId"),
        (lambda d: d["gradings"][0].update(timestamp="2026-05-29"), "$.gradings[0].timestamp"),
        (lambda d: d["gradings"][0].update(evidence=""), "$.gradings[0].evidence"),
        (lambda d: d["gradings"][0].update(extra=1), "$.gradings[0].extra"),
        (lambda d: d["gradings"][2].pop("llmModel"), "$.gradings[2].llmModel"),
        (lambda d: d.update(persona=None), "$.persona"),  # optional keys are left out, never null
        (lambda d: d.update(harness="cursor"), "$.harness"),
        (lambda d: d.update(area="tool-test"), "$.area"),
        (lambda d: d.update(gradings=[]), "$.gradings"),
        (lambda d: d.update(gradingTier="group-bound"), "$.selectionId"),
        (lambda d: d.update(area="about-namespace") or d.pop("persona"), "$.persona"),
        (lambda d: d.update(area="namespace-skills"), "$.skillId"),
        (lambda d: d.update(schemaHash="A1B2C3D4"), "$.schemaHash"),
        (lambda d: d.update(scoringSystem="1.0.0"), "$.scoringSystem"),
    ],
)
def test_schema_rules(change: Any, path: str) -> None:
    document = copy.deepcopy(shared("grading-entry-autonomous.json"))
    change(document)
    assert path in {p.json_path for p in violations(document)}


def test_derived_values_are_not_rejections() -> None:
    # maxAttainableGrade and aggregateGrade follow from other fields: a disagreement is a warning
    # (reported by the reader with both values), not a broken entry
    document = shared("grading-entry-autonomous.json")
    document["maxAttainableGrade"] = "A"
    document["aggregateGrade"] = "A"
    assert check_entry(document)[1] == []


def test_flowmcp_gradings_mock_answer_envelope_is_not_a_grading_entry() -> None:
    # a real third-party file (flowmcp-grading's mock sub-agent answer) that is not a grading entry
    document = shared("flowmcp-grading/single-test--mock-response-pass.json")
    paths = {p.json_path for p in violations(document)}
    assert {"$.schemaId", "$.gradings", "$.scoringSystem", "$.gradingSystem", "$.aggregateGrade"} <= paths
    assert {"$.answers", "$.iteration", "$.improvementHints"} <= paths  # unknown keys are named too


@pytest.mark.parametrize("document", [[], "entry", 3, None, {"area": ["single-test"]}])
def test_not_an_object_never_raises(document: Any) -> None:
    assert violations(document)
