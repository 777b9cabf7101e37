"""Reads a whole `grading-data/` tree: every namespace first, then every selection, whose members
resolve to the namespaces' schema nodes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from builder.engine.problems import ProblemLog, describe_validation_error
from builder.flowmcp import SYSTEM
from builder.flowmcp.entries import read_trails
from builder.flowmcp.layout import OwnerFiles, discover
from builder.flowmcp.models import SelectionDefinition
from builder.flowmcp.records import Rollup
from builder.flowmcp.rollup import provider_rollup, selection_rollup
from builder.flowmcp.stored_index import StoredIndex, read_index
from builder.sources.datafolder import report_skipped
from builder.sources.jsonfile import read_json, relative_name


def read_tree(root: Path, data_dir: Path, log: ProblemLog) -> tuple[tuple[Rollup, ...], tuple[Rollup, ...]]:
    skipped: list[Path] = []
    clashes: list[tuple[Path, str]] = []
    providers_found, selections_found = discover(root, skipped, clashes)
    report_skipped(skipped, data_dir, SYSTEM, log)
    for folder, reason in clashes:
        log.add(relative_name(folder, data_dir), SYSTEM, "$", reason, severity="warning")
    providers: list[Rollup] = []
    for owner in providers_found:
        stored, state = _stored(owner, data_dir, log)
        rollup = provider_rollup(owner, read_trails(owner, data_dir, log), stored, log)
        providers.append(_with_state(rollup, state, owner, data_dir))
    by_name = {rollup.name: rollup for rollup in providers}
    selections: list[Rollup] = []
    for owner in selections_found:
        stored, state = _stored(owner, data_dir, log)
        definition, definition_file = _definition(owner, data_dir, log)
        rollup = selection_rollup(
            owner, read_trails(owner, data_dir, log), stored, log, by_name, definition, definition_file
        )
        selections.append(_with_state(rollup, state, owner, data_dir))
    return tuple(providers), tuple(selections)


def _stored(owner: OwnerFiles, data_dir: Path, log: ProblemLog) -> tuple[StoredIndex | None, str]:
    if owner.index is None:
        return None, "absent"
    stored, state = read_index(owner.index, data_dir, log)
    if stored is not None:
        key = stored.index.namespace if owner.kind == "provider" else stored.index.selection_id
        if key is not None and key != owner.name:
            field = "namespace" if owner.kind == "provider" else "selectionId"
            log.add(
                stored.file,
                SYSTEM,
                f"$.{field}",
                f"names {key!r} but lies in the folder {owner.name!r}",
                severity="warning",
            )
    return stored, state


def _with_state(rollup: Rollup, state: str, owner: OwnerFiles, data_dir: Path) -> Rollup:
    """A rejected index.json is rolled up without, but the page still names the file."""
    if state != "rejected" or owner.index is None:
        return rollup
    return replace(rollup, index_state=state, index_file=relative_name(owner.index, data_dir))


def _definition(owner: OwnerFiles, data_dir: Path, log: ProblemLog) -> tuple[SelectionDefinition | None, str | None]:
    """The newest selection definition (the file name's timestamp decides, as `resolveLatest` does)."""
    if not owner.definitions:
        return None, None
    path = owner.definitions[-1]
    file = relative_name(path, data_dir)
    document = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return None, file
    try:
        return SelectionDefinition.model_validate(document), file
    except ValidationError as error:
        log.read(file, SYSTEM, rejected=True)
        for where, reason in describe_validation_error(error):
            log.add(file, SYSTEM, where, reason)
        return None, file
