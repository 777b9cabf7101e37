"""A FlowMCP namespace's page (`providers/<ns>/index.html`) and its API JSON: its schemas and
tools, about, description, skills, blockers, what index.json states differently, and how to raise
the grade.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from builder.config import SiteConfig
from builder.flowmcp.pages.card import provider_card_file, provider_card_view
from builder.flowmcp.pages.rollup import NodeView, RollupContext, node_view, required_node, rollup_fields
from builder.flowmcp.pages.views import View, api_json, entry_models, labelled, rollup_page
from builder.flowmcp.records import Rollup
from builder.pages.page import DataFile, Page
from builder.publish.card_view import CardView


class SchemaView(View):
    name: str
    node: NodeView
    tools_aggregate: NodeView
    tools: list[NodeView]
    snapshot_file: str | None
    snapshot_hash: str | None


class ProviderContext(RollupContext):
    description_node: NodeView
    namespace_aggregate: NodeView
    schemas: list[SchemaView]
    summary_stored: dict[str, str]
    summary: dict[str, str]
    card: CardView | None = None
    """The namespace's embeddable card (builder.flowmcp.pages.card) and its snippets; not in its API JSON."""


def provider_context(rollup: Rollup) -> ProviderContext:
    schemas = []
    for node in rollup.nodes:
        if node.kind != "schema":
            continue
        name = node.path[1]
        tools = [n for n in rollup.nodes if n.kind == "tool" and n.path[1] == name]
        stored = rollup.index and (rollup.index.schemas or {}).get(name)
        snapshot = stored.get("snapshot") if isinstance(stored, dict) else None
        schemas.append(
            SchemaView(
                name=name,
                node=node_view(rollup, node),
                tools_aggregate=node_view(rollup, required_node(rollup, "schemas", name, "toolsAggregate")),
                tools=[node_view(rollup, t) for t in tools],
                snapshot_file=str(snapshot.get("file"))
                if isinstance(snapshot, dict) and snapshot.get("file")
                else None,
                snapshot_hash=str(snapshot.get("hash"))
                if isinstance(snapshot, dict) and snapshot.get("hash")
                else None,
            )
        )
    tools = [n for n in rollup.nodes if n.kind == "tool"]
    skills = [n for n in rollup.nodes if n.kind == "skill"]
    description = required_node(rollup, "description")
    summary = {
        "schemas": str(len(schemas)),
        "tools": str(len(tools)),
        "toolsStable": str(sum(1 for t in tools if t.status == "stable")),
        "about": required_node(rollup, "about").status,
        "description": description.status,
        "skills": str(sum(1 for s in skills if s.status in ("graded", "stable"))),
    }
    stored_summary = rollup.index.summary if rollup.index and rollup.index.summary else {}
    return ProviderContext(
        **rollup_fields(
            rollup,
            ("schema", "namespace-aggregate", "description", "skill"),
            "the worst grade among the schemas (each from its tools aggregate), the namespace aggregate, "
            "the description and the skills; REJECTED when any node is rejected",
        ),
        description_node=node_view(rollup, description),
        namespace_aggregate=node_view(rollup, required_node(rollup, "namespaceAggregate")),
        schemas=schemas,
        summary_stored={
            key: json.dumps(value) if not isinstance(value, str) else value
            for key, value in sorted(stored_summary.items())
        },
        summary=summary,
    )


def provider_outputs(rollup: Rollup, config: SiteConfig) -> Iterator[Page | DataFile]:
    """The namespace's page, its API JSON (the same model, but the card) and its card."""
    context = labelled(provider_context(rollup), entry_models(rollup.entries))
    yield Page(rollup_page(rollup), "flowmcp/provider.html",
               context.model_copy(update={"card": provider_card_view(rollup, config)}))
    yield DataFile(context.api_path, api_json(context, exclude={"card"}))
    yield provider_card_file(rollup)
