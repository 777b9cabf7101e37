"""The repository's synthetic CLEO demo file: labelled synthetic, and every row one CLEO's grader
could have written (its scores follow from its own flags and evidence by the grader's rules)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from builder import cleo
from builder.cleo.rubric import match_flag
from builder.engine.problems import ProblemLog

DATA = Path(__file__).resolve().parents[1] / "data"
DEMO = DATA / "sessions" / "GRADES.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]


def test_the_demo_is_labelled_synthetic() -> None:
    assert all(row["evaluator"] == "synthetic-demo" for row in ROWS)
    readme = (DEMO.parent / "README.md").read_text(encoding="utf-8")
    assert "SYNTHETIC" in readme and "synthetic-demo" in readme


def test_the_demo_reads_cleanly_and_is_varied() -> None:
    log = ProblemLog()
    corpus = cleo.read(DATA, log)
    assert corpus is not None and len(log) == 0
    assert len(corpus.sessions) >= 5
    assert any(len(session.runs) > 1 for session in corpus.sessions)
    assert any(not session.gradable for session in corpus.sessions)
    shares = {round(s.current.result.total_score) for s in corpus.sessions if s.gradable}
    assert len(shares) >= 5
    stamps = [datetime.fromisoformat(row["timestamp"]) for row in ROWS]
    assert (max(stamps) - min(stamps)).days >= 14
    flags = {flag for row in ROWS for flag in row["flags"]}
    assert len(flags) >= 8 and all(match_flag(flag) is not None for flag in flags)


def _count(row: dict[str, Any], pattern: str) -> int:
    return sum(1 for flag in row["flags"] if re.match(pattern, flag))


def _has(row: dict[str, Any], dimension: str, pattern: str) -> bool:
    return any(re.match(pattern, line) for line in row["dimensions"][dimension]["evidence"])


@pytest.mark.parametrize("row", [r for r in ROWS if r["entryCount"] > 0], ids=lambda r: r["timestamp"])
def test_each_row_follows_the_graders_rules(row: dict[str, Any]) -> None:
    score = {key: value["score"] for key, value in row["dimensions"].items()}
    earned = (10 * _has(row, "sessionDiscipline", r"session\.list called before")
              + 10 * _has(row, "sessionDiscipline", r"session\.end called$"))
    assert score["sessionDiscipline"] == earned
    assert score["sessionDiscipline"] == 20 - 10 * _count(row, r"session\.(list|end) ")
    assert score["taskHygiene"] == max(0, 20 - 5 * _count(row, r"tasks\.add without description")
                                       - 3 * _count(row, r"Subtasks created without"))
    assert score["errorProtocol"] == max(0, 20 - 5 * _count(row, r"E_NOT_FOUND .* not followed")
                                         - 5 * _count(row, r"\d+ potentially duplicate"))
    assert score["disclosureUse"] == 20 - 10 * _count(row, r"No (admin\.help|MCP query)")
    show = 5 * _has(row, "discoveryEfficiency", r"tasks\.show used \d+x")
    if _has(row, "discoveryEfficiency", r"No discovery calls needed"):
        assert score["discoveryEfficiency"] == 10 + show
    elif _has(row, "discoveryEfficiency", r"find:list ratio \d+% >= 80%"):
        assert score["discoveryEfficiency"] == min(20, 15 + show)
    else:
        assert _count(row, r"tasks\.list used \d+x") == 1
        assert show <= score["discoveryEfficiency"] <= 11 + show  # round(15 × ratio), ratio < 0.8
    assert row["totalScore"] == sum(score.values())


def test_rows_without_audit_entries_look_like_cleos() -> None:
    empty = [row for row in ROWS if row["entryCount"] == 0]
    assert empty
    for row in empty:
        assert row["totalScore"] == 0 and row["flags"] == [
            "No audit entries found for session (use --grade flag when starting session)"
        ]
        assert all(d == {"score": 0, "max": 20, "evidence": []} for d in row["dimensions"].values())
