"""What a namespace's page and a selection's page share: the rollup's context fields and the view
of one node of its tree (status, grade, stored values, its current entry's page).
"""

from __future__ import annotations

from typing import Any

from builder import urls
from builder.flowmcp.pages.hints import Hint, rollup_hints, stable_gap
from builder.flowmcp.pages.views import (
    NODE_STATUS_ORDER,
    Context,
    DifferenceView,
    View,
    differences,
    entry_paths,
    exact_float,
    mean_text,
    rollup_api,
)
from builder.flowmcp.records import EntryRecord, Node, Rollup


class NodeView(View):
    path: str
    """The node as index.json addresses it, dotted: `schemas.prices.tools.getFirstPrice`."""
    name: str
    kind: str
    area: str | None
    status: str
    grade: str | None
    reason: str | None
    source: str
    stored_status: str | None
    stored_grade: str | None
    listed: bool
    differences: list[DifferenceView]
    scoring_system: str | None
    grading_system: str | None
    graded_at: str | None
    mean: float | None
    """The current full entry's weighted mean, unrounded; None when it is vetoed (REJECTED)."""
    mean_text: str | None
    """`mean` as printed beside the grade: it bands to the grade (builder.numbers.banded)."""
    entries: int
    entry_page: str | None
    """Output path of the current entry's page."""
    not_stable_because: str | None


class BlockerView(View):
    node: str
    reason: str
    origin: str


class VersionsView(View):
    scoring_system: str
    grading_system: str


class GradeBasis(View):
    """One node that feeds the rollup grade."""

    name: str
    grade: str | None


class RollupContext(Context):
    kind: str
    name: str
    slug: str
    status: str
    grade: str | None
    stored_status: str | None
    stored_grade: str | None
    index_state: str
    index_file: str | None
    updated_at: str | None
    last_scored_under: str | None
    last_graded_under: str | None
    versions: list[VersionsView]
    status_counts: dict[str, int]
    grade_basis: list[GradeBasis]
    grade_rule: str
    about: NodeView
    skills: list[NodeView]
    blockers: list[BlockerView]
    differences: list[DifferenceView]
    hints: list[Hint]
    api_path: str
    section_path: str


def _node_name(node: Node) -> str:
    names = {
        "about": "About",
        "description": "Description",
        "namespace-aggregate": "Namespace aggregate",
        "selection-aggregate": "Selection aggregate",
        "tools-aggregate": "Tools aggregate",
    }
    return names.get(node.kind, node.path[-1])


def _full(record: EntryRecord) -> bool:
    return record.entry is not None and record.entry.grading_mode == "full"


def _node_mean(current: EntryRecord | None) -> float | None:
    if current is None or current.computed is None or not _full(current):
        return None
    if current.entry is not None and current.entry.categorical_veto is not None:
        return None
    return exact_float(current.computed.mean)


def node_view(rollup: Rollup, node: Node) -> NodeView:
    current = node.current
    entry = current.entry if current is not None else None
    return NodeView(
        path=node.label,
        name=_node_name(node),
        kind=node.kind,
        area=node.area,
        status=node.status,
        grade=node.grade,
        reason=node.reason,
        source=node.source,
        stored_status=node.stored_status,
        stored_grade=node.stored_grade,
        listed=node.listed,
        differences=differences(node.differences),
        scoring_system=entry.scoring_system if entry else None,
        grading_system=entry.grading_system if entry else None,
        graded_at=current.name.timestamp if current else None,
        mean=_node_mean(current),
        mean_text=mean_text(_node_mean(current)),
        entries=len(node.trail),
        entry_page=entry_paths(rollup, current)[0] if current is not None and entry is not None else None,
        not_stable_because=stable_gap(node),
    )


def required_node(rollup: Rollup, *path: str) -> Node:
    """A node every rollup has (the rollup builders always make it)."""
    node = rollup.node(*path)
    if node is None:
        raise LookupError(f"{rollup.name} has no node {'.'.join(path)}")
    return node


def _entry_links(rollup: Rollup) -> dict[str, str]:
    return {
        node.label: entry_paths(rollup, node.current)[0]
        for node in rollup.nodes
        if node.current is not None and node.current.entry is not None
    }


def _status_counts(rollup: Rollup) -> dict[str, int]:
    counts = {status: 0 for status in NODE_STATUS_ORDER}
    for node in rollup.nodes:
        counts[node.status] += 1
    return {status: count for status, count in counts.items() if count}


def rollup_fields(rollup: Rollup, basis_kinds: tuple[str, ...], grade_rule: str) -> dict[str, Any]:
    return dict(
        title=f"{rollup.name} ({'namespace' if rollup.kind == 'provider' else 'selection'})",
        description=f"FlowMCP {'namespace' if rollup.kind == 'provider' else 'selection'} {rollup.name}: "
        f"{rollup.status}, grade {rollup.grade or 'none yet'}, recomputed from its grading entries.",
        kind=rollup.kind,
        name=rollup.name,
        slug=rollup.slug,
        status=rollup.status,
        grade=rollup.grade,
        stored_status=rollup.stored_status,
        stored_grade=rollup.stored_grade,
        index_state=rollup.index_state,
        index_file=rollup.index_file,
        updated_at=rollup.updated_at,
        last_scored_under=rollup.last_scored_under,
        last_graded_under=rollup.last_graded_under,
        versions=[VersionsView(scoring_system=s, grading_system=g) for s, g in rollup.versions],
        status_counts=_status_counts(rollup),
        grade_basis=[GradeBasis(name=n.label, grade=n.grade) for n in rollup.nodes if n.kind in basis_kinds],
        grade_rule=grade_rule,
        about=node_view(rollup, required_node(rollup, "about")),
        skills=[node_view(rollup, n) for n in rollup.nodes if n.kind == "skill"],
        blockers=[BlockerView(node=b.node, reason=b.reason, origin=b.origin) for b in rollup.blockers],
        differences=differences(rollup.differences),
        hints=rollup_hints(rollup, _entry_links(rollup)),
        api_path=rollup_api(rollup),
        section_path=urls.FLOWMCP,
    )
