"""A FlowMCP selection's page (`selections/<sel>/index.html`) and its API JSON: its members, each
with its node and the namespace it comes from, and the frozen lockSnapshot.
"""

from __future__ import annotations

from collections.abc import Iterator

from builder.flowmcp.pages.rollup import NodeView, RollupContext, node_view, required_node, rollup_fields
from builder.flowmcp.pages.views import View, api_json, entry_models, labelled, rollup_page
from builder.flowmcp.records import Rollup
from builder.pages.page import DataFile, Page


class MemberView(View):
    schema_id: str
    node: NodeView
    provider_page: str | None
    pinned_status: str | None
    pinned_hash: str | None
    pinned_version: str | None


class LockView(View):
    selection_id: str | None
    selection_version: str | None
    selection_hash: str | None
    generated_at: str | None


class SelectionContext(RollupContext):
    selection_aggregate: NodeView
    members: list[MemberView]
    lock_snapshot: LockView | None
    definition_file: str | None
    display_name: str | None
    summary_text: str | None
    when_to_use: str | None
    persona_ids: list[str]


def selection_context(rollup: Rollup, providers: dict[str, Rollup]) -> SelectionContext:
    members = []
    for node in rollup.nodes:
        if node.kind != "member":
            continue
        pin = node.pinned
        provider = providers.get(node.provider[0]) if node.provider else None
        members.append(
            MemberView(
                schema_id=node.path[1],
                node=node_view(rollup, node),
                provider_page=rollup_page(provider) if provider else None,
                pinned_status=pin.grading_status if pin else None,
                pinned_hash=pin.schema_hash if pin else None,
                pinned_version=pin.schema_version if pin else None,
            )
        )
    lock = rollup.lock_snapshot
    definition = rollup.definition
    return SelectionContext(
        **rollup_fields(
            rollup, ("selection-aggregate",), "the selection aggregate's grade; REJECTED when any node is rejected"
        ),
        selection_aggregate=node_view(rollup, required_node(rollup, "selectionAggregate")),
        members=members,
        lock_snapshot=LockView(
            selection_id=lock.selection_id,
            selection_version=lock.selection_version,
            selection_hash=lock.selection_hash,
            generated_at=lock.generated_at,
        )
        if lock
        else None,
        definition_file=rollup.definition_file,
        display_name=definition.name if definition else None,
        summary_text=definition.description if definition else None,
        when_to_use=definition.when_to_use if definition else None,
        persona_ids=list(definition.persona_ids) if definition else [],
    )


def selection_outputs(rollup: Rollup, providers: dict[str, Rollup]) -> Iterator[Page | DataFile]:
    """The selection's page and its API JSON (the same model); `providers` by name, for links to
    its members' namespaces."""
    context = labelled(selection_context(rollup, providers), entry_models(rollup.entries))
    yield Page(rollup_page(rollup), "flowmcp/selection.html", context)
    yield DataFile(context.api_path, api_json(context))
