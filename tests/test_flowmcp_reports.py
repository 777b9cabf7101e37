"""Scoring Protocol v1: reports read, recomputed (mean of the dimensions, gradingSystem/1.0.0 bands,
F on failed validation) and checked against scores.json; unknown protocol versions rejected."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flowmcp_fixtures import write

from builder.engine.problems import ProblemLog
from builder.flowmcp.reader import read
from builder.flowmcp.reports import ReportSet

FOLDER = "scoring-reports/ns_file"
HARNESS = {"name": "claude-code", "version": "1.0.0", "model": "m-1", "modelContext": "1M"}
CREATOR = {"skill": "grade-score-single", "skillVersion": "1.0.0", "session": "s"}


def report(dims: list[tuple[str, float]], *, grade: str, score: float, date: str = "2026-05-18", **extra: Any) -> dict[str, Any]:
    found = {
        "schemaId": "ns/file", "schemaIdSlug": "ns_file", "schemaPath": "/abs/ns/file.mjs", "schemaHash": "sha256:ab",
        "date": date, "grade": grade, "score": score, "scoringProtocol": "v1", "creator": CREATOR, "harness": HARNESS,
        "timestamps": {"startedAt": f"{date}T03:00:00Z", "reportedAt": f"{date}T03:16:00Z"},
        "dimensions": [{"dimension": d, "score": s, "reasoning": f"why {d}"} for d, s in dims],
        "validationPassed": True, "validationErrors": [],
    }
    found.update(extra)
    return found


def read_reports(data: Path) -> tuple[list[ReportSet], ProblemLog]:
    log = ProblemLog()
    corpus = read(data, log)
    assert corpus is not None
    return list(corpus.reports), log


def test_the_protocols_example_report_reproduces(tmp_path: Path) -> None:
    # 22-scoring-protocol: whenToUse 4.0, parameters 3.5 → score 3.75 → B
    write(tmp_path / FOLDER / "ns_file-2026-05-18.json",
          report([("whenToUse", 4.0), ("parameters", 3.5)], grade="B", score=3.75))
    [found], log = read_reports(tmp_path)
    assert (found.current.score, found.current.grade) == (Fraction(15, 4), "B")
    assert log.problems == []


def test_a_stored_grade_that_does_not_reproduce_is_a_warning(tmp_path: Path) -> None:
    # (4.5 + 4.0) / 2 = 4.25 → B, not A; the stored score 4.3 is off by more than 0.005
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 4.5), ("parameters", 4.0)], grade="A", score=4.3))
    [found], log = read_reports(tmp_path)
    assert found.current.grade == "B"
    assert {(p.json_path, p.severity) for p in log.problems} == {("$.grade", "warning"), ("$.score", "warning")}


def test_a_rounded_stored_score_is_not_a_disagreement(tmp_path: Path) -> None:
    # (4.0 + 3.5 + 3.5) / 3 = 3.6666…, stored rounded to 3.67
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 4.0), ("parameters", 3.5), ("extra", 3.5)],
                                               grade="B", score=3.67))
    _, log = read_reports(tmp_path)
    assert log.problems == []


def test_failed_validation_is_an_f_whatever_the_scores(tmp_path: Path) -> None:
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 5.0), ("parameters", 5.0)], grade="F", score=5.0,
                                               validationPassed=False, validationErrors=["VAL-001: no tools"]))
    [found], log = read_reports(tmp_path)
    assert found.current.grade == "F"
    assert log.problems == []


def test_validation_passed_with_errors_listed_is_a_warning(tmp_path: Path) -> None:
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 4.0)], grade="B", score=4.0,
                                               validationErrors=["VAL-001: no tools"]))
    _, log = read_reports(tmp_path)
    assert [p.json_path for p in log.problems] == ["$.validationPassed"]


@pytest.mark.parametrize("name", ["r.json", "scores.json", "prompts.json"])
def test_an_unknown_scoring_protocol_is_rejected_with_a_clear_error(tmp_path: Path, name: str) -> None:
    write(tmp_path / FOLDER / "ok.json", report([("whenToUse", 4.0)], grade="B", score=4.0))
    write(tmp_path / FOLDER / name, {"scoringProtocol": "v2", "schemaIdSlug": "ns_file"})
    [found], log = read_reports(tmp_path)
    [error] = log.problems
    assert (error.file, error.json_path, error.severity, error.system) == (
        f"{FOLDER}/{name}", "$.scoringProtocol", "error", "scoring-protocol")
    assert "unknown scoringProtocol 'v2'" in error.reason
    assert [r.stem for r in found.reports] == ["ok"]  # the rest is kept


def test_the_newest_report_is_current(tmp_path: Path) -> None:
    write(tmp_path / FOLDER / "b.json", report([("whenToUse", 2.0)], grade="D", score=2.0, date="2026-05-01"))
    write(tmp_path / FOLDER / "a.json", report([("whenToUse", 4.0)], grade="B", score=4.0, date="2026-05-20"))
    [found], _ = read_reports(tmp_path)
    assert [r.stem for r in found.reports] == ["b", "a"]
    assert found.current.stem == "a"


def test_scores_and_prompts_beside_the_report_are_cross_checked(tmp_path: Path) -> None:
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 4.0), ("parameters", 3.5)], grade="B", score=3.75))
    write(tmp_path / FOLDER / "scores.json", {
        "schemaIdSlug": "ns_file", "scoringProtocol": "v1", "creator": CREATOR, "harness": {**HARNESS, "model": "m-2"},
        "timestamp": "2026-05-18T03:15:00Z",
        "scores": [{"dimension": "whenToUse", "score": 4.0}, {"dimension": "parameters", "score": 3.0}],
    })
    write(tmp_path / FOLDER / "prompts.json", {
        "schemaId": "ns/file", "schemaIdSlug": "ns_other", "scoringProtocol": "v1",
        "prompts": [{"dimension": "whenToUse", "prompt": "Rate …"}],
    })
    [found], log = read_reports(tmp_path)
    assert found.scores is not None and found.prompts is not None
    assert {(p.file.rsplit("/", 1)[-1], p.json_path) for p in log.problems} == {
        ("r.json", "$.dimensions[1].score"), ("r.json", "$.harness.model"), ("prompts.json", "$.schemaIdSlug")}


def test_slug_and_folder_conventions(tmp_path: Path) -> None:
    write(tmp_path / FOLDER / "r.json", report([("whenToUse", 4.0)], grade="B", score=4.0, schemaIdSlug="ns-file"))
    write(tmp_path / "scoring-reports/elsewhere/r.json", report([("whenToUse", 4.0)], grade="B", score=4.0))
    write(tmp_path / "scoring-reports/loose.json", report([("whenToUse", 4.0)], grade="B", score=4.0))
    sets, log = read_reports(tmp_path)
    assert [s.folder for s in sets] == ["elsewhere", "ns_file"]
    found = {(p.file, p.json_path, p.severity) for p in log.problems}
    assert found == {
        (f"{FOLDER}/r.json", "$.schemaIdSlug", "warning"),  # not schemaId with / → _
        ("scoring-reports/elsewhere/r.json", "$.schemaIdSlug", "warning"),  # not this folder's schema
        ("scoring-reports/loose.json", "$", "error"),
    }


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"score": "3.75"}, "$.score"),
        ({"grade": "E"}, "$.grade"),
        ({"date": "18.05.2026"}, "$.date"),
        ({"validationPassed": "true"}, "$.validationPassed"),
        ({"dimensions": []}, "$.dimensions"),
        ({"dimensions": [{"dimension": "whenToUse", "score": 7}]}, "$.dimensions[0].score"),
        ({"harness": {"name": "claude-code"}}, "$.harness.model"),
    ],
)
def test_a_broken_report_names_the_field(tmp_path: Path, change: dict[str, Any], path: str) -> None:
    write(tmp_path / FOLDER / "r.json", {**report([("whenToUse", 4.0)], grade="B", score=4.0), **change})
    sets, log = read_reports(tmp_path)
    assert sets == []
    assert path in {p.json_path for p in log.problems}
    assert all(p.severity == "error" for p in log.problems)
