"""Where things live in a Grading-Spec tree (chapter 19), and how grading file names are read.

```
grading-data/
  providers/<ns>/index.json                                  rollup (derived)
  providers/<ns>/_gradings/                                  tools-aggregate-namespace, namespace-description
  providers/<ns>/<schema>/_gradings/                         tools-aggregate-schema
  providers/<ns>/<schema>/resources/about/_gradings/         about-namespace
  providers/<ns>/<schema>/skills/<skill>/_gradings/          namespace-skills
  providers/<ns>/<schema>/tools/<tool>/_gradings/            single-test
  selections/<sel>/index.json                                rollup with members and lockSnapshot
  selections/<sel>/selection/<sel>--<ts>--<hash8>.json       neutral definition
  selections/<sel>/_gradings/                                selection-aggregate
  selections/<sel>/resources/about/_gradings/                about-selection
  selections/<sel>/skills/<skill>/_gradings/                 selection-skills-L1/L2/L3
```

Grading files are named `<area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json`. Every node is
identified by its path in index.json (`("schemas", "prices", "tools", "getFirstPrice")`), so the
tree and the stored index can be matched node for node. Symbolic links are never followed: a tree
cannot pull files from outside the data directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from builder.flowmcp.models import AREAS
from builder.sources.datafolder import kind, listing, skip_reason, subfolders
from builder.urls import clash_reason, distinct_slugs, slug_clashes

GRADING_DATA = "grading-data"
PROVIDERS = "providers"
SELECTIONS = "selections"
GRADINGS = "_gradings"
INDEX = "index.json"
DEFINITIONS = "selection"

_STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})Z$")
_PRIMITIVE = re.compile(r"^(?P<name>.+)--(?P<stamp>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)--(?P<hash>[0-9a-f]{8})\.json$")
NAME_GRAMMAR = "<area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json"

NodePath = tuple[str, ...]


@dataclass(frozen=True)
class GradingName:
    """A grading file name, read by the naming grammar."""

    area: str
    persona: str | None
    """`<basePersona>--<lens>` when the name carries one."""
    stamp: str
    """`YYYY-MM-DDTHH-MM-SSZ`, the filesystem-safe timestamp."""

    @property
    def timestamp(self) -> str:
        """The stamp as RFC 3339 (`2026-05-31T11:05:00Z`)."""
        match = _STAMP.match(self.stamp)
        assert match is not None
        year, month, day, hour, minute, second = match.groups()
        return f"{year}-{month}-{day}T{hour}:{minute}:{second}Z"


def parse_grading_name(file_name: str) -> GradingName | None:
    if not file_name.endswith(".json"):
        return None
    parts = file_name[: -len(".json")].split("--")
    if len(parts) not in (2, 4) or parts[0] not in AREAS or not _STAMP.match(parts[-1]):
        return None
    persona = f"{parts[1]}--{parts[2]}" if len(parts) == 4 else None
    if persona is not None and (not parts[1] or not parts[2]):
        return None
    return GradingName(parts[0], persona, parts[-1])


def is_stamp(text: str) -> bool:
    """`YYYY-MM-DDTHH-MM-SSZ`, the time in a grading file's name."""
    return _STAMP.match(text) is not None


def definition_stamp(file_name: str) -> str | None:
    """The timestamp of a primitive file `<name>--<ts>--<hash8>.json`, or None."""
    match = _PRIMITIVE.match(file_name)
    return match.group("stamp") if match else None


@dataclass(frozen=True)
class Slot:
    """A node the tree has a folder for."""

    path: NodePath
    kind: str
    areas: frozenset[str]


@dataclass(frozen=True)
class GradingFolder:
    """One `_gradings/` folder and the nodes its files may belong to (two share the namespace's)."""

    folder: Path
    rel: str
    """Relative to the namespace or selection folder, as index.json `ref`s are: `prices/_gradings`."""
    page_dir: tuple[str, ...]
    """Output folder segments below the owner's page, third-party names slugged."""
    slots: tuple[Slot, ...]


@dataclass(frozen=True)
class OwnerFiles:
    """A namespace (`provider`) or a selection and everything the tree holds for it."""

    kind: str
    name: str
    folder: Path
    index: Path | None
    slots: tuple[Slot, ...]
    """Every node with a folder in the tree, in a stable order."""
    gradings: tuple[GradingFolder, ...]
    definitions: tuple[Path, ...] = ()
    """Selection definitions, oldest first."""
    slug: str = ""
    """The owner's path segment, distinct among its kind (`urls.distinct_slugs`)."""


def _is(path: Path, wanted: str, skipped: list[Path]) -> bool:
    """`path` is a real `wanted` ("folder" or "file"); a link or special file is added to `skipped`."""
    found = kind(path)
    if found != wanted and skip_reason(found):
        skipped.append(path)
    return found == wanted


def _folder(
    folder: Path, owner: Path, page_dir: tuple[str, ...], skipped: list[Path], *slots: Slot
) -> GradingFolder | None:
    gradings = folder / GRADINGS
    step = owner
    for part in gradings.relative_to(owner).parts:  # `resources/about/` too: no link on the way
        step = step / part
        if not _is(step, "folder", skipped):
            return None
    return GradingFolder(gradings, gradings.relative_to(owner).as_posix(), page_dir, slots)


Clashes = list[tuple[Path, str]]
"""Folders whose address had to be numbered, with the reason (`urls.distinct_slugs`)."""


def _named(folders: list[Path], clashes: Clashes) -> list[tuple[Path, str]]:
    """Each sibling folder with its distinct slug."""
    slugs = distinct_slugs(folder.name for folder in folders)
    for name, given, holder in slug_clashes(slugs):
        clashes.append((folders[0].parent / name, clash_reason(name, given, holder)))
    return [(folder, slugs[folder.name]) for folder in folders]


def discover(
    root: Path, skipped: list[Path] | None = None, clashes: Clashes | None = None
) -> tuple[list[OwnerFiles], list[OwnerFiles]]:
    """Providers and selections under `grading-data/`, each sorted by name. Links and special
    files met on the way are added to `skipped`, never followed (builder.sources.datafolder);
    names whose slugs clash are numbered and added to `clashes`."""
    skipped = [] if skipped is None else skipped
    clashes = [] if clashes is None else clashes
    if not _is(root, "folder", skipped):
        return [], []
    providers = [
        _provider(folder, name, skipped, clashes) for folder, name in _named(subfolders(root / PROVIDERS, skipped), clashes)
    ]
    selections = [
        _selection(folder, name, skipped, clashes)
        for folder, name in _named(subfolders(root / SELECTIONS, skipped), clashes)
    ]
    return providers, selections


def _index(folder: Path, skipped: list[Path]) -> Path | None:
    path = folder / INDEX
    return path if _is(path, "file", skipped) else None


def _provider(ns: Path, ns_slug: str, skipped: list[Path], clashes: Clashes) -> OwnerFiles:
    slots: list[Slot] = []
    folders: list[GradingFolder] = []
    aggregate = Slot(("namespaceAggregate",), "namespace-aggregate", frozenset({"tools-aggregate-namespace"}))
    description = Slot(("description",), "description", frozenset({"namespace-description"}))
    about = Slot(("about",), "about", frozenset({"about-namespace"}))
    top = _folder(ns, ns, (), skipped, aggregate, description)
    if top:
        slots += [aggregate, description]
        folders.append(top)
    about_found = False
    for schema, schema_slug in _named([d for d in subfolders(ns, skipped) if d.name != GRADINGS], clashes):
        s = schema.name
        page = (schema_slug,)
        tools_aggregate = Slot(
            ("schemas", s, "toolsAggregate"), "tools-aggregate", frozenset({"tools-aggregate-schema"})
        )
        slots.append(Slot(("schemas", s), "schema", frozenset()))
        found = _folder(schema, ns, page, skipped, tools_aggregate)
        if found:
            slots.append(tools_aggregate)
            folders.append(found)
        about_folder = _folder(schema / "resources" / "about", ns, (*page, "resources", "about"), skipped, about)
        if about_folder:
            about_found = True
            folders.append(about_folder)
        for skill, skill_slug in _named(subfolders(schema / "skills", skipped), clashes):
            node = Slot(("skills", f"{s}.{skill.name}"), "skill", frozenset({"namespace-skills"}))
            slots.append(node)
            found = _folder(skill, ns, (*page, "skills", skill_slug), skipped, node)
            if found:
                folders.append(found)
        for tool, tool_slug in _named(subfolders(schema / "tools", skipped), clashes):
            node = Slot(("schemas", s, "tools", tool.name), "tool", frozenset({"single-test"}))
            slots.append(node)
            found = _folder(tool, ns, (*page, "tools", tool_slug), skipped, node)
            if found:
                folders.append(found)
    if about_found:
        slots.append(about)
    return OwnerFiles("provider", ns.name, ns, _index(ns, skipped), tuple(slots), tuple(folders), slug=ns_slug)


def _selection(sel: Path, sel_slug: str, skipped: list[Path], clashes: Clashes) -> OwnerFiles:
    slots: list[Slot] = []
    folders: list[GradingFolder] = []
    aggregate = Slot(("selectionAggregate",), "selection-aggregate", frozenset({"selection-aggregate"}))
    about = Slot(("about",), "about", frozenset({"about-selection"}))
    for slot, found in (
        (aggregate, _folder(sel, sel, (), skipped, aggregate)),
        (about, _folder(sel / "resources" / "about", sel, ("resources", "about"), skipped, about)),
    ):
        if found:
            slots.append(slot)
            folders.append(found)
    levels = frozenset({"selection-skills-L1", "selection-skills-L2", "selection-skills-L3"})
    for skill, skill_slug in _named(subfolders(sel / "skills", skipped), clashes):
        node = Slot(("skills", skill.name), "skill", levels)
        slots.append(node)
        found = _folder(skill, sel, ("skills", skill_slug), skipped, node)
        if found:
            folders.append(found)
    definitions: list[Path] = []
    folder = sel / DEFINITIONS
    if _is(folder, "folder", skipped):
        named = [
            folder / entry.name for entry in listing(folder)
            if entry.name.endswith(".json") and _is(folder / entry.name, "file", skipped)
        ]
        definitions = sorted(named, key=lambda p: (definition_stamp(p.name) or "", p.name))
    return OwnerFiles(
        "selection", sel.name, sel, _index(sel, skipped), tuple(slots), tuple(folders), tuple(definitions), slug=sel_slug
    )
