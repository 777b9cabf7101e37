"""What a FlowMCP maintainer can do to raise a grade, drawn from the grading data itself.

- answers below 3.5 (a `fail` counts 1.0), biggest gain first: the gain is how far the entry's
  weighted mean would rise if that answer scored 5.0 (weight × (5 − score) / counted weight);
- answers that do not count: `stale` ones (re-run the time-dependent check) and `n/a` ones whose
  reason is a precondition that can be met;
- the tier trim: an autonomous area reaching A is capped at B; A needs the selection phases;
- a categorical veto, which only a completely new evaluation can lift;
- blockers and pending nodes of a namespace or selection;
- failed validation and low dimensions of a Scoring Protocol report; below an A, what the next
  grade needs and every dimension below 5.0, biggest gain first — a B is never "nothing to fix".
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from builder.flowmcp.records import EntryRecord, Node, Rollup
from builder.flowmcp.reports import TIER as REPORT_TIER
from builder.flowmcp.reports import ReportRecord
from builder.flowmcp.rules import BANDS, HINT_BELOW, PASS_VALUE, TIER_CAP, as_float, better, exact, gain_to_five
from builder.numbers import banded

_MINIMA = tuple(bound for bound, _ in BANDS)
"""A mean in a hint is written so it bands to the grade named beside it (issue 22)."""


class Hint(BaseModel):
    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)

    kind: str
    """answer, stale, n/a, tier, veto, partial, llm, pending, blocked, rejected, validation, grade, dimension."""
    text: str
    where: str | None = None
    """The node or dimension it is about."""
    link: str | None = None
    """Output path of the page with the details."""
    gain: float | None = None


def _short(text: str | None, limit: int = 240) -> str:
    if not text:
        return "no reasoning given"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def entry_hints(
    record: EntryRecord, *, where: str | None = None, link: str | None = None, toward_next: bool = False
) -> list[Hint]:
    """`toward_next`: on the entry's own page, below an A also say what the next grade needs and
    list every counted answer below 5.0, so a B never reads "nothing to fix"."""
    entry, computed = record.entry, record.computed
    if entry is None or computed is None:
        return []
    hints: list[Hint] = []
    veto = entry.categorical_veto
    if veto is not None:
        hints.append(
            Hint(
                kind="veto",
                where=where,
                link=link,
                text=f"Rejected by the categorical veto {veto.triggered_by} ({veto.grader_identity.name}): "
                f"{_short(veto.evidence)}. A veto is terminal: only a completely new evaluation, written as "
                "a new entry, can lift it.",
            )
        )
    below = HINT_BELOW
    if toward_next and veto is None and entry.grading_mode == "full" and computed.mean is not None:
        higher = [(bound, letter) for bound, letter in BANDS if bound > computed.mean]
        if computed.grade == TIER_CAP[record.tier] and not computed.trimmed and higher:
            hints.append(
                Hint(
                    kind="tier", where=where, link=link,
                    text=f"{computed.grade} is the most an {record.tier} area such as {entry.area} can reach. "
                    "Grade A needs a group-bound grading: add the namespace to a selection and run the "
                    "selection areas.",
                )
            )
        elif higher and computed.grade != "REJECTED":
            bound, letter = min(higher)
            hints.append(
                Hint(
                    kind="grade", where=where, link=link,
                    text=f"The weighted mean, {banded(computed.mean, _MINIMA, 2)}, bands to {computed.raw_grade}; {letter} "
                    f"needs a weighted mean of {float(bound):g}. Every counted answer below 5.0 follows, biggest "
                    "gain first.",
                )
            )
            below = PASS_VALUE
    low = [
        (gain_to_five(scored, computed.answers), scored, answer)
        for scored, answer in zip(computed.answers, entry.gradings, strict=True)
        if scored.counted and scored.value is not None and scored.value < below
    ]
    for gain, _scored, answer in sorted(low, key=lambda item: (-item[0], item[1].position)):
        hints.append(
            Hint(
                kind="answer",
                where=where,
                link=link,
                gain=as_float(gain, 3),
                text=f"{answer.question_id} scored {answer.score} (weight {answer.weight:g}): "
                f"{_short(answer.reasoning)}",
            )
        )
    for scored, answer in zip(computed.answers, entry.gradings, strict=True):
        if scored.left_out == "stale":
            hints.append(
                Hint(
                    kind="stale",
                    where=where,
                    link=link,
                    text=f"{answer.question_id} is stale (aged out) and counts for nothing: re-run it.",
                )
            )
        elif scored.left_out == "n/a" and answer.na_reason == "blocked-by-precondition":
            hints.append(
                Hint(
                    kind="n/a",
                    where=where,
                    link=link,
                    text=f"{answer.question_id} is n/a because a precondition is not met: meet it and "
                    "grade the question.",
                )
            )
    if computed.trimmed and veto is None and entry.grading_mode == "full":
        hints.append(
            Hint(
                kind="tier",
                where=where,
                link=link,
                text=f"The answers reach {computed.raw_grade}, but {entry.area} is an autonomous area, capped at "
                f"{TIER_CAP['autonomous']}. Grade A needs a group-bound grading: add the namespace to a "
                "selection and run the selection areas.",
            )
        )
    if entry.grading_mode == "partial":
        hints.append(
            Hint(
                kind="partial",
                where=where,
                link=link,
                text="This is a partial grading: the grade stays at the last full grading's. "
                "Run a full grading to move it.",
            )
        )
    if (
        record.grade in ("A", "B")
        and veto is None
        and not any(a.determinism == "non-deterministic" for a in entry.gradings)
    ):
        hints.append(
            Hint(
                kind="llm",
                where=where,
                link=link,
                text="For B or better the spec asks for at least one non-deterministic (LLM) answer; "
                "this entry has none.",
            )
        )
    return hints


def rollup_hints(rollup: Rollup, links: dict[str, str]) -> list[Hint]:
    """`links` maps a node's label to the page of its current entry."""
    hints: list[Hint] = []
    for blocker in rollup.blockers:
        hints.append(Hint(kind="blocked", where=blocker.node, text=f"Blocked: {blocker.reason}."))
    for node in rollup.nodes:
        link = links.get(node.label)
        current = node.current
        graded_here = current is not None and current.entry is not None and node.source == "entries"
        if node.status == "rejected" and not graded_here:
            why = "one of its nodes is rejected" if node.source == "derived" else "index.json says so"
            hints.append(
                Hint(
                    kind="rejected",
                    where=node.label,
                    link=link,
                    text=f"Rejected ({why}): the rollup stays rejected while it is.",
                )
            )
        elif node.status == "pending" and node.kind not in ("schema", "member"):
            hints.append(
                Hint(
                    kind="pending", where=node.label, link=link, text=f"Not graded yet: {node.reason or 'no grading'}."
                )
            )
        if graded_here and current is not None:
            hints.extend(entry_hints(current, where=node.label, link=link))
    answer_hints = sorted((h for h in hints if h.kind == "answer"), key=lambda h: (-(h.gain or 0), h.where or ""))
    others = [h for h in hints if h.kind != "answer"]
    return _dedupe([*others, *answer_hints])


def stable_gap(node: Node) -> str | None:
    """Why a graded node is not stable (shown beside it)."""
    current = node.current
    if node.status != "graded" or current is None or current.entry is None:
        return None
    if current.entry.grading_mode != "full":
        return "the newest grading is partial"
    return f"stable needs {TIER_CAP[current.tier]}, the {current.tier} maximum"


def report_hints(record: ReportRecord, reasoning: dict[str, str | None] | None = None) -> list[Hint]:
    """`reasoning` fills in a dimension's reasoning from scores.json where the report has none."""
    report = record.report
    reasoning = reasoning or {}
    hints: list[Hint] = []
    if not report.validation_passed:
        hints.append(
            Hint(
                kind="validation",
                text="Validation failed, so the grade is F whatever the scores: "
                "fix every validation error below and grade again.",
            )
        )
        for error in report.validation_errors:
            text = error if isinstance(error, str) else error.get("message") or str(error)
            hints.append(Hint(kind="validation", text=f"Fix: {_short(str(text))}"))
    count = len(report.dimensions)
    below = HINT_BELOW
    cap = TIER_CAP[REPORT_TIER]
    higher = [(bound, letter) for bound, letter in BANDS if bound > record.score and not better(letter, cap)]
    if report.validation_passed and record.grade == cap and count:
        hints.append(
            Hint(
                kind="grade",
                text=f"{cap} is the most a Scoring Protocol report can reach: its dimensions are autonomous, "
                "and A needs a group-bound (selection-side) grading. Every dimension below 5.0 follows, "
                "biggest gain first.",
            )
        )
        below = PASS_VALUE
    elif report.validation_passed and higher and count:
        bound, letter = min(higher)
        points = (bound - record.score) * count
        hints.append(
            Hint(
                kind="grade",
                text=f"The mean, {banded(record.score, _MINIMA, 2)}, bands to {record.grade}; {letter} needs a mean of "
                f"{float(bound):g}: {float(points):g} more points across the {count} dimensions. "
                "Every dimension below 5.0 follows, biggest gain first.",
            )
        )
        below = PASS_VALUE
    low = [d for d in report.dimensions if exact(d.score) < below]
    for dimension in sorted(low, key=lambda d: (d.score, d.dimension)):
        gain = (5 - exact(dimension.score)) / count
        hints.append(
            Hint(
                kind="dimension",
                where=None,
                gain=as_float(gain, 3),
                text=f"{dimension.dimension} scored {dimension.score}: "
                f"{_short(dimension.reasoning or reasoning.get(dimension.dimension))}",
            )
        )
    return hints


def _dedupe(hints: list[Hint]) -> list[Hint]:
    seen: set[tuple[str, str, str | None]] = set()
    kept = []
    for hint in hints:
        key = (hint.kind, hint.text, hint.where)
        if key not in seen:
            seen.add(key)
            kept.append(hint)
    return kept
