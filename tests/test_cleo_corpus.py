"""Runs grouped into sessions: order by time, the current run, and stable distinct page paths."""

from __future__ import annotations

import json
from pathlib import Path

from shared_data import shared_file
from test_cleo_reader import grade_row, write_lines

from builder import cleo, urls
from builder.cleo.corpus import CleoCorpus
from builder.engine.problems import ProblemLog

NO_AUDIT = "No audit entries found for session (use --grade flag when starting session)"
NAUGHTY = "bad-input/naughty-strings.json"


def corpus_of(tmp_path: Path, rows: list[dict], name: str = "GRADES.jsonl") -> CleoCorpus:
    write_lines(tmp_path / "sessions" / name, rows)
    log = ProblemLog()
    corpus = cleo.read(tmp_path, log)
    assert corpus is not None and len(log) == 0, log.problems
    return corpus


def test_runs_of_a_session_are_ordered_by_time_not_by_line(tmp_path: Path) -> None:
    corpus = corpus_of(tmp_path, [
        grade_row("s", timestamp="2026-05-03T08:00:00.000Z", entryCount=3),
        grade_row("other"),
        grade_row("s", timestamp="2026-05-01T08:00:00.000Z", entryCount=1),
        grade_row("s", timestamp="2026-05-02T10:00:00+02:00", entryCount=2),  # 08:00 UTC
    ])
    [other, session] = corpus.sessions
    assert (other.session_id, session.session_id) == ("other", "s")
    assert [run.result.entry_count for run in session.runs] == [1, 2, 3]
    assert [run.line for run in session.runs] == [3, 4, 1]
    assert [run.run_slug for run in session.runs] == [
        "20260501-080000-000", "20260502-080000-000", "20260503-080000-000"
    ]
    assert session.current.line == 1


def test_the_current_run_is_the_newest_gradable_one(tmp_path: Path) -> None:
    corpus = corpus_of(tmp_path, [
        grade_row("s", (20, 20, 20, 20, 0), timestamp="2026-05-01T08:00:00.000Z"),
        grade_row("s", (20, 20, 20, 20, 20), timestamp="2026-05-02T08:00:00.000Z"),
        grade_row("s", (0, 0, 0, 0, 0), flags=[NO_AUDIT], entryCount=0, timestamp="2026-05-03T08:00:00.000Z"),
        grade_row("never", (0, 0, 0, 0, 0), flags=[NO_AUDIT], entryCount=0, timestamp="2026-05-01T08:00:00Z"),
        grade_row("never", (0, 0, 0, 0, 0), flags=[NO_AUDIT], entryCount=0, timestamp="2026-05-04T08:00:00Z"),
    ])
    never, s = corpus.sessions
    assert s.gradable and s.current.line == 2 and s.current.result.total_score == 100
    assert not never.gradable and never.current.line == 5
    assert [run.gradable for run in s.runs] == [True, True, False]


def test_either_sign_of_no_audit_entries_makes_a_run_not_gradable(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "GRADES.jsonl", [
        grade_row("zero-entries", (0, 10, 20, 20, 0), entryCount=0),
        grade_row("flagged", (0, 10, 20, 20, 0), flags=[NO_AUDIT], entryCount=4),
        grade_row("fine", (0, 10, 20, 20, 0), entryCount=4),
    ])
    log = ProblemLog()
    corpus = cleo.read(tmp_path, log)
    assert corpus is not None
    assert {s.session_id: s.gradable for s in corpus.sessions} == {
        "zero-entries": False, "flagged": False, "fine": True
    }
    # Issue 22: a run with no audit entries that still carries points (here 50) is reported.
    assert [(p.json_path, p.severity, "50 points" in p.reason) for p in log.problems] == [
        ("line 1, $.totalScore", "warning", True), ("line 2, $.totalScore", "warning", True)
    ]


def test_runs_at_the_same_instant_get_numbered_slugs_in_file_order(tmp_path: Path) -> None:
    write_lines(tmp_path / "sessions" / "b.jsonl", [grade_row("s", entryCount=3)])
    corpus = corpus_of(tmp_path, [grade_row("s", entryCount=1), grade_row("s", entryCount=2)], "a.jsonl")
    [session] = corpus.sessions
    assert [(run.file, run.line, run.run_slug) for run in session.runs] == [
        ("sessions/a.jsonl", 1, "20260501-100000-000"),
        ("sessions/a.jsonl", 2, "20260501-100000-000-2"),
        ("sessions/b.jsonl", 1, "20260501-100000-000-3"),
    ]


def test_microseconds_are_kept_in_the_run_slug(tmp_path: Path) -> None:
    corpus = corpus_of(tmp_path, [
        grade_row("s", timestamp="2026-05-01T10:00:00.123456Z"), grade_row("s", timestamp="2026-05-01T10:00:00.123Z"),
    ])
    assert [run.run_slug for run in corpus.sessions[0].runs] == ["20260501-100000-123", "20260501-100000-123456"]


def test_a_session_id_that_spells_another_ids_slug_gets_its_own_path(tmp_path: Path) -> None:
    hostile = "Sess/1"
    taken = urls.slug(hostile)  # readable part plus a hash: a name someone else can use verbatim
    corpus = corpus_of(tmp_path, [grade_row(hostile), grade_row(taken)])
    slugs = {s.session_id: s.slug for s in corpus.sessions}
    assert slugs[hostile] != slugs[taken]
    assert {slugs[hostile], slugs[taken]} == {taken, taken + "-2"}


def test_every_naughty_string_as_a_session_id_gets_a_distinct_safe_path(tmp_path: Path) -> None:
    names = [name for name in json.loads(shared_file(NAUGHTY).read_text(encoding="utf-8")) if name.strip()]
    corpus = corpus_of(tmp_path, [grade_row(name) for name in names])
    assert len(corpus.sessions) == len(set(names))
    paths = [urls.cleo_session_page(s.slug) for s in corpus.sessions]
    assert len(set(paths)) == len(paths)
    for path in paths:
        urls.check_output_path(path)
        assert path.count("/") == 2, path


def test_data_as_of_is_the_newest_run_as_cleo_wrote_it(tmp_path: Path) -> None:
    corpus = corpus_of(tmp_path, [
        grade_row("a", timestamp="2026-05-02T00:30:00+02:00"),  # 2026-05-01T22:30Z
        grade_row("b", timestamp="2026-05-01T23:00:00.000Z"),
    ])
    assert corpus.data_as_of == "2026-05-01T23:00:00.000Z"
