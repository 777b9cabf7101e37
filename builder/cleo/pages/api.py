"""`api/sessions.json`: every valid GRADES.jsonl row, as CLEO wrote it plus what the site derived.

Each run keeps CLEO's own fields and names (so a client that reads GRADES.jsonl reads this too)
and adds: where the row came from (`source`), whether it is gradable, its letter grade under this
site's scale, its share of maxScore, whether it is its session's current run, whether it is
synthetic demo data, and its page. Rows are in file and line order, as in the input.
"""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import BaseModel, ConfigDict, PlainSerializer
from pydantic.alias_generators import to_camel

from builder import urls
from builder.cleo.corpus import CleoCorpus, Run
from builder.cleo.pages.views import RunGrade, run_page
from builder.config import CleoGradeScale
from builder.pages.page import DataFile

Number = Annotated[
    float, PlainSerializer(lambda v: int(v) if v.is_integer() else v, return_type=int | float)
]
"""CLEO writes whole points as integers; the API does too (`15`, not `15.0`)."""


class Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ApiDimension(Camel):
    score: Number
    max: Number
    evidence: list[str]


class ApiSource(Camel):
    file: str
    line: int


class ApiRun(Camel):
    session_id: str
    task_id: str | None
    total_score: Number
    """As CLEO wrote it."""
    graded_total: Number
    """The sum of the dimension scores, which totalScore is by definition: what the run is graded on."""
    max_score: Number
    dimensions: dict[str, ApiDimension]
    flags: list[str]
    timestamp: str
    entry_count: int
    evaluator: str | None
    source: ApiSource
    gradable: bool
    grade: str | None
    share: float | None
    """gradedTotal / maxScore; None when the run is not gradable (its zeros are not a score)."""
    current: bool
    synthetic: bool
    page: str
    session_page: str


class ApiSessions(Camel):
    system: str = "cleo"
    grade_scale: dict[str, float]
    """Lowest share of maxScore for each letter; below D is F."""
    run_count: int
    runs: list[ApiRun]


def _api_run(run: Run, grade: RunGrade, current: bool) -> ApiRun:
    result = run.result
    return ApiRun(
        session_id=result.session_id, task_id=result.task_id, total_score=result.total_score,
        graded_total=result.dimensions.score_total, max_score=result.max_score,
        dimensions={
            key: ApiDimension(score=d.score, max=d.max, evidence=list(d.evidence))
            for key, d in result.dimensions.by_key().items()
        },
        flags=list(result.flags), timestamp=result.timestamp, entry_count=result.entry_count,
        evaluator=result.evaluator, source=ApiSource(file=run.file, line=run.line),
        gradable=run.gradable, grade=grade.grade,
        share=grade.share if run.gradable else None, current=current,
        synthetic=run.synthetic, page=run_page(run),
        session_page=urls.cleo_session_page(run.session_slug),
    )


def sessions_api(
    corpus: CleoCorpus, grades: dict[str, RunGrade], scale: CleoGradeScale
) -> DataFile:
    current = {session.current.key for session in corpus.sessions}
    document = ApiSessions(
        grade_scale={"A": scale.a, "B": scale.b, "C": scale.c, "D": scale.d},
        run_count=len(corpus.runs),
        runs=[_api_run(run, grades[run.key], run.key in current) for run in corpus.runs],
    )
    text = json.dumps(document.model_dump(by_alias=True, mode="json"), ensure_ascii=False, indent=1)
    return DataFile(urls.CLEO_SESSIONS_API, text + "\n")
