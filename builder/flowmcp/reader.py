"""The FlowMCP part of a data directory: the `grading-data/` tree and the `scoring-reports/`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.engine.problems import ProblemLog
from builder.flowmcp.layout import GRADING_DATA
from builder.flowmcp.records import EntryRecord, Rollup
from builder.flowmcp.reports import REPORTS_DIR, ReportSet, read_reports
from builder.flowmcp.tree import read_tree
from builder.sources.datafolder import kind

STAND_IN_PREFIX = "stand-in/"
"""Model names of stand-ins (synthetic example data), as on the rest of the site."""


@dataclass(frozen=True)
class FlowCorpus:
    providers: tuple[Rollup, ...]
    selections: tuple[Rollup, ...]
    reports: tuple[ReportSet, ...]

    @property
    def rollups(self) -> tuple[Rollup, ...]:
        return self.providers + self.selections

    @property
    def entries(self) -> tuple[EntryRecord, ...]:
        return tuple(record for rollup in self.rollups for record in rollup.entries)

    @property
    def models(self) -> list[str]:
        """Every model named by a grading answer or a report, sorted."""
        names = {
            answer.llm_model
            for record in self.entries
            if record.entry is not None
            for answer in record.entry.gradings
            if answer.llm_model
        }
        names |= {record.report.harness.model for found in self.reports for record in found.reports}
        return sorted(names)

    @property
    def stand_in_models(self) -> list[str]:
        return [name for name in self.models if name.startswith(STAND_IN_PREFIX)]

    @property
    def data_as_of(self) -> str | None:
        """The newest timestamp in the data: entry file names and report dates. Never the clock."""
        stamps = [record.name.timestamp for record in self.entries]
        for found in self.reports:
            for record in found.reports:
                times = record.report.timestamps
                stamps.append(times.reported_at or times.graded_at or f"{record.report.date}T00:00:00Z")
        return max(stamps) if stamps else None


def read(data_dir: Path, log: ProblemLog) -> FlowCorpus | None:
    """None when the data directory has neither a `grading-data/` nor a `scoring-reports/` folder."""
    tree, reports_dir = data_dir / GRADING_DATA, data_dir / REPORTS_DIR
    tree_kind, reports_kind = kind(tree), kind(reports_dir)
    # A linked folder is reported by the part that reads it and never followed (builder.sources.datafolder).
    if tree_kind == "missing" and reports_kind == "missing":
        return None
    providers, selections = read_tree(tree, data_dir, log) if tree_kind != "missing" else ((), ())
    reports = read_reports(reports_dir, data_dir, log) if reports_kind != "missing" else ()
    if tree_kind != "folder" and reports_kind != "folder":
        return None
    return FlowCorpus(providers, selections, reports)
