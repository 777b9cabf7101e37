"""A Scoring Protocol v1 report's pages and their API JSON: `scoring-reports/<slug>/index.html`
for a schema's current report, and a page per report file, each with its dimensions, the grade
recomputed from them and the schema's history of reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from builder import urls
from builder.flowmcp.pages.hints import Hint, report_hints
from builder.flowmcp.pages.views import (
    Context,
    DifferenceView,
    View,
    api_json,
    differences,
    labelled,
    mean_text,
)
from builder.flowmcp.reports import ReportRecord, ReportSet
from builder.flowmcp.rules import GRADING_SYSTEM
from builder.pages.page import DataFile, Page
from builder.urls import slug


class DimensionView(View):
    dimension: str
    score: float
    reasoning: str | None
    prompt: str | None
    below_b: bool


class ReportVersion(View):
    file: str
    date: str
    grade: str
    stored_grade: str
    score: float
    score_text: str
    page: str
    current: bool


class ReportContext(Context):
    folder: str
    slug: str
    file: str
    current: bool
    schema_id: str
    schema_id_slug: str
    schema_path: str | None
    schema_hash: str
    date: str
    stored_grade: str
    grade: str
    raw_grade: str
    """The band of the score before the tier trim (a report is capped at B, like an autonomous area)."""
    stored_score: float
    score: float
    """The mean of the dimension scores, unrounded."""
    score_text: str
    """`score` as printed: it bands to the band of the score."""
    scoring_protocol: str
    grading_system: str
    """The bands this site applied (the protocol delegates them to the Grading-Spec)."""
    creator: dict[str, str | None]
    harness: dict[str, str | None]
    timestamps: dict[str, str | None]
    dimensions: list[DimensionView]
    validation_passed: bool
    validation_errors: list[str]
    prompts_file: str | None
    scores_file: str | None
    scoring_instructions: str | None
    history: list[ReportVersion]
    differences: list[DifferenceView]
    hints: list[Hint]
    api_path: str
    section_path: str
    report_page: str


def report_context(found: ReportSet, record: ReportRecord, *, as_index: bool) -> ReportContext:
    report = record.report
    prompts = {p.dimension: p.prompt for p in found.prompts.prompts} if found.prompts else {}
    given = {s.dimension: s.reasoning for s in found.scores.scores} if found.scores else {}
    file_slug = slug(record.stem)
    api = urls.flowmcp_report_api(found.slug) if as_index else urls.flowmcp_report_version_api(found.slug, file_slug)
    reasoning = {d.dimension: d.reasoning or given.get(d.dimension) for d in report.dimensions}
    return ReportContext(
        title=f"Scoring report: {report.schema_id} ({report.date})",
        description=f"Scoring Protocol v1 report of {report.schema_id}: grade {record.grade}, "
        f"score {mean_text(record.score)}.",
        folder=found.folder,
        slug=found.slug,
        file=record.file,
        current=record is found.current,
        schema_id=report.schema_id,
        schema_id_slug=report.schema_id_slug,
        schema_path=report.schema_path,
        schema_hash=report.schema_hash,
        date=report.date,
        stored_grade=report.grade,
        grade=record.grade,
        raw_grade=record.raw_grade,
        stored_score=report.score,
        score=float(record.score),
        score_text=mean_text(record.score) or "—",
        scoring_protocol=report.scoring_protocol,
        grading_system=GRADING_SYSTEM,
        creator={
            "skill": report.creator.skill,
            "skillVersion": report.creator.skill_version,
            "session": report.creator.session,
        },
        harness={
            "name": report.harness.name,
            "version": report.harness.version,
            "model": report.harness.model,
            "modelContext": report.harness.model_context,
        },
        timestamps={
            "startedAt": report.timestamps.started_at,
            "scoredAt": report.timestamps.scored_at,
            "gradedAt": report.timestamps.graded_at,
            "reportedAt": report.timestamps.reported_at,
        },
        dimensions=[
            DimensionView(
                dimension=d.dimension,
                score=d.score,
                reasoning=reasoning[d.dimension],
                prompt=prompts.get(d.dimension),
                below_b=d.score < 3.5,
            )
            for d in report.dimensions
        ],
        validation_passed=report.validation_passed,
        validation_errors=[
            e if isinstance(e, str) else json.dumps(e, ensure_ascii=False, sort_keys=True)
            for e in report.validation_errors
        ],
        prompts_file=found.prompts_file,
        scores_file=found.scores_file,
        scoring_instructions=found.prompts.scoring_instructions if found.prompts else None,
        history=[
            ReportVersion(
                file=r.file,
                date=r.report.date,
                grade=r.grade,
                stored_grade=r.report.grade,
                score=float(r.score),
                score_text=mean_text(r.score) or "—",
                page=urls.flowmcp_report_version_page(found.slug, slug(r.stem)),
                current=r is found.current,
            )
            for r in reversed(found.reports)
        ],
        differences=differences(record.differences),
        hints=report_hints(record, reasoning),
        api_path=api,
        section_path=urls.FLOWMCP,
        report_page=urls.flowmcp_report_page(found.slug),
    )


def report_outputs(found: ReportSet) -> Iterator[Page | DataFile]:
    models = [record.report.harness.model for record in found.reports]  # each page lists every version
    current = labelled(report_context(found, found.current, as_index=True), models)
    yield Page(urls.flowmcp_report_page(found.slug), "flowmcp/report.html", current)
    yield DataFile(current.api_path, api_json(current))
    for record in found.reports:
        version = labelled(report_context(found, record, as_index=False), models)
        yield Page(urls.flowmcp_report_version_page(found.slug, slug(record.stem)), "flowmcp/report.html", version)
        yield DataFile(version.api_path, api_json(version))
