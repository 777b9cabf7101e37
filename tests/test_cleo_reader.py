"""Reading GRADES.jsonl line by line: every bad line is one Problem naming file and line, and is
skipped; every other line is kept. `grade_row` and `write_lines` are shared by the other
test_cleo_* files."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_file

from builder import cleo
from builder.cleo import reader
from builder.engine.problems import ProblemLog

KEYS = ("sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")


def grade_row(
    session_id: str = "session-1",
    scores: Sequence[float] = (20, 20, 20, 20, 20),
    *,
    flags: Sequence[str] = (),
    timestamp: str = "2026-05-01T10:00:00.000Z",
    entry_count: int = 12,
    **fields: Any,
) -> dict[str, Any]:
    """A valid GradeResult whose total is the sum of `scores` (five dimensions of 20)."""
    row: dict[str, Any] = {
        "sessionId": session_id,
        "totalScore": sum(scores),
        "maxScore": 100,
        "dimensions": {
            key: {"score": score, "max": 20, "evidence": [f"evidence for {key}"]}
            for key, score in zip(KEYS, scores, strict=True)
        },
        "flags": list(flags),
        "timestamp": timestamp,
        "entryCount": entry_count,
        "evaluator": "auto",
    }
    row.update(fields)
    return row


def write_lines(path: Path, lines: Sequence[dict[str, Any] | str | bytes]) -> Path:
    """Rows as JSON lines; a str or bytes item is written as it is (a broken line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    chunks = []
    for line in lines:
        if isinstance(line, dict):
            chunks.append(json.dumps(line).encode())
        elif isinstance(line, str):
            chunks.append(line.encode())
        else:
            chunks.append(line)
    path.write_bytes(b"\n".join(chunks) + b"\n")
    return path


def read_one(tmp_path: Path, lines: Sequence[dict[str, Any] | str | bytes]) -> tuple[list, ProblemLog]:
    path = write_lines(tmp_path / "sessions" / "GRADES.jsonl", lines)
    log = ProblemLog()
    return reader.read_grade_file(path, tmp_path, log), log


def test_a_broken_line_in_the_middle_is_reported_by_number_and_its_neighbours_are_kept(tmp_path: Path) -> None:
    rows, log = read_one(tmp_path, [
        grade_row("before"), grade_row("just-before"), '{"sessionId": "torn", "totalSc', grade_row("just-after"),
    ])
    assert [(r.line, r.result.session_id) for r in rows] == [(1, "before"), (2, "just-before"), (4, "just-after")]
    [problem] = log.problems
    assert (problem.file, problem.json_path, problem.severity) == ("sessions/GRADES.jsonl", "line 3", "error")
    assert problem.reason.startswith("not valid JSON") and problem.reason.endswith("the line is skipped")
    [status] = log.files
    assert status.status == "partly-rejected" and status.errors == 1


@pytest.mark.parametrize(("line", "reason"), [
    (b"\xff\xfe not utf-8", "not UTF-8 text (byte 1 of the line)"),
    ("[1, 2, 3]", "a line must be a JSON object, not an array"),
    ('"a string"', "a line must be a JSON object, not a string"),
    ("null", "a line must be a JSON object, not null"),
    ('{"sessionId": NaN}', "NaN is not a JSON number"),
])
def test_lines_that_are_not_json_objects(tmp_path: Path, line: bytes | str, reason: str) -> None:
    rows, log = read_one(tmp_path, [grade_row("kept"), line])
    assert [r.result.session_id for r in rows] == ["kept"]
    [problem] = log.problems
    assert problem.json_path == "line 2"
    assert reason in problem.reason


def _broken(**changes: Any) -> dict[str, Any]:
    row = grade_row("broken")
    for dotted, value in changes.items():
        target = row
        *parents, last = dotted.split("__")
        for key in parents:
            target = target[key]
        if value is _DROP:
            del target[last]
        else:
            target[last] = value
    return row


_DROP = object()


@pytest.mark.parametrize(("row", "where"), [
    (_broken(sessionId=_DROP), "line 1, $.sessionId"),
    (_broken(sessionId="   "), "line 1, $.sessionId"),
    (_broken(sessionId=42), "line 1, $.sessionId"),
    (_broken(totalScore="85"), "line 1, $.totalScore"),
    (_broken(totalScore=True), "line 1, $.totalScore"),
    (_broken(maxScore=0), "line 1, $.maxScore"),
    (_broken(entryCount=-1), "line 1, $.entryCount"),
    (_broken(entryCount=2.5), "line 1, $.entryCount"),
    (_broken(flags="one flag"), "line 1, $.flags"),
    (_broken(timestamp="2026-05-01T10:00:00"), "line 1, $.timestamp"),
    (_broken(timestamp="yesterday"), "line 1, $.timestamp"),
    (_broken(dimensions__taskHygiene=_DROP), "line 1, $.dimensions.taskHygiene"),
    (_broken(dimensions__taskHygiene__score=21), "line 1, $.dimensions.taskHygiene"),
    (_broken(dimensions__errorProtocol__evidence=[1]), "line 1, $.dimensions.errorProtocol.evidence[0]"),
])
def test_objects_that_are_not_grade_results_name_the_field(
    tmp_path: Path, row: dict[str, Any], where: str
) -> None:
    rows, log = read_one(tmp_path, [row, grade_row("kept")])
    assert [r.result.session_id for r in rows] == ["kept"]
    assert [p.json_path for p in log.problems] == [where]
    assert all(p.severity == "error" and "not a CLEO GradeResult" in p.reason for p in log.problems)


def test_a_total_above_max_is_rejected(tmp_path: Path) -> None:
    row = grade_row("over", maxScore=50)  # the five scores add up to 100
    rows, log = read_one(tmp_path, [row])
    assert rows == []
    assert [p.json_path for p in log.problems] == ["line 1, $"]
    assert "totalScore 100 is above maxScore 50" in log.problems[0].reason


def test_stored_totals_that_disagree_with_the_dimensions_are_kept_with_warnings(tmp_path: Path) -> None:
    row = grade_row("odd", (10, 10, 10, 10, 10), totalScore=45)
    row["dimensions"]["disclosureUse"]["max"] = 10
    rows, log = read_one(tmp_path, [row])
    assert [r.result.total_score for r in rows] == [45]
    found = {p.json_path: p for p in log.problems}
    assert set(found) == {"line 1, $.totalScore", "line 1, $.maxScore"}
    assert all(p.severity == "warning" for p in found.values())
    assert "totalScore is 45 but the dimension scores add up to 50" in found["line 1, $.totalScore"].reason
    assert "maxScore is 100 but the dimension maxima add up to 90" in found["line 1, $.maxScore"].reason
    assert log.files[0].status == "accepted-with-warnings"


def test_blank_lines_bom_crlf_and_line_separators_inside_strings(tmp_path: Path) -> None:
    first = b"\xef\xbb\xbf" + json.dumps(grade_row("bom")).encode() + b"\r"
    inside = json.dumps(grade_row("has\u2028separator"), ensure_ascii=False).encode()
    rows, log = read_one(tmp_path, [first, b"", b"   ", inside])
    assert len(log) == 0
    assert [(r.line, r.result.session_id) for r in rows] == [(1, "bom"), (4, "has\u2028separator")]


def test_unknown_fields_are_ignored(tmp_path: Path) -> None:
    row = grade_row("future", grade="B", schemaVersion="2.0")
    row["dimensions"]["newDimension"] = {"score": 5, "max": 5, "evidence": []}
    rows, log = read_one(tmp_path, [row])
    assert len(rows) == 1 and len(log) == 0


def test_a_file_over_the_size_limit_is_rejected_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", 10)
    rows, log = read_one(tmp_path, [grade_row()])
    assert rows == []
    [problem] = log.problems
    assert problem.json_path == "$" and "over the 10-byte limit" in problem.reason
    assert log.files[0].status == "rejected"


def test_only_jsonl_files_in_sessions_are_read_and_absence_means_no_section(tmp_path: Path) -> None:
    log = ProblemLog()
    assert cleo.read(tmp_path, log) is None
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "README.md").write_text("not data")
    assert cleo.read(tmp_path, log) is None
    write_lines(tmp_path / "sessions" / "b.jsonl", [grade_row("from-b")])
    write_lines(tmp_path / "sessions" / "a.jsonl", [grade_row("from-a")])
    corpus = cleo.read(tmp_path, log)
    assert corpus is not None and len(log) == 0
    assert corpus.files == ("sessions/a.jsonl", "sessions/b.jsonl")
    assert [(run.file, run.result.session_id) for run in corpus.runs] == [
        ("sessions/a.jsonl", "from-a"), ("sessions/b.jsonl", "from-b")
    ]


def test_the_real_cleo_file_reads_without_problems() -> None:
    real = shared_file("real-cleo/GRADES.jsonl")
    log = ProblemLog()
    corpus = cleo.read_files([real], real.parent.parent, log)
    assert len(log) == 0
    assert len(corpus.runs) == 35
    counts = {session.session_id: len(session.runs) for session in corpus.sessions}
    assert counts == {"sess1": 31, "list": 2, "session-1777057080354-839c6c": 1, "ses_test_123": 1}
    assert not any(session.gradable for session in corpus.sessions)
