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


Part = tuple[str, Path]
"""A source of FlowMCP's: `grading-data` or `scoring-reports`, and its path. Each is read whole:
a selection's rollup is made of its providers' rollups."""
GRADING, REPORTS = "grading-data", "scoring-reports"


def discover(data_dir: Path) -> list[Part] | None:
    """The parts the data directory has (a linked folder among them: it is reported by the part
    that reads it and never followed); None when it has neither."""
    parts = [(GRADING, data_dir / GRADING_DATA), (REPORTS, data_dir / REPORTS_DIR)]
    found = [(name, path) for name, path in parts if kind(path) != "missing"]
    return found or None


def read_part(part: Part, data_dir: Path, log: ProblemLog) -> tuple[str, bool, object]:
    """The part read: its name, whether it is a folder, and its rollups (providers, selections)
    or its report sets."""
    name, path = part
    if name == GRADING:
        return name, kind(path) == "folder", read_tree(path, data_dir, log)
    return name, kind(path) == "folder", read_reports(path, data_dir, log)


def corpus(parts: list[tuple[str, bool, object]]) -> FlowCorpus | None:
    """The corpus of the parts read; None when neither is a folder."""
    if not any(folder for _, folder, _ in parts):
        return None
    providers: tuple[Rollup, ...] = ()
    selections: tuple[Rollup, ...] = ()
    reports: tuple[ReportSet, ...] = ()
    for name, _, read in parts:
        if name == GRADING:
            providers, selections = read  # type: ignore[misc]
        else:
            reports = read  # type: ignore[assignment]
    return FlowCorpus(providers, selections, reports)


def read(data_dir: Path, log: ProblemLog) -> FlowCorpus | None:
    """None when the data directory has neither a `grading-data/` nor a `scoring-reports/` folder."""
    parts = discover(data_dir)
    return None if parts is None else corpus([read_part(part, data_dir, log) for part in parts])
