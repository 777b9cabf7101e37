"""Rolling a namespace or a selection up again from its entries, and comparing with index.json.

A node's value comes, in this order, from:
1. the tree: a node with a folder is recomputed from its newest entry (no entry yet: pending);
2. index.json: a node only the index knows is shown as stored, after the checks that need no
   entry (the tier trim: a single-test stored at A is capped at B; REJECTED means rejected);
3. nothing: the nodes every rollup has (about, description, aggregates) are pending.
Schema and member nodes are derived from other nodes, by FlowMCP's own rebuild rules (`rules`).
Every stored value the result does not reproduce becomes a `Difference` and a warning.
"""

from __future__ import annotations

from collections.abc import Iterable

from builder.engine.problems import ProblemLog, json_path
from builder.flowmcp import SYSTEM
from builder.flowmcp.layout import NodePath, OwnerFiles
from builder.flowmcp.models import (
    IndexMember,
    IndexNode,
    IndexSchema,
    LockMember,
    LockSnapshot,
    SelectionDefinition,
)
from builder.flowmcp.records import BlockerRecord, Difference, EntryRecord, Node, Rollup
from builder.flowmcp.rules import (
    GRADE_ORDER,
    LETTERS,
    TIER_CAP,
    area_tier,
    better,
    entry_node_status,
    rollup_grade,
    rollup_status,
    schema_status,
)
from builder.flowmcp.stored_index import StoredIndex
from builder.urls import slug

NOT_IMPORTED = "selection member, not imported"


class _Builder:
    """Resolves the nodes of one rollup, collecting their differences with the stored index."""

    def __init__(
        self,
        owner: OwnerFiles,
        trails: dict[NodePath, tuple[EntryRecord, ...]],
        stored: StoredIndex | None,
        log: ProblemLog,
    ) -> None:
        self.owner = owner
        self.trails = trails
        self.slots = {slot.path for slot in owner.slots}
        self.stored = stored
        self.log = log
        self.differences: list[Difference] = []

    def differ(self, path: tuple[str, ...], name: str, stored: str | None, recomputed: str | None, why: str) -> None:
        assert self.stored is not None
        difference = Difference(self.stored.file, json_path((*path, name)), name, stored, recomputed, why)
        self.differences.append(difference)
        self.log.add(
            difference.file,
            SYSTEM,
            difference.json_path,
            f"stored {stored or 'none'}, recomputed {recomputed or 'none'}: {why}",
            severity="warning",
        )

    def leaf(self, path: NodePath, kind: str, area: str, *, idle: str = "no grading yet") -> Node:
        """A node graded by entries of one area."""
        stored = self.stored.node(path) if self.stored else None
        if stored is not None and not isinstance(stored, IndexNode):
            stored = None
        trail = self.trails.get(path, ())
        if path in self.slots:
            return self._recomputed(path, kind, area, trail, stored, idle)
        if stored is not None:
            return self._stored_only(path, kind, area, stored)
        return Node(path, kind, area, "pending", None, idle, "none")

    def _recomputed(
        self, path: NodePath, kind: str, area: str, trail: tuple[EntryRecord, ...], stored: IndexNode | None, idle: str
    ) -> Node:
        current = trail[-1] if trail else None
        grade: str | None = None
        reason: str | None = idle
        if current is None:
            status = "pending"
        elif current.entry is None:
            status, reason = (
                "blocked",
                f"the newest grading entry ({current.name.stamp}) is not valid; see the data problems",
            )
        else:
            area = current.entry.area
            grade = current.grade
            status = entry_node_status(grade, current.tier, full=current.entry.grading_mode == "full")
            reason = current.grade_note if grade is None else None
        before = len(self.differences)
        if self.stored is not None:
            if stored is None:
                if trail:
                    self.differ(path, "status", None, status, "index.json does not list this node yet; rebuild it")
            else:
                self._compare(path, stored.status, stored.grade, status, grade, current)
                if current is not None and stored.ref is not None and stored.ref != current.ref:
                    self.differ(path, "ref", stored.ref, current.ref, "the newest entry is another file")
        return Node(
            path,
            kind,
            area,
            status,
            grade,
            reason,
            "entries",
            trail,
            stored.status if stored else None,
            stored.grade if stored else None,
            stored.ref if stored else None,
            stored is not None,
            tuple(self.differences[before:]),
        )

    def _compare(
        self,
        path: NodePath,
        stored_status: str | None,
        stored_grade: str | None,
        status: str,
        grade: str | None,
        current: EntryRecord | None,
    ) -> None:
        source = f"recomputed from {current.ref}" if current is not None else "no entry in the tree"
        if stored_status is not None and stored_status != status:
            why = source
            if status == "graded" and stored_status == "stable" and current and current.entry:
                cap = TIER_CAP[current.tier]
                why += (
                    f"; stable needs a full grading at the tier maximum {cap}"
                    if current.entry.grading_mode == "full"
                    else "; a partial grading cannot make a node stable"
                )
            self.differ(path, "status", stored_status, status, why)
        if stored_grade is not None and stored_grade != grade:
            self.differ(path, "grade", stored_grade, grade, source)

    def _stored_only(self, path: NodePath, kind: str, area: str, stored: IndexNode) -> Node:
        status, grade = stored.status, stored.grade
        before = len(self.differences)
        cap = TIER_CAP[area_tier(area)]
        if grade in LETTERS and better(grade, cap):
            self.differ(path, "grade", grade, cap, f"{area} is an {area_tier(area)} area: capped at {cap}")
            grade = cap
        elif grade is not None and grade not in GRADE_ORDER:
            self.differ(path, "grade", grade, None, "not a grade of gradingSystem/1.0.0")
            grade = None
        if grade == "REJECTED" and status != "rejected":
            self.differ(path, "status", status, "rejected", "a REJECTED grade is the terminal status rejected")
            status = "rejected"
        return Node(
            path,
            kind,
            area,
            status,
            grade,
            stored.reason,
            "index",
            (),
            stored.status,
            stored.grade,
            stored.ref,
            True,
            tuple(self.differences[before:]),
        )

    def derived(
        self,
        path: NodePath,
        kind: str,
        status: str,
        grade: str | None,
        reason: str | None,
        stored: IndexSchema | IndexMember | None,
        *,
        pinned: LockMember | None = None,
        provider: tuple[str, str] | None = None,
    ) -> Node:
        before = len(self.differences)
        if stored is not None:
            if stored.status is not None and stored.status != status:
                self.differ(path, "status", stored.status, status, f"derived again from its nodes ({reason or status})")
            if stored.grade is not None and stored.grade != grade:
                self.differ(path, "grade", stored.grade, grade, "derived again from its nodes")
        return Node(
            path,
            kind,
            None,
            status,
            grade,
            reason,
            "derived",
            (),
            stored.status if stored else None,
            stored.grade if stored else None,
            None,
            stored is not None,
            tuple(self.differences[before:]),
            pinned,
            provider,
        )

    def finish(
        self,
        kind: str,
        nodes: list[Node],
        status: str,
        grade: str | None,
        *,
        lock_snapshot: LockSnapshot | None = None,
        definition: SelectionDefinition | None = None,
        definition_file: str | None = None,
    ) -> Rollup:
        stored = self.stored
        if stored is not None:
            if stored.index.status is not None and stored.index.status != status:
                self.differ((), "status", stored.index.status, status, "rolled up again from the nodes")
            if stored.index.grade is not None and stored.index.grade != grade:
                self.differ((), "grade", stored.index.grade, grade, "rolled up again from the nodes")
        return Rollup(
            kind=kind,
            name=self.owner.name,
            slug=self.owner.slug or slug(self.owner.name),
            index_file=stored.file if stored else None,
            index_state="read" if stored else "absent",
            index=stored.index if stored else None,
            nodes=tuple(nodes),
            status=status,
            grade=grade,
            stored_status=stored.index.status if stored else None,
            stored_grade=stored.index.grade if stored else None,
            differences=tuple(self.differences),
            blockers=_blockers(stored, nodes),
            lock_snapshot=lock_snapshot,
            definition=definition,
            definition_file=definition_file,
            versions=_versions(nodes),
            updated_at=stored.index.updated_at if stored else None,
        )


def provider_rollup(
    owner: OwnerFiles, trails: dict[NodePath, tuple[EntryRecord, ...]], stored: StoredIndex | None, log: ProblemLog
) -> Rollup:
    b = _Builder(owner, trails, stored, log)
    nodes = [
        b.leaf(("about",), "about", "about-namespace", idle="no about graded"),
        b.leaf(("description",), "description", "namespace-description", idle="no description graded"),
        b.leaf(("namespaceAggregate",), "namespace-aggregate", "tools-aggregate-namespace"),
    ]
    skills = _names(owner, "skills") | set((stored.index.skills or {}) if stored else ())
    nodes += [b.leaf(("skills", name), "skill", "namespace-skills", idle="no skills graded") for name in sorted(skills)]
    schema_nodes: list[Node] = []
    for schema in sorted(_names(owner, "schemas") | set(stored.schemas if stored else ())):
        stored_schema = stored.schemas.get(schema) if stored else None
        tools = sorted(
            {p[3] for p in b.slots if p[:2] == ("schemas", schema) and len(p) == 4}
            | set((stored_schema.tools or {}) if stored_schema else ())
        )
        tool_nodes = [b.leaf(("schemas", schema, "tools", tool), "tool", "single-test") for tool in tools]
        aggregate = b.leaf(("schemas", schema, "toolsAggregate"), "tools-aggregate", "tools-aggregate-schema")
        status, reason = schema_status([t.status for t in tool_nodes], aggregate.status)
        grade = "REJECTED" if status == "rejected" else aggregate.grade
        schema_node = b.derived(("schemas", schema), "schema", status, grade, reason, stored_schema)
        schema_nodes.append(schema_node)
        nodes += [schema_node, aggregate, *tool_nodes]
    status = rollup_status(n.status for n in nodes)
    graders = [n.grade for n in nodes if n.kind in ("schema", "namespace-aggregate", "description", "skill")]
    return b.finish("provider", nodes, status, rollup_grade(graders, rejected=status == "rejected"))


def selection_rollup(
    owner: OwnerFiles,
    trails: dict[NodePath, tuple[EntryRecord, ...]],
    stored: StoredIndex | None,
    log: ProblemLog,
    providers: dict[str, Rollup],
    definition: SelectionDefinition | None,
    definition_file: str | None,
) -> Rollup:
    b = _Builder(owner, trails, stored, log)
    levels = "selection-skills-L1"  # stands for all three levels until an entry names its own
    nodes = [
        b.leaf(("about",), "about", "about-selection", idle="no about graded"),
        b.leaf(("selectionAggregate",), "selection-aggregate", "selection-aggregate"),
    ]
    skills = _names(owner, "skills") | set((stored.index.skills or {}) if stored else ())
    nodes += [b.leaf(("skills", name), "skill", levels, idle="no skills graded") for name in sorted(skills)]
    lock = stored.lock_snapshot if stored else None
    pins: dict[str, LockMember] = {m.schema_id: m for m in lock.members} if lock else {}
    members = (
        set(stored.members if stored else ())
        | set(pins)
        | {m.schema_id for m in (definition.members if definition else [])}
    )
    for schema_id in sorted(members):
        nodes.append(
            _member(b, schema_id, providers, stored.members.get(schema_id) if stored else None, pins.get(schema_id))
        )
    status = rollup_status(n.status for n in nodes)
    aggregate = [n.grade for n in nodes if n.kind == "selection-aggregate"]
    return b.finish(
        "selection",
        nodes,
        status,
        rollup_grade(aggregate, rejected=status == "rejected"),
        lock_snapshot=lock,
        definition=definition,
        definition_file=definition_file,
    )


def _member(
    b: _Builder, schema_id: str, providers: dict[str, Rollup], stored: IndexMember | None, pin: LockMember | None
) -> Node:
    """SEL003: a member resolves to its provider schema's tools-aggregate node."""
    path = ("members", schema_id)
    parts = schema_id.split(".")
    if len(parts) != 2 or not all(parts):
        return b.derived(path, "member", "blocked", None, f"malformed schemaId: {schema_id}", stored, pinned=pin)
    namespace, schema = parts
    provider = providers.get(namespace)
    aggregate = provider.node("schemas", schema, "toolsAggregate") if provider else None
    if provider is None or aggregate is None:
        return b.derived(path, "member", "pending", None, NOT_IMPORTED, stored, pinned=pin)
    return b.derived(
        path,
        "member",
        aggregate.status,
        aggregate.grade,
        aggregate.reason,
        stored,
        pinned=pin,
        provider=(namespace, schema),
    )


def _names(owner: OwnerFiles, head: str) -> set[str]:
    """Names of the tree's `schemas` or `skills` nodes."""
    return {slot.path[1] for slot in owner.slots if slot.path[0] == head and len(slot.path) >= 2}


def _blockers(stored: StoredIndex | None, nodes: Iterable[Node]) -> tuple[BlockerRecord, ...]:
    """The stored blockers and the ones this rebuild finds (FlowMCP's rule: blocked nodes, schema
    nodes that carry a reason, members not imported), merged by node and reason."""
    found: dict[tuple[str, str], str] = {}
    for blocker in stored.blockers if stored else ():
        found[(blocker.node, blocker.reason)] = "index.json"
    for node in nodes:
        if node.reason and (node.status == "blocked" or node.kind == "schema" or node.reason == NOT_IMPORTED):
            key = (node.label, node.reason)
            found[key] = "both" if key in found else "rebuild"
    return tuple(BlockerRecord(node, reason, origin) for (node, reason), origin in sorted(found.items()))


def _versions(nodes: Iterable[Node]) -> tuple[tuple[str, str], ...]:
    current = [n.current for n in nodes if n.current is not None and n.current.entry is not None]
    current.sort(key=lambda r: (r.name.timestamp, r.file), reverse=True)
    pairs: list[tuple[str, str]] = []
    for record in current:
        assert record.entry is not None
        pair = (record.entry.scoring_system, record.entry.grading_system)
        if pair not in pairs:
            pairs.append(pair)
    return tuple(pairs)
