"""Reading the `_gradings/` folders of one namespace or selection into audit trails.

Each file is placed by its name (area and timestamp), validated (`conformance`), and graded again
from its answers (`rules`). The trail of a node is ordered by the timestamp in the file names; the
newest file is current (23-index-json §5.1). A file that breaks the grading model stays in the
trail as rejected, so that a broken newest grading blocks its node instead of silently letting an
older one stand in for it.

Stored values that the recomputation does not reproduce (`aggregateGrade`, `maxAttainableGrade`,
`gradingTier` …) do not reject the entry: they are warnings that show both values.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from builder.engine.problems import ProblemLog
from builder.flowmcp import SYSTEM
from builder.flowmcp.conformance import check_entry
from builder.flowmcp.layout import (
    NAME_GRAMMAR,
    GradingFolder,
    GradingName,
    NodePath,
    OwnerFiles,
    parse_grading_name,
)
from builder.flowmcp.models import GradingEntry
from builder.flowmcp.records import Difference, EntryRecord
from builder.flowmcp.rules import BANDS, TIER_CAP, AnswerInput, EntryGrade, area_tier, grade_answers
from builder.numbers import banded
from builder.sources.datafolder import entry_kind, listing, skip_reason
from builder.sources.jsonfile import read_json, relative_name


def read_trails(owner: OwnerFiles, data_dir: Path, log: ProblemLog) -> dict[NodePath, tuple[EntryRecord, ...]]:
    """Every node's trail, oldest first. Nodes with a folder but no usable file have none."""
    placed: dict[NodePath, list[EntryRecord]] = {}
    for folder in owner.gradings:
        for record, path in _read_folder(folder, owner, data_dir, log):
            placed.setdefault(path, []).append(record)
    return {path: _grade_trail(records, log) for path, records in placed.items()}


def _read_folder(
    folder: GradingFolder, owner: OwnerFiles, data_dir: Path, log: ProblemLog
) -> Iterator[tuple[EntryRecord, NodePath]]:
    for entry in listing(folder.folder):
        path = folder.folder / entry.name
        if path.name.startswith("."):
            continue
        file = relative_name(path, data_dir)
        entry_type = entry_kind(entry)
        if entry_type != "file":
            log.reject(file, SYSTEM, "$", skip_reason(entry_type) or "a folder: folders are not read here")
            continue
        name = parse_grading_name(path.name)
        if name is None:
            log.reject(file, SYSTEM, "$", f"not a grading entry name: files in _gradings/ are named {NAME_GRAMMAR}")
            continue
        slot = next((s for s in folder.slots if name.area in s.areas), None)
        if slot is None:
            allowed = ", ".join(sorted(a for s in folder.slots for a in s.areas))
            log.reject(
                file, SYSTEM, "$", f"a {name.area} grading does not belong in {folder.rel}/ (it holds {allowed})"
            )
            continue
        ref = f"{folder.rel}/{path.name}"
        yield _read_entry(path, file, ref, name, folder, owner, data_dir, log), slot.path


def _read_entry(
    path: Path,
    file: str,
    ref: str,
    name: GradingName,
    folder: GradingFolder,
    owner: OwnerFiles,
    data_dir: Path,
    log: ProblemLog,
) -> EntryRecord:
    tier = area_tier(name.area)
    document = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return EntryRecord(file, ref, name, folder.page_dir, None, ("not readable as JSON",), tier)
    entry, violations = check_entry(document)
    if entry is not None and entry.area != name.area:
        log.reject(file, SYSTEM, "$.area", f"the file name says {name.area} but the entry grades {document['area']}")
        return EntryRecord(file, ref, name, folder.page_dir, None, (f"area {document['area']} ≠ file name",), tier)
    if entry is None:
        log.read(file, SYSTEM, rejected=True)
        for violation in violations:
            log.add(file, SYSTEM, violation.json_path, violation.reason, code=violation.code)
        reasons = tuple(f"{v.json_path}: {v.reason}" + (f" ({v.code})" if v.code else "") for v in violations)
        return EntryRecord(file, ref, name, folder.page_dir, None, reasons, tier)
    computed = grade_answers(
        [AnswerInput(a.question_id, a.score, a.weight, a.timestamp) for a in entry.gradings],
        tier,
        vetoed=entry.categorical_veto is not None,
    )
    differences = _consistency(file, name, entry, tier, owner)
    return EntryRecord(file, ref, name, folder.page_dir, entry, (), tier, computed, computed.grade, None, differences)


def _consistency(
    file: str, name: GradingName, entry: GradingEntry, tier: str, owner: OwnerFiles
) -> tuple[Difference, ...]:
    """Stored fields that follow from others, checked against what they follow from."""
    found: list[Difference] = []
    if entry.grading_tier != tier:
        found.append(
            Difference(
                file,
                "$.gradingTier",
                "gradingTier",
                entry.grading_tier,
                tier,
                f"{entry.area} is a {'provider' if tier == 'autonomous' else 'selection'} area, "
                f"graded {tier}; the grade is recomputed at that tier",
            )
        )
    if entry.max_attainable_grade != TIER_CAP[tier]:
        found.append(
            Difference(
                file,
                "$.maxAttainableGrade",
                "maxAttainableGrade",
                entry.max_attainable_grade,
                TIER_CAP[tier],
                f"{tier} entries can reach {TIER_CAP[tier]} at most",
            )
        )
    if not entry.grading_id.startswith(entry.schema_hash + "--"):
        found.append(
            Difference(
                file,
                "$.gradingId",
                "gradingId",
                entry.grading_id,
                f"{entry.schema_hash}--…",
                "gradingId is <schemaHash>--<timestamp>",
            )
        )
    persona = f"{entry.persona.base_persona_id}--{entry.persona.lens_id}" if entry.persona else None
    if name.persona is not None and name.persona != persona:
        found.append(
            Difference(
                file, "$.persona", "persona", persona, name.persona, "the file name names another persona and lens"
            )
        )
    if owner.kind == "provider" and entry.schema_id.split(".")[0] != owner.name:
        found.append(
            Difference(
                file,
                "$.schemaId",
                "schemaId",
                entry.schema_id,
                f"{owner.name}.…",
                f"the entry lies in the {owner.name} namespace",
            )
        )
    if owner.kind == "selection" and entry.selection_id is not None and entry.selection_id != owner.name:
        found.append(
            Difference(
                file,
                "$.selectionId",
                "selectionId",
                entry.selection_id,
                owner.name,
                f"the entry lies in the {owner.name} selection",
            )
        )
    return tuple(found)


def _grade_trail(records: list[EntryRecord], log: ProblemLog) -> tuple[EntryRecord, ...]:
    """Order by time, apply the partial-grading rule, and compare every aggregateGrade."""
    ordered = sorted(records, key=lambda r: (r.name.timestamp, r.file))
    graded: list[EntryRecord] = []
    last_full: EntryRecord | None = None
    for record in ordered:
        if record.entry is None or record.computed is None:
            graded.append(record)
            continue
        grade, note = _stands_for(record, last_full)
        difference = _aggregate_difference(record, record.computed, grade, note)
        differences = record.differences + ((difference,) if difference else ())
        for d in differences:
            log.add(
                d.file,
                SYSTEM,
                d.json_path,
                f"stored {d.stored}, recomputed {d.recomputed}: {d.why}",
                severity="warning",
            )
        updated = EntryRecord(
            record.file,
            record.ref,
            record.name,
            record.page_dir,
            record.entry,
            (),
            record.tier,
            record.computed,
            grade,
            note,
            differences,
        )
        graded.append(updated)
        if record.entry.grading_mode == "full":
            last_full = updated
    return tuple(graded)


def _stands_for(record: EntryRecord, last_full: EntryRecord | None) -> tuple[str | None, str | None]:
    assert record.entry is not None and record.computed is not None
    if record.entry.categorical_veto is not None:
        return "REJECTED", None
    if record.entry.grading_mode == "full":
        if record.computed.grade is None:
            return None, "no answer counts toward the mean (all n/a, stale or weight 0)"
        return record.computed.grade, None
    if last_full is None:
        return None, "a partial grading keeps the last full grading's grade, and there is no full grading yet"
    return last_full.grade, f"a partial grading keeps the grade of the last full grading ({last_full.name.stamp})"


def _aggregate_difference(
    record: EntryRecord, computed: EntryGrade, grade: str | None, note: str | None
) -> Difference | None:
    assert record.entry is not None
    stored = record.entry.aggregate_grade
    if stored == grade:
        return None
    return Difference(
        record.file,
        "$.aggregateGrade",
        "aggregateGrade",
        stored,
        grade or "none (pending)",
        explain(record.entry, computed, record.tier, note),
    )


def explain(entry: GradingEntry, computed: EntryGrade, tier: str, note: str | None = None) -> str:
    """The recomputation in words, for warnings and for the entry page."""
    if entry.categorical_veto is not None:
        return f"categorical veto {entry.categorical_veto.triggered_by}: REJECTED, no aggregation"
    if note:
        return note
    if computed.mean is None:
        return "no answer counts toward the mean (all n/a, stale or weight 0)"
    # Written so that it bands to the grade it names (3.4999, never 3.50, bands to C).
    text = f"weighted mean {banded(computed.mean, [bound for bound, _ in BANDS], 2)} bands to {computed.raw_grade}"
    if computed.trimmed:
        text += f"; {entry.area} is {tier}, capped at {computed.grade}"
    return text
