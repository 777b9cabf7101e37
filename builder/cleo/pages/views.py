"""Runs and sessions as the views the CLEO pages show: display text made once, grades looked up.

Letter grades are not computed here: they come from the store's `cleo_run_grades` view, the one
place the site's scale is applied, and arrive as a `RunGrade` per run key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from builder import numbers, urls
from builder.cleo.corpus import Run, Session
from builder.cleo.pages.checklist import checklist, recoverable_points
from builder.cleo.pages.contexts import DimensionView, GradedAt, RunRow, RunView, SessionRow
from builder.cleo.rubric import DIMENSION_BY_KEY

DISPLAY_ID_LIMIT = 80
"""Session ids are shown in full on their own page; tables show this many characters."""


@dataclass(frozen=True)
class RunGrade:
    share: float
    grade: str | None
    share_text: str = ""
    """The share as a percentage that bands to `grade` (builder.numbers.banded_percent)."""


def points(value: float) -> str:
    """`15.0` → `15`, `12.5` → `12.5`, `89.99` → `89.99`: CLEO's points as it wrote them, with
    every decimal they have, so a total never rounds across a letter's threshold."""
    if value.is_integer():
        return f"{int(value)}"
    return numbers.shortest(value)


def display_id(session_id: str, limit: int = DISPLAY_ID_LIMIT) -> str:
    return session_id if len(session_id) <= limit else session_id[: limit - 1] + "…"


def graded_at(moment: datetime) -> GradedAt:
    """A moment for display; a naive one (DuckDB's TIMESTAMP) is UTC, never local time."""
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return GradedAt(
        iso=utc.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        text=utc.strftime("%Y-%m-%d %H:%M:%S UTC"),
        sort=f"{utc.timestamp():.3f}",
    )


def run_page(run: Run) -> str:
    return urls.cleo_run_page(run.session_slug, run.run_slug)


def run_view(run: Run, grade: RunGrade) -> RunView:
    result = run.result
    dimensions = result.dimensions.by_key()
    score_sum = result.dimensions.score_total
    max_sum = result.dimensions.max_total
    recoverable = recoverable_points(result) if run.gradable else 0.0
    return RunView(
        session_id=result.session_id,
        page=run_page(run),
        graded_at=graded_at(result.graded_at),
        timestamp=result.timestamp,
        task_id=result.task_id,
        entry_count=result.entry_count,
        evaluator=result.evaluator,
        synthetic=run.synthetic,
        file=run.file,
        line=run.line,
        gradable=run.gradable,
        grade=grade.grade,
        share=grade.share,
        share_text=grade.share_text,
        total_text=points(score_sum),
        max_text=points(result.max_score),
        stated_total_text=None if score_sum == result.total_score else points(result.total_score),
        dimension_max_text=None if max_sum == result.max_score else points(max_sum),
        dimensions=[
            DimensionView(
                key=key, label=DIMENSION_BY_KEY[key].label, measures=DIMENSION_BY_KEY[key].measures,
                score=d.score, max=d.max, score_text=points(d.score), max_text=points(d.max),
                lost_text=points(d.max - d.score) if d.score < d.max else None,
                evidence=list(d.evidence),
            )
            for key, d in dimensions.items()
        ],
        flags=list(result.flags),
        checklist=checklist(list(result.flags)),
        recoverable_text=points(recoverable) if recoverable > 0 else None,
    )


def run_row(run: Run, grade: RunGrade, current: bool) -> RunRow:
    result = run.result
    return RunRow(
        page=run_page(run), graded_at=graded_at(result.graded_at), gradable=run.gradable,
        grade=grade.grade, share=grade.share, share_text=grade.share_text,
        total_text=points(run.result.dimensions.score_total), max_text=points(result.max_score), entry_count=result.entry_count,
        flag_count=len(result.flags), current=current, synthetic=run.synthetic,
    )


def session_row(session: Session, grade: RunGrade) -> SessionRow:
    run = session.current
    return SessionRow(
        session_id=session.session_id, display_id=display_id(session.session_id),
        page=urls.cleo_session_page(session.slug), graded_at=graded_at(run.result.graded_at),
        gradable=run.gradable, grade=grade.grade, share=grade.share, share_text=grade.share_text,
        total_text=points(run.result.dimensions.score_total), max_text=points(run.result.max_score),
        flag_count=len(run.result.flags), runs=len(session.runs), evaluator=run.result.evaluator,
        synthetic=any(r.synthetic for r in session.runs),
    )
