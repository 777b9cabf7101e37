"""Page contexts of the CLEO section: each model is its template's contract.

Numbers a table sorts on are kept as numbers (for `data-sort`) beside their display text, which
is made here once (`15`, not `15.0`) so templates never format points themselves. Everything from
GRADES.jsonl (session ids, evidence lines, flags, evaluator) is third-party text: the templates
escape it and never mark it safe.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from builder.engine.problems import Problem
from builder.numbers import Exact
from builder.pages.page import PageContext
from builder.publish.card_view import CardView


class View(BaseModel):
    model_config = ConfigDict(frozen=True)


class GradedAt(View):
    iso: str
    """UTC, ISO 8601 with Z: the `datetime` attribute of `<time>`."""
    text: str
    """`2026-03-18 19:52:45 UTC`."""
    sort: str
    """Seconds since the epoch, for `data-sort`."""


class DimensionView(View):
    key: str
    label: str
    measures: str
    score: float
    max: float
    score_text: str
    max_text: str
    lost_text: str | None
    """Points below the max, None when the dimension is full."""
    evidence: list[str]


class ChecklistItem(View):
    flag: str
    """The flag as CLEO wrote it."""
    known: bool
    """False when the rubric table has no rule for the flag: no rule or points are guessed."""
    dimension: str | None = None
    rule: str | None = None
    points: int | None = None
    up_to: bool = False
    action: str | None = None


class RunView(View):
    """One grading run in full: the body of a run page and of a session page."""

    session_id: str
    page: str
    graded_at: GradedAt
    timestamp: str
    """As CLEO wrote it."""
    task_id: str | None
    entry_count: int
    evaluator: str | None
    synthetic: bool
    file: str
    line: int
    gradable: bool
    grade: str | None
    share: float
    share_text: str
    total_text: str
    """The graded total: the sum of the dimension scores."""
    max_text: str
    stated_total_text: str | None
    """CLEO's stored totalScore when it is not the sum of the dimension scores (a data warning)."""
    dimension_max_text: str | None
    """The sum of the dimension maxima when it is not CLEO's stored maxScore."""
    dimensions: list[DimensionView]
    flags: list[str]
    checklist: list[ChecklistItem]
    recoverable_text: str | None
    """Points fixing the known flags can win back at most; None when nothing is to win."""


class RunRow(View):
    """One run as a row of a session's run history."""

    page: str
    graded_at: GradedAt
    gradable: bool
    grade: str | None
    share: float
    share_text: str
    total_text: str
    max_text: str
    entry_count: int
    flag_count: int
    current: bool
    synthetic: bool


class SessionRow(View):
    """One session as a row of the sessions index, by its current run."""

    session_id: str
    display_id: str
    page: str
    graded_at: GradedAt
    gradable: bool
    grade: str | None
    share: float
    share_text: str
    total_text: str
    max_text: str
    flag_count: int
    runs: int
    evaluator: str | None
    synthetic: bool


class RubricDimension(View):
    label: str
    measures: str


class ScaleStep(View):
    grade: str
    min_share: float


class GradeBucket(View):
    grade: str
    min_share: float
    sessions: int
    share: Exact | None
    """`sessions` of the graded sessions, exactly (printed rounded once)."""


class DimensionMean(View):
    label: str
    sessions: int
    mean_text: str
    max_text: str
    """The maximum: as CLEO wrote it when every session has the same one, else the mean maximum
    to one decimal, like the mean beside it."""
    mean_share: Exact
    """The mean score over the mean maximum (the sum of the scores over the sum of the maxima), so
    the share printed beside "17.1 of 18.7" is that ratio, not a mean of per-session shares."""


class FlagCount(View):
    label: str
    known: bool
    dimension: str | None
    points: int | None
    up_to: bool
    sessions: int
    occurrences: int


class SectionSummary(View):
    sessions: int
    graded_sessions: int
    ungradable_sessions: int
    runs: int
    gradable_runs: int
    synthetic_runs: int
    mean_share: Exact | None
    """The mean of the graded sessions' shares of their maximum, exact (printed rounded once)."""
    first_graded: GradedAt | None
    last_graded: GradedAt | None


class SessionIndexContext(PageContext):
    summary: SectionSummary
    rubric: list[RubricDimension]
    scale: list[ScaleStep]
    graded: list[SessionRow]
    """Sessions whose current run is gradable, newest first."""
    ungradable: list[SessionRow]
    """Sessions with no gradable run: no audit entries, shown apart, never as an F."""
    distribution: list[GradeBucket]
    dimension_means: list[DimensionMean]
    top_flags: list[FlagCount]
    chart: dict[str, Any] | None
    """A Plotly figure of every gradable run's score over time; None when there is none."""
    api_path: str
    problems: list[Problem]
    """The section's input problems (lines skipped, totals that disagree), the first few."""
    problem_errors: int
    problem_warnings: int
    problems_page: str


class SessionContext(PageContext):
    session_id: str
    index_page: str
    current: RunView
    runs: list[RunRow]
    """Newest first."""
    synthetic_runs: int
    card: CardView
    """The session's embeddable card (builder.cleo.pages.card) and its snippets."""


class RunContext(PageContext):
    session_id: str
    index_page: str
    session_page: str
    run: RunView
    is_current: bool
    current_page: str
    current_graded_at: GradedAt
