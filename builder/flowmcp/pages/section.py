"""The FlowMCP section: Grading-Spec namespaces and selections, their grading entries, and the
Scoring Protocol v1 reports.

Pages (each with its API JSON under `api/flowmcp/…`):
- `flowmcp/index.html`: statistics (grades, node and rollup statuses, area means, answers left out
  of the mean), every namespace, selection and report, and the section's data problems;
- `providers/<ns>/index.html`: a namespace with its schemas, tools, about, description, skills,
  blockers, what index.json states differently, and how to raise the grade;
- `selections/<sel>/index.html`: a selection with its members and the frozen lockSnapshot;
- `<node folder>/_gradings/<entry>/index.html`: one grading entry with every answer and its node's
  audit trail, at a path mirroring the tree (`providers/<ns>/<schema>/tools/<tool>/_gradings/…`);
- `scoring-reports/<slug>/index.html`: the current report of a schema, and a page per report.

This module makes the section's own page and plans the others, each made by the module of its
page kind (provider, selection, entry, report). `system()` is the
section's entry for `builder.systems.all_systems()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

from builder import urls
from builder.config import SiteConfig
from builder.engine.grading_system import GradingSystem
from builder.engine.json_schema import model_schema
from builder.engine.problems import ProblemLog
from builder.engine.records import Contribution, Gathering, ReadContext, RecordSystem
from builder.flowmcp import SYSTEM, reader, store
from builder.flowmcp.add import ENTRY, REPORT
from builder.flowmcp.models import GradingEntry, IndexFile, SelectionDefinition
from builder.flowmcp.pages import stats as flowmcp_stats
from builder.flowmcp.pages.entry import entry_outputs
from builder.flowmcp.pages.provider import provider_outputs
from builder.flowmcp.pages.report import report_outputs
from builder.flowmcp.pages.selection import selection_outputs
from builder.flowmcp.pages.stats import FlowStats
from builder.flowmcp.pages.views import SECTION, Context, View, api_json, mean_text, rollup_page
from builder.flowmcp.reader import FlowCorpus
from builder.flowmcp.records import Rollup
from builder.flowmcp.report_models import GradeReport
from builder.flowmcp.reports import SYSTEM as REPORTS_SYSTEM
from builder.flowmcp.reports import ReportSet
from builder.pages.page import DataFile, NavItem, Output, Page
from builder.store import queries as store_queries
from builder.store.spool import Spool

PROBLEMS_SHOWN = 50
"""The section page lists this many of its input problems; the problems page lists all."""


class RollupRow(View):
    name: str
    kind: str
    status: str
    grade: str | None
    stored_status: str | None
    stored_grade: str | None
    differences: int
    blockers: int
    last_scored_under: str | None
    last_graded_under: str | None
    page: str


class ReportRow(View):
    schema_id: str
    date: str
    grade: str
    stored_grade: str
    score: float
    score_text: str
    validation_passed: bool
    model: str
    differences: int
    page: str


class ProblemRow(View):
    file: str
    json_path: str
    reason: str
    severity: str
    code: str | None


class SectionContext(Context):
    stats: FlowStats
    providers: list[RollupRow]
    selections: list[RollupRow]
    reports: list[ReportRow]
    problems: list[ProblemRow]
    problem_count: int
    grade_chart: dict[str, Any]
    status_chart: dict[str, Any]
    api_path: str


def outputs(con: duckdb.DuckDBPyConnection, corpus: FlowCorpus, config: SiteConfig) -> Iterator[Page | DataFile]:
    section = section_context(con, corpus)
    yield Page(urls.FLOWMCP, "flowmcp/index.html", section)
    yield DataFile(urls.FLOWMCP_API, api_json(section, exclude={"grade_chart", "status_chart"}))
    providers = {rollup.name: rollup for rollup in corpus.providers}
    for rollup in corpus.rollups:
        if rollup.kind == "provider":
            yield from provider_outputs(rollup, config)
        else:
            yield from selection_outputs(rollup, providers)
        yield from entry_outputs(rollup)
    for found in corpus.reports:
        yield from report_outputs(found)


def section_context(con: duckdb.DuckDBPyConnection, corpus: FlowCorpus) -> SectionContext:
    stats = flowmcp_stats.compute(con)
    problems = [
        ProblemRow(
            file=row["file"],
            json_path=row["jsonPath"],
            reason=row["reason"],
            severity=row["severity"],
            code=row["code"],
        )
        for system in (SYSTEM, REPORTS_SYSTEM)
        for row in store_queries.run(con, "problems_for_system", {"system": system})
    ]
    problems.sort(key=lambda p: (p.severity != "error", p.file, p.json_path))
    return SectionContext(
        stand_in_models=corpus.stand_in_models,
        title=SECTION,
        description="FlowMCP schemas graded under the Grading-Spec and the Scoring Protocol v1: every grade "
        "recomputed from its answers, every rollup from its entries.",
        stats=stats,
        providers=[_rollup_row(r) for r in corpus.providers],
        selections=[_rollup_row(r) for r in corpus.selections],
        reports=[_report_row(found) for found in corpus.reports],
        problems=problems[:PROBLEMS_SHOWN],
        problem_count=len(problems),
        grade_chart=flowmcp_stats.grade_chart(stats),
        status_chart=flowmcp_stats.node_status_chart(stats),
        api_path=urls.FLOWMCP_API,
    )


def _rollup_row(rollup: Rollup) -> RollupRow:
    return RollupRow(
        name=rollup.name,
        kind=rollup.kind,
        status=rollup.status,
        grade=rollup.grade,
        stored_status=rollup.stored_status,
        stored_grade=rollup.stored_grade,
        differences=len(rollup.differences),
        blockers=len(rollup.blockers),
        last_scored_under=rollup.last_scored_under,
        last_graded_under=rollup.last_graded_under,
        page=rollup_page(rollup),
    )


def _report_row(found: ReportSet) -> ReportRow:
    record = found.current
    return ReportRow(
        schema_id=record.report.schema_id,
        date=record.report.date,
        grade=record.grade,
        stored_grade=record.report.grade,
        score=float(record.score),
        score_text=mean_text(record.score) or "—",
        validation_passed=record.report.validation_passed,
        model=record.report.harness.model,
        differences=len(record.differences),
        page=urls.flowmcp_report_page(found.slug),
    )


def nav(corpus: FlowCorpus) -> list[NavItem]:
    del corpus
    return [NavItem(SECTION, urls.FLOWMCP)]


class _Gathering(Gathering):
    def __init__(self) -> None:
        self.parts: list[tuple[str, bool, object]] = []

    def take(self, gathered: Any, spool: Spool) -> None:
        self.parts.append(gathered)

    def finish(self, context: ReadContext, outputs: list[Output], spool: Spool) -> FlowCorpus | None:
        return reader.corpus(self.parts)


class FlowRecords(RecordSystem[reader.Part, tuple[str, bool, object]]):
    """A source is one part of the data directory (`grading-data/`, `scoring-reports/`), read
    whole; its records plan no outputs of their own: every page is planned from the gathered
    corpus and the store."""

    name = SYSTEM

    def discover(self, data_dir: Path, log: ProblemLog) -> list[reader.Part] | None:
        return reader.discover(data_dir)

    def digest(self, source: reader.Part) -> str:
        raise NotImplementedError("FlowMCP's parts are read in the build's process, never cached")

    def read(self, source: reader.Part, data_dir: Path, log: ProblemLog, digest: str | None
             ) -> tuple[str, bool, object]:
        return reader.read_part(source, data_dir, log)

    def contribute(self, record: tuple[str, bool, object] | None, log: ProblemLog, config: SiteConfig
                   ) -> Contribution:
        return Contribution(gathered=record)

    def gathering(self) -> Gathering:
        return _Gathering()


def schemas() -> dict[str, dict[str, Any]]:
    return {
        "flowmcp-grading-entry.schema.json": model_schema(
            GradingEntry, "grading-data/…/_gradings/*.json: one Grading-Spec grading entry"),
        "flowmcp-index.schema.json": model_schema(IndexFile, "grading-data/…/index.json (rollup, compared)"),
        "flowmcp-selection.schema.json": model_schema(
            SelectionDefinition, "grading-data/selections/<sel>/selection/*.json: a neutral selection definition"),
        "scoring-protocol-report.schema.json": model_schema(
            GradeReport, "scoring-reports/<schemaIdSlug>/*.json: one Scoring Protocol v1 report"),
    }


def system() -> GradingSystem:
    return GradingSystem(
        key=SYSTEM,
        records=FlowRecords(),
        load=store.load,
        outputs=outputs,
        nav=nav,
        stand_in_models=lambda corpus: corpus.stand_in_models,
        data_as_of=lambda corpus: corpus.data_as_of,
        adds=(ENTRY, REPORT),
        schemas=schemas,
    )
