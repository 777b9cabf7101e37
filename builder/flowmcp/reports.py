"""Reads `scoring-reports/`: one folder per schema, named after its `schemaIdSlug`, holding the
Scoring Protocol v1 files of that schema.

```
scoring-reports/<schemaIdSlug>/prompts.json      optional: what the grader was asked
scoring-reports/<schemaIdSlug>/scores.json       optional: what the grader answered (latest run)
scoring-reports/<schemaIdSlug>/<any>.json        grade reports; the newest (date, reportedAt) is current
```

Every report's grade is recomputed: the score is the mean of its dimension scores (the protocol's
`GradeReporter.grade`), banded by gradingSystem/1.0.0 (to which the protocol delegates its
thresholds) and trimmed at the autonomous tier's maximum, B; a report whose deterministic
validation failed is an F whatever its scores.

Why the trim: the protocol delegates "the score-to-grade banding, the production gate, the
tier-trim rule" to the Grading-Spec (Schemas-Spec v4.2.0, 22-scoring-protocol.md, "Grade
Thresholds"); the Grading-Spec's dimension matrix makes `whenToUse` and `parameters` autonomous
(06-determinism-and-tier §4), caps an autonomous grading at B (07 §4.1 "Tier trim"; 06 §8.1) and
says "Grade A is not autonomously reachable" (06 §5 rule 4). A report grades only those two
dimensions, so it is trimmed like the provider areas of the same schema. FlowMCP's own
`GradeReporter` does not trim; where a report stores that untrimmed A, the page shows both.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from builder.engine.problems import ProblemLog, describe_validation_error
from builder.flowmcp.records import Difference
from builder.flowmcp.report_models import PROTOCOL, GradeReport, PromptsFile, ScoresFile
from builder.flowmcp.rules import as_float, band, exact, trim
from builder.sources.datafolder import entry_kind, kind, listing, report_skipped, skip_reason
from builder.sources.jsonfile import read_json, relative_name
from builder.urls import clash_reason, distinct_slugs, slug_clashes

SYSTEM = "scoring-protocol"
REPORTS_DIR = "scoring-reports"
PROMPTS = "prompts.json"
SCORES = "scores.json"
TIER = "autonomous"
"""A report's tier: its dimensions (whenToUse, parameters) are autonomous ones (Grading-Spec 06 §4)."""
SCORE_TOLERANCE = Fraction(1, 200)
"""A stored score may be rounded to two decimals: a difference up to 0.005 is not a disagreement."""

FileModel = TypeVar("FileModel", bound=BaseModel)


@dataclass(frozen=True)
class ReportRecord:
    file: str
    stem: str
    report: GradeReport
    score: Fraction
    """The mean of the dimension scores, recomputed."""
    grade: str
    """The recomputed grade: the band of `score` trimmed at B (the autonomous tier's maximum), or F
    when validation failed."""
    differences: tuple[Difference, ...]

    @property
    def raw_grade(self) -> str:
        """The band of `score` before the tier trim (the Grading-Spec's rawGrade)."""
        return band(self.score)

    @property
    def trimmed(self) -> bool:
        return self.report.validation_passed and self.raw_grade != self.grade

    @property
    def sort_key(self) -> tuple[str, str, str]:
        return (self.report.date, self.report.timestamps.reported_at or "", self.file)


@dataclass(frozen=True)
class ReportSet:
    folder: str
    slug: str
    reports: tuple[ReportRecord, ...]
    """Oldest first; the last one is current."""
    prompts: PromptsFile | None
    prompts_file: str | None
    scores: ScoresFile | None
    scores_file: str | None

    @property
    def current(self) -> ReportRecord:
        return self.reports[-1]

    @property
    def differences(self) -> tuple[Difference, ...]:
        return tuple(d for record in self.reports for d in record.differences)


def recompute(report: GradeReport) -> tuple[Fraction, str]:
    """The mean of the dimension scores and the grade: its band, trimmed at the tier's maximum."""
    mean = sum((exact(d.score) for d in report.dimensions), Fraction(0)) / len(report.dimensions)
    return mean, trim(band(mean), TIER) if report.validation_passed else "F"


def read_reports(root: Path, data_dir: Path, log: ProblemLog) -> tuple[ReportSet, ...]:
    found = kind(root)
    if found != "folder":
        report_skipped([root] if skip_reason(found) else [], data_dir, SYSTEM, log)
        return ()
    sets: list[ReportSet] = []
    entries = listing(root)
    slugs = distinct_slugs(entry.name for entry in entries if not entry.name.startswith(".") and entry_kind(entry) == "folder")
    for name, given, holder in slug_clashes(slugs):
        log.add(relative_name(root / name, data_dir), SYSTEM, "$", clash_reason(name, given, holder), severity="warning")
    for entry in entries:
        path = root / entry.name
        if entry.name.startswith("."):
            continue
        entry_type = entry_kind(entry)
        if entry_type == "folder":
            found_set = _read_folder(path, slugs[entry.name], data_dir, log)
            if found_set is not None:
                sets.append(found_set)
        elif skip_reason(entry_type):
            report_skipped([path], data_dir, SYSTEM, log)
        elif path.suffix == ".json":
            log.reject(
                relative_name(path, data_dir),
                SYSTEM,
                "$",
                "not in a schema folder: put each schema's files in scoring-reports/<schemaIdSlug>/",
            )
    return tuple(sets)


def _read_folder(folder: Path, folder_slug: str, data_dir: Path, log: ProblemLog) -> ReportSet | None:
    prompts_path, scores_path = folder / PROMPTS, folder / SCORES
    prompts = _read(prompts_path, PromptsFile, data_dir, log) if _regular(prompts_path, data_dir, log) else None
    scores = _read(scores_path, ScoresFile, data_dir, log) if _regular(scores_path, data_dir, log) else None
    records: list[ReportRecord] = []
    for entry in listing(folder):
        path = folder / entry.name
        if path.suffix != ".json" or path.name in (PROMPTS, SCORES) or path.name.startswith("."):
            continue
        file = relative_name(path, data_dir)
        entry_type = entry_kind(entry)
        if entry_type != "file":
            log.reject(file, SYSTEM, "$", skip_reason(entry_type) or "not a regular file")
            continue
        report = _read(path, GradeReport, data_dir, log)
        if report is not None:
            records.append(_record(file, path.stem, report, folder.name, log))
    if not records:
        return None
    records.sort(key=lambda r: r.sort_key)
    current = records[-1]
    extra = _cross_check(
        current, prompts, scores, relative_name(prompts_path, data_dir), relative_name(scores_path, data_dir), log
    )
    if extra:
        records[-1] = ReportRecord(
            current.file, current.stem, current.report, current.score, current.grade, current.differences + extra
        )
    return ReportSet(
        folder.name,
        folder_slug,
        tuple(records),
        prompts,
        relative_name(prompts_path, data_dir) if prompts else None,
        scores,
        relative_name(scores_path, data_dir) if scores else None,
    )


def _regular(path: Path, data_dir: Path, log: ProblemLog) -> bool:
    """A file of the data folder itself: symbolic links are never followed out of it (and are
    reported, as special files are)."""
    found = kind(path)
    if skip_reason(found):
        report_skipped([path], data_dir, SYSTEM, log)
    return found == "file"


def _read(path: Path, model: type[FileModel], data_dir: Path, log: ProblemLog) -> FileModel | None:
    file = relative_name(path, data_dir)
    document: Any = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return None
    if not isinstance(document, dict):
        log.reject(file, SYSTEM, "$", "a Scoring Protocol file is a JSON object")
        return None
    protocol = document.get("scoringProtocol", PROTOCOL)
    if protocol != PROTOCOL:
        log.reject(
            file,
            SYSTEM,
            "$.scoringProtocol",
            f"unknown scoringProtocol {protocol!r}: this site reads Scoring Protocol {PROTOCOL} only, "
            "and the protocol requires readers to reject versions they do not know",
        )
        return None
    try:
        return model.model_validate(document)
    except ValidationError as error:
        log.read(file, SYSTEM, rejected=True)
        for where, reason in describe_validation_error(error):
            log.add(file, SYSTEM, where, reason)
        return None


def _warn(log: ProblemLog, differences: list[Difference], difference: Difference) -> None:
    differences.append(difference)
    log.add(
        difference.file,
        SYSTEM,
        difference.json_path,
        f"stored {difference.stored}, recomputed {difference.recomputed}: {difference.why}",
        severity="warning",
    )


def _record(file: str, stem: str, report: GradeReport, folder: str, log: ProblemLog) -> ReportRecord:
    mean, grade = recompute(report)
    found: list[Difference] = []
    if abs(exact(report.score) - mean) > SCORE_TOLERANCE:
        _warn(
            log,
            found,
            Difference(
                file,
                "$.score",
                "score",
                f"{report.score:g}",
                f"{as_float(mean, 4):g}",
                "the mean of the dimension scores",
            ),
        )
    if report.grade != grade:
        why = (
            "validation failed: the deterministic gate makes it an F"
            if not report.validation_passed
            else f"a mean of {as_float(mean, 3):g} bands to {band(mean)}"
            + (f", trimmed to {grade}: a report's dimensions are autonomous, capped at B" if band(mean) != grade else "")
            + " (gradingSystem/1.0.0)"
        )
        _warn(log, found, Difference(file, "$.grade", "grade", report.grade, grade, why))
    expected_slug = report.schema_id.replace("/", "_")
    if report.schema_id_slug != expected_slug:
        _warn(
            log,
            found,
            Difference(
                file,
                "$.schemaIdSlug",
                "schemaIdSlug",
                report.schema_id_slug,
                expected_slug,
                "the slug is the schemaId with / replaced by _",
            ),
        )
    elif report.schema_id_slug != folder:
        _warn(
            log,
            found,
            Difference(
                file,
                "$.schemaIdSlug",
                "schemaIdSlug",
                report.schema_id_slug,
                folder,
                "the report lies in another schema's folder",
            ),
        )
    if report.validation_passed and report.validation_errors:
        _warn(
            log,
            found,
            Difference(
                file,
                "$.validationPassed",
                "validationPassed",
                "true",
                "false",
                f"{len(report.validation_errors)} validation error(s) are listed",
            ),
        )
    return ReportRecord(file, stem, report, mean, grade, tuple(found))


def _cross_check(
    current: ReportRecord,
    prompts: PromptsFile | None,
    scores: ScoresFile | None,
    prompts_file: str,
    scores_file: str,
    log: ProblemLog,
) -> tuple[Difference, ...]:
    """The newest report against the scores and prompts beside it."""
    found: list[Difference] = []
    report = current.report
    if scores is not None:
        if scores.schema_id_slug != report.schema_id_slug:
            _warn(
                log,
                found,
                Difference(
                    scores_file,
                    "$.schemaIdSlug",
                    "schemaIdSlug",
                    scores.schema_id_slug,
                    report.schema_id_slug,
                    "scores.json belongs to another schema",
                ),
            )
        given = {s.dimension: s.score for s in scores.scores}
        for position, dimension in enumerate(report.dimensions):
            if dimension.dimension in given and given[dimension.dimension] != dimension.score:
                _warn(
                    log,
                    found,
                    Difference(
                        current.file,
                        f"$.dimensions[{position}].score",
                        "score",
                        f"{dimension.score:g}",
                        f"{given[dimension.dimension]:g}",
                        f"scores.json scores {dimension.dimension} differently",
                    ),
                )
        if scores.harness.model != report.harness.model:
            _warn(
                log,
                found,
                Difference(
                    current.file,
                    "$.harness.model",
                    "harness.model",
                    report.harness.model,
                    scores.harness.model,
                    "scores.json was scored by another model",
                ),
            )
    if prompts is not None and prompts.schema_id_slug != report.schema_id_slug:
        _warn(
            log,
            found,
            Difference(
                prompts_file,
                "$.schemaIdSlug",
                "schemaIdSlug",
                prompts.schema_id_slug,
                report.schema_id_slug,
                "prompts.json belongs to another schema",
            ),
        )
    return tuple(found)
