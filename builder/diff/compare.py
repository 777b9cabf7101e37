"""Two builds compared: each grading system either build has, through the API files they differ in."""

from __future__ import annotations

from typing import Any

from builder.diff import grades, tdqs
from builder.diff.model import Diff
from builder.diff.read import SYSTEM_FILES, TDQS_SERVERS, Build, differing


class MixedSystems(Exception):
    """The two builds grade different systems: nothing they publish can be compared."""


def compare(base: Build, head: Build) -> Diff:
    """What `head` changes from `base`. Builds that each grade something, but nothing in common,
    raise `MixedSystems`; a build that grades nothing yet (a registry's first pull request) is
    compared as empty."""
    if base.systems and head.systems and not set(base.systems) & set(head.systems):
        raise MixedSystems(f"{base.name} grades {', '.join(base.systems)} but {head.name} grades "
                           f"{', '.join(head.systems)}: two builds of different systems cannot be compared")
    diff = Diff(base.name, head.name, base.systems, head.systems, base.data_as_of, head.data_as_of)
    systems = diff.systems
    servers = differing(base, head, TDQS_SERVERS) if "tdqs" in systems else []
    graded = [SYSTEM_FILES[system] for system in ("flowmcp", "cleo") if system in systems]
    paths = [*servers, *(path for path in graded if differing(base, head, path))]
    before, after = base.read(paths), head.read(paths)  # one pass over each build
    if "tdqs" in systems:
        diff.tdqs = tdqs.compare(_by_id({path: before[path] for path in servers if path in before}),
                                 _by_id({path: after[path] for path in servers if path in after}))
    for system, read in (("flowmcp", grades.flowmcp_grades), ("cleo", grades.cleo_grades)):
        if system in systems:
            path = SYSTEM_FILES[system]
            diff.grades.extend(grades.compare(system, read(before.get(path)), read(after.get(path))))
            diff.notes.append(grades.NOTES[system])
    return diff


def _by_id(documents: dict[str, Any]) -> dict[str, Any]:
    """Server API documents by server id (the file's name when a document has none)."""
    by_id = {}
    for path, doc in documents.items():
        identity = doc.get("id") if isinstance(doc, dict) else None
        by_id[identity if isinstance(identity, str) else path.removeprefix(TDQS_SERVERS).removesuffix(".json")] = \
            doc if isinstance(doc, dict) else {}
    return by_id
