"""Property-based tests of the readers: whatever bytes or JSON sit in the data folder, reading
never raises, every rejected file is named in the log with a JSON path and a reason, and a valid
file next to it is still read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from corpus import definition, report, scores, tool_score, write_capture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.cleo import read as read_cleo
from builder.engine.problems import ProblemLog
from builder.tdqs.reader import read_tdqs

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=25,
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALID = report("valid", [tool_score(definition("ok_tool"), scores(4, 3, 3, 3, 4, 3))]).model_dump(mode="json")


def mutate(document: Any, path: list[Any], value: Any) -> Any:
    """`document` with the value at `path` (as far as it exists) replaced by `value`."""
    if not path or not isinstance(document, dict | list):
        return value
    head, rest = path[0], path[1:]
    if isinstance(document, dict) and document:
        key = list(document)[head % len(document)]
        return {**document, key: mutate(document[key], rest, value)}
    if isinstance(document, list) and document:
        index = head % len(document)
        return [*document[:index], mutate(document[index], rest, value), *document[index + 1:]]
    return value


def fresh(data: Path) -> None:
    write_capture(data, "valid", VALID)


def problems_name_the_file(log: ProblemLog, name: str) -> None:
    mine = [p for p in log.problems if p.file == name]
    assert mine, f"{name} was rejected or disagreed without a problem"
    assert all(p.json_path.startswith("$") and p.reason for p in mine)


@SETTINGS
@given(json_values)
def test_any_json_as_a_capture_is_reported_not_raised(document: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        fresh(data)
        target = data / "servers" / "random"
        target.mkdir(parents=True)
        (target / "2026-06-01T00-00-00Z.score.json").write_text(json.dumps(document), encoding="utf-8")
        log = ProblemLog()
        corpus = read_tdqs(data, log)
        assert corpus is not None and "valid" in {s.server_id for s in corpus.servers}
        problems_name_the_file(log, "servers/random/2026-06-01T00-00-00Z.score.json")


@SETTINGS
@given(st.lists(st.integers(0, 50), min_size=1, max_size=6), json_values)
def test_a_mutated_capture_is_read_or_reported(path: list[int], value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        fresh(data)
        write_capture(data, "mutant", mutate(VALID, path, value), name="2026-06-01T00-00-00Z")
        log = ProblemLog()
        corpus = read_tdqs(data, log)
        assert corpus is not None
        ids = {s.server_id for s in corpus.servers}
        assert "valid" in ids
        if "mutant" not in ids:
            problems_name_the_file(log, "servers/mutant/2026-06-01T00-00-00Z.score.json")


@SETTINGS
@given(st.binary(max_size=200))
def test_any_bytes_as_a_capture_or_tools_file_are_reported(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        fresh(data)
        (data / "servers" / "valid" / "2026-06-01T00-00-00Z.tools.json").write_bytes(raw)
        (data / "servers" / "bytes").mkdir()
        (data / "servers" / "bytes" / "2026-06-01T00-00-00Z.score.json").write_bytes(raw)
        log = ProblemLog()
        corpus = read_tdqs(data, log)
        assert corpus is not None and "valid" in {s.server_id for s in corpus.servers}
        problems_name_the_file(log, "servers/bytes/2026-06-01T00-00-00Z.score.json")


@SETTINGS
@given(st.lists(json_values | st.text(max_size=30), min_size=1, max_size=6))
def test_any_lines_of_a_grades_file_are_kept_or_reported_by_line(lines: list[Any]) -> None:
    good = {
        "sessionId": "s", "totalScore": 50, "maxScore": 100, "flags": [], "timestamp": "2026-05-01T10:00:00Z",
        "entryCount": 3, "evaluator": "auto",
        "dimensions": {k: {"score": 10, "max": 20, "evidence": []} for k in (
            "sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")},
    }
    rendered = [json.dumps(good)] + [line if isinstance(line, str) else json.dumps(line) for line in lines]
    rendered = [line.replace("\n", " ").replace("\r", " ") for line in rendered]
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        (data / "sessions").mkdir()
        (data / "sessions" / "GRADES.jsonl").write_text("\n".join(rendered) + "\n", encoding="utf-8")
        log = ProblemLog()
        corpus = read_cleo(data, log)
        assert corpus is not None
        runs = sum(len(session.runs) for session in corpus.sessions)
        rejected = {p.json_path.split(",")[0] for p in log.problems if p.severity == "error"}
        # Blank as the reader counts it: ASCII whitespace only. (`str.strip` would also take the
        # separators U+001C..U+001F and Unicode spaces, which make a line the reader reports.)
        blank = sum(1 for line in rendered if not line.encode("utf-8").strip())
        assert runs >= 1
        assert runs + len(rejected) + blank == len(rendered)
        assert all(path.startswith("line ") for path in rejected)
