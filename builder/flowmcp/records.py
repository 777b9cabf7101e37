"""What the FlowMCP reader hands to the store and the pages: validated entries with their
recomputed grades, the nodes of each namespace and selection, and their rollups, each carrying the
stored value beside the recomputed one wherever the two differ."""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.engine.problems import json_path
from builder.flowmcp.layout import GradingName, NodePath
from builder.flowmcp.models import (
    GradingEntry,
    IndexFile,
    LockMember,
    LockSnapshot,
    SelectionDefinition,
)
from builder.flowmcp.rules import EntryGrade


@dataclass(frozen=True)
class Difference:
    """A stored value that the recomputation does not reproduce. Also logged as a warning."""

    file: str
    json_path: str
    field: str
    stored: str | None
    recomputed: str | None
    why: str


@dataclass(frozen=True)
class EntryRecord:
    """One file of a node's audit trail. Invalid files stay in the trail (rejected, with reasons)
    so a maintainer sees that the newest grading did not count and why."""

    file: str
    """Relative to the data directory."""
    ref: str
    """Relative to the namespace or selection folder, as index.json writes `ref`."""
    name: GradingName
    page_dir: tuple[str, ...]
    entry: GradingEntry | None
    reasons: tuple[str, ...] = ()
    tier: str = "autonomous"
    """The tier of the entry's area (the spec binds areas to tiers)."""
    computed: EntryGrade | None = None
    grade: str | None = None
    """The grade the entry stands for: the computed one, or for a partial grading the last full
    grading's (08 §3: partial leaves aggregateGrade unchanged). None: nothing to grade."""
    grade_note: str | None = None
    differences: tuple[Difference, ...] = ()

    @property
    def valid(self) -> bool:
        return self.entry is not None


@dataclass(frozen=True)
class Node:
    path: NodePath
    kind: str
    """tool, tools-aggregate, schema, about, description, namespace-aggregate, skill,
    selection-aggregate, member."""
    area: str | None
    """The area that grades it; None for the derived schema and member nodes."""
    status: str
    grade: str | None
    reason: str | None
    source: str
    """`entries` (recomputed from the tree), `index` (only index.json knows it: its values are
    shown as stored, after the checks that need no entry), `derived` (schema and member nodes,
    from other nodes), or `none` (nothing is known yet: pending)."""
    trail: tuple[EntryRecord, ...] = ()
    stored_status: str | None = None
    stored_grade: str | None = None
    stored_ref: str | None = None
    listed: bool = False
    """index.json lists this node."""
    differences: tuple[Difference, ...] = ()
    pinned: LockMember | None = None
    """For a member: its frozen pin in lockSnapshot, shown beside its live status."""
    provider: tuple[str, str] | None = None
    """For a member: the (namespace, schema) it resolves to, when that namespace is in the data."""

    @property
    def current(self) -> EntryRecord | None:
        return self.trail[-1] if self.trail else None

    @property
    def key(self) -> str:
        """The node as index.json addresses it: `$.schemas.prices.tools.getFirstPrice`."""
        return json_path(self.path)

    @property
    def label(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True)
class BlockerRecord:
    node: str
    reason: str
    origin: str
    """`index.json`, `rebuild`, or `both`."""


@dataclass(frozen=True)
class Rollup:
    kind: str
    """`provider` or `selection`."""
    name: str
    slug: str
    index_file: str | None
    index_state: str
    """`absent`, `read` or `rejected`."""
    index: IndexFile | None
    nodes: tuple[Node, ...]
    status: str
    grade: str | None
    stored_status: str | None
    stored_grade: str | None
    differences: tuple[Difference, ...]
    """Every difference of the rollup and its nodes, in node order."""
    blockers: tuple[BlockerRecord, ...]
    lock_snapshot: LockSnapshot | None = None
    definition: SelectionDefinition | None = None
    definition_file: str | None = None
    versions: tuple[tuple[str, str], ...] = field(default=())
    """(scoringSystem, gradingSystem) pairs of the current entries, newest entry's pair first."""
    updated_at: str | None = None
    """The stored index's `updatedAt`, shown as is (the site never writes a clock value)."""

    def node(self, *path: str) -> Node | None:
        for node in self.nodes:
            if node.path == path:
                return node
        return None

    @property
    def entries(self) -> tuple[EntryRecord, ...]:
        return tuple(record for node in self.nodes for record in node.trail)

    @property
    def last_scored_under(self) -> str | None:
        return self.versions[0][0] if self.versions else None

    @property
    def last_graded_under(self) -> str | None:
        return self.versions[0][1] if self.versions else None
