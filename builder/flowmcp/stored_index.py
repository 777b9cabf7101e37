"""A stored index.json, read only to be compared with the rollup recomputed from the entries.

The top level is checked against `index.schema.json`; a file that fails it is rejected as a whole
and the namespace or selection is rolled up from its entries alone. The open parts (`schemas`,
`members`, `lockSnapshot`, `blockers`) are read one value at a time, so one odd value costs only
itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from builder.engine.problems import ProblemLog, describe_validation_error
from builder.flowmcp import SYSTEM
from builder.flowmcp.models import (
    Blocker,
    IndexFile,
    IndexMember,
    IndexNode,
    IndexSchema,
    LockSnapshot,
)
from builder.sources.jsonfile import read_json, relative_name

Model = TypeVar("Model", bound=BaseModel)


@dataclass(frozen=True)
class StoredIndex:
    file: str
    index: IndexFile
    schemas: dict[str, IndexSchema] = field(default_factory=dict)
    members: dict[str, IndexMember] = field(default_factory=dict)
    lock_snapshot: LockSnapshot | None = None
    blockers: tuple[Blocker, ...] = ()

    def node(self, path: tuple[str, ...]) -> IndexNode | IndexSchema | IndexMember | None:
        """The stored node at an index path, or None."""
        index = self.index
        head, rest = path[0], path[1:]
        if not rest and head in ("about", "description", "namespaceAggregate", "selectionAggregate"):
            return {
                "about": index.about,
                "description": index.description,
                "namespaceAggregate": index.namespace_aggregate,
                "selectionAggregate": index.selection_aggregate,
            }[head]
        if head == "skills" and len(rest) == 1:
            return (index.skills or {}).get(rest[0])
        if head == "members" and len(rest) == 1:
            return self.members.get(rest[0])
        if head == "schemas" and rest:
            schema = self.schemas.get(rest[0])
            if schema is None or len(rest) == 1:
                return schema
            if rest[1:] == ("toolsAggregate",):
                return schema.tools_aggregate
            if len(rest) == 3 and rest[1] == "tools":
                return (schema.tools or {}).get(rest[2])
        return None


def read_index(path: Path, data_dir: Path, log: ProblemLog) -> tuple[StoredIndex | None, str]:
    """The stored index and its state: `read`, or `rejected` (logged)."""
    file = relative_name(path, data_dir)
    document = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return None, "rejected"
    try:
        index = IndexFile.model_validate(document)
    except ValidationError as error:
        log.read(file, SYSTEM, rejected=True)
        for where, reason in describe_validation_error(error):
            log.add(file, SYSTEM, where, reason)
        return None, "rejected"
    schemas = _each(index.schemas or {}, IndexSchema, file, "schemas", log)
    members = _each(index.members or {}, IndexMember, file, "members", log)
    lock = _one(index.lock_snapshot, LockSnapshot, file, "$.lockSnapshot", log)
    blockers = [
        blocker
        for position, value in enumerate(index.blockers or [])
        if (blocker := _one(value, Blocker, file, f"$.blockers[{position}]", log)) is not None
    ]
    return StoredIndex(file, index, schemas, members, lock, tuple(blockers)), "read"


def _each(values: dict[str, Any], model: type[Model], file: str, key: str, log: ProblemLog) -> dict[str, Model]:
    parsed: dict[str, Model] = {}
    for name, value in values.items():
        found = _one(value, model, file, f"$.{key}", log, name)
        if found is not None:
            parsed[name] = found
    return parsed


def _one(
    value: Any, model: type[Model], file: str, where: str, log: ProblemLog, name: str | None = None
) -> Model | None:
    if value is None:
        return None
    try:
        return model.model_validate(value)
    except ValidationError as error:
        for path, reason in describe_validation_error(error, prefix=_split(where, name)):
            log.add(file, SYSTEM, path, f"{reason}; this part of index.json is not compared")
        return None


def _split(where: str, name: str | None) -> list[str | int]:
    """`$.blockers[2]` → ["blockers", 2]; `$.schemas` + name → ["schemas", name]."""
    parts: list[str | int] = []
    for piece in where.removeprefix("$.").split("."):
        if "[" in piece:
            key, _, number = piece.partition("[")
            parts += [key, int(number.rstrip("]"))]
        else:
            parts.append(piece)
    if name is not None:
        parts.append(name)
    return parts
