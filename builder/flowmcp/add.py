"""What `scorecards add` files for FlowMCP: grading entries and Scoring Protocol v1 reports.

Where a FlowMCP grading entry goes in a Grading-Spec tree (docs/data-format-flowmcp.md):

```
grading-data/providers/<ns>/_gradings/                         tools-aggregate-namespace, namespace-description
grading-data/providers/<ns>/<schema>/_gradings/                tools-aggregate-schema
grading-data/providers/<ns>/<schema>/resources/about/_gradings/ about-namespace
grading-data/providers/<ns>/<schema>/skills/<skillId>/_gradings/ namespace-skills
grading-data/providers/<ns>/<schema>/tools/<tool>/_gradings/   single-test
grading-data/selections/<sel>/_gradings/                       selection-aggregate
grading-data/selections/<sel>/resources/about/_gradings/       about-selection
grading-data/selections/<sel>/skills/<skillId>/_gradings/      selection-skills-L1/L2/L3
```

`schemaId` is `<ns>.<schema>`, except in a single-test entry, where it is `<ns>.<tool>` and does
not say the schema: that is taken from the tree when exactly one schema of the namespace has the
tool, else from `--schema`. The file is named by the grammar
`<area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json`; the time is the one in the entry's
`gradingId` (`<schemaHash>--<timestamp>`) when it is written that way, else the newest time in the
entry (its answers, its veto, its regrading trigger). The reader of the build then checks the
entry where it was put (`check_staged`), placement included.

Where a Scoring Protocol v1 grade report goes: `scoring-reports/<schemaIdSlug>/<schemaIdSlug>-<date>.json`,
the name the FlowMCP CLI suggests. A second report of the same schema and day is numbered
(`…-<date>-2.json`) rather than written over the first; the same report again is found by its bytes.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Any

from builder.engine.adding import AddError, AddKind, AddRequest, Detected, Filing, check_staged, safe_segment
from builder.flowmcp import SYSTEM
from builder.flowmcp.conformance import check_entry
from builder.flowmcp.layout import GRADING_DATA, GRADINGS, PROVIDERS, SELECTIONS, is_stamp
from builder.flowmcp.models import GradingEntry
from builder.flowmcp.reader import read
from builder.flowmcp.reports import REPORTS_DIR
from builder.flowmcp.reports import SYSTEM as REPORTS_SYSTEM
from builder.flowmcp.rules import area_tier, instant

NAMESPACE_LEVEL = frozenset({"tools-aggregate-namespace", "namespace-description"})


def plan_entry(source: Path, found: Detected, request: AddRequest) -> list[Filing]:
    data, schema = request.data, request.schema
    entry, violations = check_entry(found.document)  # the reader's own check (entries._read_entry)
    if entry is None:
        first = violations[0]
        raise AddError(source, first.json_path, first.reason + (f" [{first.code}]" if first.code else ""))
    folder = _folder(source, entry, data, schema)
    target = "/".join((GRADING_DATA, *folder, GRADINGS, _file_name(entry)))
    check_staged(read, [(target, found.raw, source)])
    return [Filing(source, target, found.raw, f"FlowMCP {entry.area} grading", SYSTEM)]


def _folder(source: Path, entry: GradingEntry, data: Path, schema: str | None) -> tuple[str, ...]:
    namespace, second = entry.schema_id.split(".", 1)  # the model's pattern: <a-zA-Z0-9_->.<a-zA-Z0-9_->
    area = entry.area
    if area_tier(area) == "group-bound":
        selection = _name(source, "$.selectionId", entry.selection_id, f"a {area} grading is filed under its selection")
        if area == "selection-aggregate":
            return (SELECTIONS, selection)
        if area == "about-selection":
            return (SELECTIONS, selection, "resources", "about")
        return (SELECTIONS, selection, "skills", _name(source, "$.skillId", entry.skill_id, "names the skill folder"))
    if area in NAMESPACE_LEVEL:
        return (PROVIDERS, namespace)
    if area == "tools-aggregate-schema":
        return (PROVIDERS, namespace, second)
    if area == "about-namespace":
        return (PROVIDERS, namespace, second, "resources", "about")
    if area == "namespace-skills":
        return (PROVIDERS, namespace, second, "skills",
                _name(source, "$.skillId", entry.skill_id, "names the skill folder"))
    return (PROVIDERS, namespace, _schema_of_tool(source, data, namespace, second, schema), "tools", second)


def _schema_of_tool(source: Path, data: Path, namespace: str, tool: str, schema: str | None) -> str:
    if schema is not None:
        if safe_segment(schema) is None:
            raise AddError(schema, "--schema", "not usable as a folder name (letters, digits, . _ -)")
        return schema
    provider = data / GRADING_DATA / PROVIDERS / namespace
    found = sorted(
        folder.name for folder in (provider.iterdir() if provider.is_dir() else ())
        if folder.is_dir() and not folder.is_symlink() and (folder / "tools" / tool).is_dir()
    )
    if len(found) == 1:
        return found[0]
    which = f"schemas {', '.join(found)} of {namespace} all have" if found else f"no schema of {namespace} has"
    raise AddError(source, "$.schemaId", f"a single-test entry's schemaId names its tool, not its schema folder, "
                   f"and {which} a tool {tool}: name the schema with --schema NAME")


def _name(source: Path, where: str, value: str | None, why: str) -> str:
    if value is None:
        raise AddError(source, where, f"missing: {why}")
    if safe_segment(value) is None:
        raise AddError(source, where, f"{value!r} cannot name a folder (letters, digits, . _ -)")
    return value


def _file_name(entry: GradingEntry) -> str:
    parts: list[str] = [entry.area]
    persona = entry.persona
    if persona is not None and safe_segment(persona.lens_id) and "--" not in persona.lens_id:
        parts += [persona.base_persona_id, persona.lens_id]
    return "--".join([*parts, _stamp(entry)]) + ".json"


def _stamp(entry: GradingEntry) -> str:
    given = entry.grading_id.split("--", 1)[1]
    if is_stamp(given):
        return given
    times = [answer.timestamp for answer in entry.gradings]
    times += [item.timestamp for item in (entry.categorical_veto, entry.regrading_trigger) if item is not None]
    newest = max(instant(time) for time in times)
    return newest.astimezone(UTC).strftime("%Y-%m-%dT%H-%M-%SZ")


PLACEHOLDER = "staged"


def plan_report(source: Path, found: Detected, request: AddRequest) -> list[Filing]:
    data = request.data
    document = found.document
    slug = safe_segment(document.get("schemaIdSlug"))
    date = document.get("date") if isinstance(document.get("date"), str) else None
    stem = f"{slug or PLACEHOLDER}-{date}" if date and safe_segment(date) else f"{slug or PLACEHOLDER}-{PLACEHOLDER}"
    folder = f"{REPORTS_DIR}/{slug or PLACEHOLDER}"
    check_staged(read, [(f"{folder}/{stem}.json", found.raw, source)])
    if slug is None:
        raise AddError(source, "$.schemaIdSlug", f"{document.get('schemaIdSlug')!r} cannot name a folder "
                       "(letters, digits, . _ -)")
    return [Filing(source, f"{folder}/{_free_name(data / folder, stem, found.raw)}", found.raw,
                   "Scoring Protocol v1 report", REPORTS_SYSTEM)]


def _free_name(folder: Path, stem: str, raw: bytes) -> str:
    """The name already holding these bytes among `<stem>.json`, `<stem>-2.json` … (numbered without
    gaps), else the first free one."""
    number = 1
    while True:
        name = f"{stem}.json" if number == 1 else f"{stem}-{number}.json"
        path = folder / name
        if not path.exists() or path.read_bytes() == raw:
            return name
        number += 1


def _sibling_files(document: dict[str, Any]) -> str | None:
    if "prompts" in document or "scores" in document:
        return ("a Scoring Protocol prompts.json or scores.json is not added by `scorecards add`: "
                "copy it to scoring-reports/<schemaIdSlug>/ beside its reports")
    return None


ENTRY = AddKind(
    name="a FlowMCP grading entry",
    system=SYSTEM,
    matches=lambda document: "gradingId" in document or {"area", "gradings"} <= set(document),
    plan=plan_entry,
)
REPORT = AddKind(
    name="a Scoring Protocol v1 report",
    system=REPORTS_SYSTEM,
    matches=lambda document: "scoringProtocol" in document or "schemaIdSlug" in document,
    plan=plan_report,
    refuses=_sibling_files,
)
