"""gradingSystem/1.0.0: how answers become a grade, and how nodes become a rollup.

Sources: Grading-Spec 2.0.0 chapter 07 §4.1 (numeric mapping, bands, tier trim), chapter 08 §10
(multi-grader rule), §14 (aggregate computation), chapter 23 (the two status vocabularies), and the
rollup rules of FlowMCP's own `rebuildNamespaceIndex` / `rebuildSelectionIndex`, so that an
index.json FlowMCP wrote agrees with the one recomputed here unless its data disagrees.

Arithmetic is exact: every score is read as the decimal it was written as (`Fraction(str(x))`),
so a mean of exactly 4.5 is an A and never a B through float drift.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

GRADING_SYSTEM = "gradingSystem/1.0.0"
LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "F")
GRADE_ORDER: tuple[str, ...] = (*LETTERS, "REJECTED")
BANDS: tuple[tuple[Fraction, str], ...] = (
    (Fraction(9, 2), "A"),
    (Fraction(7, 2), "B"),
    (Fraction(5, 2), "C"),
    (Fraction(3, 2), "D"),
)
"""Weighted mean ≥ bound → letter; below 1.5 → F."""
PASS_VALUE = Fraction(5)
FAIL_VALUE = Fraction(1)
HINT_BELOW = Fraction(7, 2)
"""Answers below 3.5 (below a B) become improvement hints."""

TIER_CAP = {"autonomous": "B", "group-bound": "A"}
PROVIDER_AREAS = frozenset(
    {
        "single-test",
        "tools-aggregate-schema",
        "tools-aggregate-namespace",
        "namespace-description",
        "namespace-skills",
        "about-namespace",
    }
)


def area_tier(area: str) -> str:
    """Areas 1–6 are provider areas (autonomous, max B); 7–11 selection areas (group-bound, A)."""
    return "autonomous" if area in PROVIDER_AREAS else "group-bound"


def instant(timestamp: str) -> datetime:
    """An RFC 3339 timestamp as an aware datetime, so `…:00.5Z` sorts after `…:00Z`."""
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def exact(value: float) -> Fraction:
    return Fraction(str(value))


def answer_value(score: float | str) -> Fraction | None:
    """`pass` → 5.0, `fail` → 1.0, numbers as they are; `n/a` and `stale` count for nothing."""
    if score == "pass":
        return PASS_VALUE
    if score == "fail":
        return FAIL_VALUE
    if isinstance(score, str):
        return None
    return exact(score)


def band(mean: Fraction) -> str:
    for bound, letter in BANDS:
        if mean >= bound:
            return letter
    return "F"


def trim(letter: str, tier: str) -> str:
    """Cap a banded letter at the tier's maximum: autonomous entries never emit A."""
    cap = TIER_CAP[tier]
    return cap if LETTERS.index(letter) < LETTERS.index(cap) else letter


def better(a: str, b: str) -> bool:
    """True when grade `a` is strictly better than `b` (A best, REJECTED worst)."""
    return GRADE_ORDER.index(a) < GRADE_ORDER.index(b)


@dataclass(frozen=True)
class ScoredAnswer:
    """One answer as the mean sees it. `counted` is False for n/a, stale and superseded answers."""

    position: int
    question_id: str
    score: float | str
    weight: Fraction
    value: Fraction | None
    counted: bool
    left_out: str | None
    """Why it is not in the mean: `n/a`, `stale`, `superseded` (a newer answer to the same
    question exists, §10), or `weight 0`."""


@dataclass(frozen=True)
class EntryGrade:
    mean: Fraction | None
    """Weighted mean of the counted answers; None when nothing counts."""
    raw_grade: str | None
    """The band before the tier trim."""
    grade: str | None
    """The trimmed letter, `REJECTED` on a veto, or None (nothing to grade: a pending node)."""
    answers: tuple[ScoredAnswer, ...]

    @property
    def trimmed(self) -> bool:
        return (
            self.raw_grade is not None
            and self.grade is not None
            and self.raw_grade != self.grade
            and self.grade != "REJECTED"
        )


@dataclass(frozen=True)
class AnswerInput:
    question_id: str
    score: float | str
    weight: float
    timestamp: str


def score_answers(answers: Sequence[AnswerInput]) -> tuple[ScoredAnswer, ...]:
    """Map every answer to its value. Where graders answered the same question more than once, only
    the most recent answer counts (§10: "pick the most recent valid entry per question"; a tie goes
    to the later one in the array)."""
    latest: dict[str, int] = {}
    for position, answer in enumerate(answers):
        kept = latest.get(answer.question_id)
        if kept is None or instant(answer.timestamp) >= instant(answers[kept].timestamp):
            latest[answer.question_id] = position
    scored = []
    for position, answer in enumerate(answers):
        value = answer_value(answer.score)
        weight = exact(answer.weight)
        left_out: str | None = None
        if latest[answer.question_id] != position:
            left_out = "superseded"
        elif value is None:
            left_out = str(answer.score)
        elif weight == 0:
            left_out = "weight 0"
        scored.append(
            ScoredAnswer(position, answer.question_id, answer.score, weight, value, left_out is None, left_out)
        )
    return tuple(scored)


def weighted_mean(scored: Iterable[ScoredAnswer]) -> Fraction | None:
    counted = [answer for answer in scored if answer.counted]
    total = sum((answer.weight for answer in counted), Fraction(0))
    if total == 0:
        return None
    return sum((answer.weight * answer.value for answer in counted if answer.value is not None), Fraction(0)) / total


def grade_answers(answers: Sequence[AnswerInput], tier: str, *, vetoed: bool) -> EntryGrade:
    """§14: a veto short-circuits to REJECTED; otherwise weighted mean → band → tier trim."""
    scored = score_answers(answers)
    mean = weighted_mean(scored)
    raw = band(mean) if mean is not None else None
    if vetoed:
        return EntryGrade(mean, raw, "REJECTED", scored)
    return EntryGrade(mean, raw, trim(raw, tier) if raw is not None else None, scored)


def gain_to_five(answer: ScoredAnswer, answers: Sequence[ScoredAnswer]) -> Fraction:
    """How much the entry's mean would rise if this counted answer scored 5.0 instead."""
    total = sum((a.weight for a in answers if a.counted), Fraction(0))
    if not answer.counted or answer.value is None or total == 0:
        return Fraction(0)
    return answer.weight * (PASS_VALUE - answer.value) / total


# ---- node and rollup statuses (23-index-json §3) ---------------------------------------------------


def entry_node_status(grade: str | None, tier: str, *, full: bool) -> str:
    """The node status a current entry gives its node.

    `stable` is "fully graded and above threshold" (§3.1). The spec leaves the threshold to the
    implementation; here it is the tier's own maximum (B for autonomous, A for group-bound), reached
    by a full grading, because a provider node can never reach A and would otherwise never be stable.
    """
    if grade == "REJECTED":
        return "rejected"
    if grade is None:
        return "pending"
    if full and grade == TIER_CAP[tier]:
        return "stable"
    return "graded"


def schema_status(tool_statuses: Sequence[str], aggregate_status: str) -> tuple[str, str | None]:
    """A schema node from its tools and its tools-aggregate node (FlowMCP's `#schemaNodeStatus`)."""
    if "rejected" in tool_statuses or aggregate_status == "rejected":
        return "rejected", None
    if "blocked" in tool_statuses:
        return "blocked", "one or more tools blocked"
    if not tool_statuses and aggregate_status == "pending":
        return "pending", "not yet imported"
    if tool_statuses and all(s == "stable" for s in tool_statuses) and aggregate_status == "stable":
        return "stable", None
    if any(s in ("graded", "stable") for s in tool_statuses) or aggregate_status in ("graded", "stable"):
        return "graded", None
    return "pending", "not yet graded"


def rollup_status(node_statuses: Iterable[str]) -> str:
    """Node statuses → the rollup vocabulary: any rejected → rejected; nothing graded → blocked if
    anything is blocked, else pending; everything stable → operational; otherwise partial."""
    statuses = list(node_statuses)
    if "rejected" in statuses:
        return "rejected"
    if not any(s in ("graded", "stable") for s in statuses):
        return "blocked" if "blocked" in statuses else "pending"
    if all(s == "stable" for s in statuses):
        return "operational"
    return "partial"


def rollup_grade(grades: Iterable[str | None], *, rejected: bool) -> str | None:
    """The conservative rollup grade: the worst letter among the grading nodes, REJECTED when the
    rollup is rejected, and none at all when nothing is graded (an ungraded rollup is not an F)."""
    if rejected:
        return "REJECTED"
    present = [grade for grade in grades if grade in GRADE_ORDER]
    if "REJECTED" in present:
        return "REJECTED"
    return max(present, key=GRADE_ORDER.index) if present else None


def as_float(value: Fraction | None, digits: int = 6) -> float | None:
    return None if value is None else round(float(value), digits)
