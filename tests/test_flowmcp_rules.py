"""gradingSystem/1.0.0, rule by rule. Every expected value is worked out by hand in the comment."""

from __future__ import annotations

from fractions import Fraction

import pytest

from builder.flowmcp.rules import (
    AnswerInput,
    EntryGrade,
    entry_node_status,
    grade_answers,
    rollup_grade,
    rollup_status,
    schema_status,
)

T = "2026-06-01T10:00:00Z"


def grade(*answers: tuple[float | str, float], tier: str = "autonomous", vetoed: bool = False) -> EntryGrade:
    """Answers as (score, weight), all at the same time and each to its own question."""
    inputs = [AnswerInput(f"Q-{i}", score, weight, T) for i, (score, weight) in enumerate(answers)]
    return grade_answers(inputs, tier, vetoed=vetoed)


def test_pass_and_fail_map_to_five_and_one() -> None:
    # (5 + 1) / 2 = 3.0 → C
    result = grade(("pass", 1.0), ("fail", 1.0))
    assert result.mean == 3
    assert result.grade == "C"


def test_na_and_stale_are_left_out_of_numerator_and_denominator() -> None:
    # only pass (5) and 2.0 count: (5 + 2) / 2 = 3.5 → B; were n/a or stale counted as 0 or 1 it would be C or D
    result = grade(("pass", 1.0), (2.0, 1.0), ("n/a", 1.0), ("stale", 3.0))
    assert result.mean == Fraction(7, 2)
    assert result.grade == "B"
    assert [a.left_out for a in result.answers] == [None, None, "n/a", "stale"]


def test_weights_weigh() -> None:
    # (2 × 4.0 + 1 × 1.0) / 3 = 3.0 → C; unweighted it would be 2.5
    result = grade((4.0, 2.0), ("fail", 1.0))
    assert result.mean == 3
    assert result.grade == "C"


def test_weight_zero_counts_for_nothing() -> None:
    # the 1.0 has weight 0: mean is 5.0, not 3.0
    result = grade(("pass", 1.0), (1.0, 0.0))
    assert result.mean == 5
    assert result.answers[1].left_out == "weight 0"


@pytest.mark.parametrize(
    ("score", "band"),
    [(5.0, "A"), (4.5, "A"), (4.49, "B"), (3.5, "B"), (3.49, "C"), (2.5, "C"), (2.49, "D"),
     (1.5, "D"), (1.49, "F"), (1.0, "F")],
)
def test_bands(score: float, band: str) -> None:
    # a group-bound entry is not trimmed, so the band shows as it is
    assert grade((score, 1.0), tier="group-bound").grade == band


def test_exact_arithmetic_at_a_band_boundary() -> None:
    # (4.3 + 4.6 + 4.6) / 3 = 13.5 / 3 = 4.5 exactly → A; float division gives 4.499999999999999 (a B)
    assert (4.3 + 4.6 + 4.6) / 3 < 4.5
    result = grade((4.3, 1.0), (4.6, 1.0), (4.6, 1.0), tier="group-bound")
    assert result.mean == Fraction(9, 2)
    assert result.grade == "A"


def test_tier_trim_caps_autonomous_at_b_and_keeps_the_raw_band() -> None:
    # the spec's own example: pass, 4.5, 4.0 → 13.5 / 3 = 4.5 → A, trimmed to B
    result = grade(("pass", 1.0), (4.5, 1.0), (4.0, 1.0))
    assert (result.raw_grade, result.grade, result.trimmed) == ("A", "B", True)
    group = grade(("pass", 1.0), (4.5, 1.0), (4.0, 1.0), tier="group-bound")
    assert (group.raw_grade, group.grade, group.trimmed) == ("A", "A", False)


def test_trim_never_raises_a_grade() -> None:
    assert grade((2.0, 1.0)).grade == "D"


def test_veto_rejects_whatever_the_answers() -> None:
    result = grade(("pass", 1.0), (5.0, 1.0), vetoed=True)
    assert result.grade == "REJECTED"
    assert result.raw_grade == "A"  # the answers alone would band to A


def test_everything_left_out_means_no_grade_and_a_pending_node() -> None:
    result = grade(("n/a", 1.0), ("stale", 1.0))
    assert result.mean is None and result.grade is None
    assert entry_node_status(result.grade, "autonomous", full=True) == "pending"


def test_the_most_recent_answer_to_a_question_counts() -> None:
    # the same question twice: only the newer answer (5.0) counts, whatever the array order
    inputs = [AnswerInput("Q-x", 5.0, 1.0, "2026-06-02T00:00:00Z"), AnswerInput("Q-x", 1.0, 1.0, "2026-06-01T00:00:00Z")]
    result = grade_answers(inputs, "group-bound", vetoed=False)
    assert result.mean == 5
    assert [a.left_out for a in result.answers] == [None, "superseded"]


def test_timestamps_compare_as_instants_and_ties_go_to_the_later_answer() -> None:
    # "…00.5Z" is after "…00Z" although it sorts before it as text
    later = [AnswerInput("Q-x", 1.0, 1.0, "2026-06-01T00:00:00Z"), AnswerInput("Q-x", 5.0, 1.0, "2026-06-01T00:00:00.5Z")]
    assert grade_answers(later, "group-bound", vetoed=False).mean == 5
    tie = [AnswerInput("Q-x", 1.0, 1.0, T), AnswerInput("Q-x", 3.0, 1.0, T)]
    assert grade_answers(tie, "group-bound", vetoed=False).mean == 3


@pytest.mark.parametrize(
    ("grade_", "tier", "full", "status"),
    [
        ("REJECTED", "autonomous", True, "rejected"),
        (None, "autonomous", True, "pending"),
        ("B", "autonomous", True, "stable"),  # B is the autonomous maximum
        ("B", "autonomous", False, "graded"),  # but a partial grading is not "fully graded"
        ("C", "autonomous", True, "graded"),
        ("B", "group-bound", True, "graded"),  # group-bound can reach A
        ("A", "group-bound", True, "stable"),
    ],
)
def test_node_status_of_an_entry(grade_: str | None, tier: str, full: bool, status: str) -> None:
    assert entry_node_status(grade_, tier, full=full) == status


@pytest.mark.parametrize(
    ("tools", "aggregate", "expected"),
    [
        (["stable", "rejected"], "stable", ("rejected", None)),
        (["graded"], "rejected", ("rejected", None)),
        (["blocked", "stable"], "stable", ("blocked", "one or more tools blocked")),
        ([], "pending", ("pending", "not yet imported")),
        (["stable", "stable"], "stable", ("stable", None)),
        (["stable", "graded"], "stable", ("graded", None)),
        (["pending"], "graded", ("graded", None)),
        (["pending"], "pending", ("pending", "not yet graded")),
    ],
)
def test_schema_status(tools: list[str], aggregate: str, expected: tuple[str, str | None]) -> None:
    assert schema_status(tools, aggregate) == expected


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["stable", "rejected", "stable"], "rejected"),
        (["pending", "blocked"], "blocked"),
        (["pending", "pending"], "pending"),
        ([], "pending"),
        (["stable", "stable"], "operational"),
        (["stable", "graded"], "partial"),
        (["graded", "pending", "blocked"], "partial"),
    ],
)
def test_rollup_status_uses_its_own_vocabulary(statuses: list[str], expected: str) -> None:
    assert rollup_status(statuses) == expected
    assert expected not in ("graded", "stable")


def test_rollup_grade_is_the_worst_and_none_when_nothing_is_graded() -> None:
    assert rollup_grade(["B", "C", None, "A"], rejected=False) == "C"
    assert rollup_grade([None, None], rejected=False) is None
    assert rollup_grade(["A", "REJECTED"], rejected=False) == "REJECTED"
    assert rollup_grade(["A"], rejected=True) == "REJECTED"
