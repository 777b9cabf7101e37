"""The CLEO agent-session section: the sessions index, a page per session and per run, the API.

Pages (see `builder.cleo.corpus` for why sessions and runs are split this way):
- `sessions/index.html`: statistics, the graded sessions (sortable by score and time), and apart
  from them the sessions CLEO found no audit entries for, which are not graded at all;
- `sessions/<session>/index.html`: the current run in full and every run over time, and its
  embeddable card (`card.svg` beside it);
- `sessions/<session>/runs/<run>/index.html`: one run in full, at a path that never changes;
- `api/sessions.json`: every valid row.

`system()` is the section's entry for `builder.systems.all_systems()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

from builder import cleo as source
from builder import numbers, urls
from builder.cleo import queries, store
from builder.cleo.add import KIND as ADD_KIND
from builder.cleo.corpus import CleoCorpus, Session, build_corpus
from builder.cleo.models import GradeResult
from builder.cleo.pages import stats as cleo_stats
from builder.cleo.pages.api import sessions_api
from builder.cleo.pages.card import session_card_file, session_card_view
from builder.cleo.pages.chart import score_timeline
from builder.cleo.pages.contexts import (
    RubricDimension,
    RunContext,
    ScaleStep,
    SessionContext,
    SessionIndexContext,
)
from builder.cleo.pages.views import (
    RunGrade,
    display_id,
    graded_at,
    run_row,
    run_view,
    session_row,
)
from builder.cleo.reader import GradeLine, grade_files, read_grade_file
from builder.cleo.rubric import DIMENSIONS
from builder.config import CleoGradeScale, SiteConfig
from builder.engine.grading_system import GradingSystem
from builder.engine.incremental import content_key
from builder.engine.json_schema import model_schema
from builder.engine.problems import Problem, ProblemLog
from builder.engine.records import Contribution, Gathering, ReadContext, RecordSystem
from builder.pages.page import DataFile, NavItem, Output, Page
from builder.sources.datafolder import report_skipped
from builder.sources.jsonfile import relative_name
from builder.store import queries as store_queries
from builder.store.spool import Spool
from builder.store.tables import query_dicts

SECTION = "Agent sessions"
TITLE_ID_LIMIT = 60
PROBLEMS_SHOWN = 50
"""The index lists this many of the section's input problems; the problems page lists all."""


def run_grades(con: duckdb.DuckDBPyConnection, scale: CleoGradeScale) -> dict[str, RunGrade]:
    rows = query_dicts(con, "SELECT run_key, share, grade FROM cleo_run_grades")
    minima = (scale.a, scale.b, scale.c, scale.d)
    return {
        row["run_key"]: RunGrade(
            share=row["share"], grade=row["grade"], share_text=numbers.banded_percent(row["share"], minima)
        )
        for row in rows
    }


def outputs(
    con: duckdb.DuckDBPyConnection, corpus: CleoCorpus, config: SiteConfig
) -> Iterator[Page | DataFile]:
    store.apply_grade_scale(con, config.cleo_grades)
    grades = run_grades(con, config.cleo_grades)
    yield index_page(con, corpus, grades, config)
    for session in corpus.sessions:
        yield session_page(session, grades, config)
        yield session_card_file(session, grades[session.current.key])
        yield from run_pages(session, grades)
    yield sessions_api(corpus, grades, config.cleo_grades)


def index_page(
    con: duckdb.DuckDBPyConnection,
    corpus: CleoCorpus,
    grades: dict[str, RunGrade],
    config: SiteConfig,
) -> Page:
    rows = [session_row(s, grades[s.current.key]) for s in corpus.sessions]
    newest_first = sorted(rows, key=lambda r: (-float(r.graded_at.sort), r.session_id))
    scale = config.cleo_grades
    chart = score_timeline(queries.run(con, "timeline"), scale)
    problems = [Problem.model_validate(row)
                for row in store_queries.run(con, "problems_for_system", {"system": source.SYSTEM})]
    errors = sum(1 for problem in problems if problem.severity == "error")
    context = SessionIndexContext(
        title=f"{SECTION} (CLEO)",
        description="AI coding agents' sessions graded by CLEO's five-dimension rubric.",
        summary=cleo_stats.summary(con),
        rubric=[RubricDimension(label=d.label, measures=d.measures) for d in DIMENSIONS],
        scale=[ScaleStep(grade=g, min_share=s) for g, s in
               (("A", scale.a), ("B", scale.b), ("C", scale.c), ("D", scale.d))],
        graded=[row for row in newest_first if row.gradable],
        ungradable=[row for row in newest_first if not row.gradable],
        distribution=cleo_stats.grade_distribution(con),
        dimension_means=cleo_stats.dimension_means(con),
        top_flags=cleo_stats.top_flags(con),
        chart=chart,
        api_path=urls.CLEO_SESSIONS_API,
        problems=problems[:PROBLEMS_SHOWN],
        problem_errors=errors,
        problem_warnings=len(problems) - errors,
        problems_page=urls.PROBLEMS,
    )
    return Page(urls.CLEO_SESSIONS, "cleo/index.html", context)


def session_page(session: Session, grades: dict[str, RunGrade], config: SiteConfig) -> Page:
    current = run_view(session.current, grades[session.current.key])
    runs = [run_row(run, grades[run.key], run is session.current) for run in reversed(session.runs)]
    state = f"grade {current.grade}" if current.gradable else "not gradable: no audit entries"
    context = SessionContext(
        title=f"Session {display_id(session.session_id, TITLE_ID_LIMIT)}",
        description=f"CLEO's grading of an agent session ({state}, {len(runs)} run(s)).",
        session_id=session.session_id,
        index_page=urls.CLEO_SESSIONS,
        current=current,
        runs=runs,
        synthetic_runs=sum(1 for run in session.runs if run.synthetic),
        card=session_card_view(session, config),
    )
    return Page(urls.cleo_session_page(session.slug), "cleo/session.html", context)


def run_pages(session: Session, grades: dict[str, RunGrade]) -> Iterator[Page]:
    current = session.current
    session_path = urls.cleo_session_page(session.slug)
    for run in session.runs:
        view = run_view(run, grades[run.key])
        short_id = display_id(session.session_id, TITLE_ID_LIMIT)
        context = RunContext(
            title=f"Run {view.graded_at.text} · session {short_id}",
            description="One CLEO grading run of an agent session.",
            session_id=session.session_id,
            index_page=urls.CLEO_SESSIONS,
            session_page=session_path,
            run=view,
            is_current=run is current,
            current_page=urls.cleo_run_page(current.session_slug, current.run_slug),
            current_graded_at=graded_at(current.result.graded_at),
        )
        yield Page(view.page, "cleo/run.html", context)


def nav(corpus: CleoCorpus) -> list[NavItem]:
    return [NavItem(SECTION, urls.CLEO_SESSIONS)]


class _Gathering(Gathering):
    """The lines of every file, in the files' order; the corpus is made of them all at once (a
    session's runs may be spread over several files)."""

    def __init__(self) -> None:
        self.lines: list[GradeLine] = []
        self.files: list[str] = []

    def take(self, gathered: Any, spool: Spool) -> None:
        name, lines = gathered
        self.files.append(name)
        self.lines.extend(lines)

    def finish(self, context: ReadContext, outputs: list[Output], spool: Spool) -> CleoCorpus:
        return build_corpus(self.lines, self.files)


class CleoRecords(RecordSystem[Path, tuple[str, list[GradeLine]]]):
    """A source is one `sessions/*.jsonl` file; its record, the file's valid lines. Its records
    plan no outputs of their own: every page is planned from the gathered corpus and the store."""

    name = source.SYSTEM

    def discover(self, data_dir: Path, log: ProblemLog) -> list[Path] | None:
        skipped: list[Path] = []
        files = grade_files(data_dir, skipped)
        report_skipped(skipped, data_dir, source.SYSTEM, log)
        return files or None

    def digest(self, path: Path) -> str:
        return content_key(path.name, path.read_bytes())

    def read(self, path: Path, data_dir: Path, log: ProblemLog, digest: str | None) -> tuple[str, list[GradeLine]]:
        return relative_name(path, data_dir), read_grade_file(path, data_dir, log)

    def contribute(self, record: tuple[str, list[GradeLine]] | None, log: ProblemLog, config: SiteConfig
                   ) -> Contribution:
        return Contribution(gathered=record)

    def gathering(self) -> Gathering:
        return _Gathering()


def system() -> GradingSystem:
    return GradingSystem(
        key=source.SYSTEM,
        records=CleoRecords(),
        load=store.load,
        outputs=outputs,
        nav=nav,
        data_as_of=lambda corpus: corpus.data_as_of,
        adds=(ADD_KIND,),
        schemas=lambda: {"cleo-grade-result.schema.json": model_schema(
            GradeResult, "sessions/*.jsonl: one line, a CLEO GradeResult")},
    )
