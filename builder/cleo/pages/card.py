"""A CLEO session's embeddable card (builder.publish.cards): its current run's letter grade and share
of the maximum, the figures behind them (the graded total of the maximum, the audit entries it was
graded on, how many runs the session has) and the day it was graded, beside the session's page at
`sessions/<session>/card.svg`; a run CLEO could not grade (no audit entries) says so, and a
synthetic run (written for a demo, not by CLEO) says that on the chip."""

from __future__ import annotations

from builder import urls
from builder.cleo.corpus import Session
from builder.cleo.pages.views import RunGrade, graded_at, points
from builder.config import SiteConfig
from builder.dates import day_words
from builder.pages.page import DataFile
from builder.publish.card_view import CardView, card_view
from builder.publish.cards import Card, Figure

NOT_GRADABLE = "not gradable: no audit entries"


def _label(session: Session) -> str:
    return "CLEO (synthetic)" if session.current.synthetic else "CLEO"


def session_card(session: Session, grade: RunGrade) -> Card:
    run = session.current
    result = run.result
    graded = run.gradable and grade.grade is not None
    whose = [f"task {result.task_id}" if result.task_id else "", f"evaluator {result.evaluator}" if result.evaluator else ""]
    return Card(
        system="CLEO",
        name=session.session_id,
        identity=" · ".join(part for part in whose if part) or "an agent session graded by CLEO",
        tier=grade.grade if graded else None,
        score=grade.share_text if graded else None,
        figures=(
            Figure("Score", f"{points(result.dimensions.score_total)} of {points(result.max_score)}" if run.gradable
                   else "—"),
            Figure("Audit entries", str(result.entry_count)),
            Figure("Runs", str(len(session.runs))),
        ),
        scored=day_words(graded_at(result.graded_at).iso),
        no_grade=NOT_GRADABLE,
        note="synthetic" if run.synthetic else None,
        made="graded",
    )


def session_card_file(session: Session, grade: RunGrade) -> DataFile:
    return DataFile(urls.card_file(urls.cleo_session_page(session.slug)), lambda: session_card(session, grade).svg())


def session_card_view(session: Session, config: SiteConfig) -> CardView:
    return card_view(urls.cleo_session_page(session.slug), f"{_label(session)} scorecard of session {session.session_id}",
                     config)
