"""Synthetic MCP servers: which tools a server offers and how its author wrote them.

A server is drawn in two layers. The *author* holds the habits that are consistent across one
server in real registries (naming convention, how many parameters get descriptions, schema
dialect, whether annotations and titles are used, how careful the descriptions are). Each *tool*
is a blueprint (operation, name, parameters, annotations, description plan) that renders to the
exact `tools/list` entry. Blueprints are kept rather than dicts so that `history.py` can change
one thing about a tool, or leave it alone and get byte-identical JSON and the same inputHash.

Everything is a pure function of `(seed, server plan)` through `rng.derive_rng`.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from scorecards_demo.descriptions import DescriptionPlan, Sibling, Voice, compose_description
from scorecards_demo.domains import DOMAINS
from scorecards_demo.fields import DocStyle, describe_field
from scorecards_demo.naming import CONVENTIONS, Convention, tool_name, tool_title
from scorecards_demo.operations import Operation, domain_operations, related_kinds
from scorecards_demo.plan import ServerPlan
from scorecards_demo.quality import draw_plan, server_care, tool_care
from scorecards_demo.rng import derive_rng
from scorecards_demo.schemas import Param, SchemaStyle, input_schema, output_schema
from scorecards_demo.vocabulary import FieldSpec, parse_fields

MAX_PARAMS = 6
MAX_SPARES = 8
CONTRADICTION_RATE = 0.014
"""Per annotated mutating tool: a copied `readOnlyHint: true`. About 0.5 % of all tools."""

SYNONYMS = {
    "get": ("fetch", "retrieve", "read"),
    "list": ("fetch", "get all"),
    "search": ("find", "query"),
    "create": ("add", "new"),
    "update": ("edit", "modify"),
    "delete": ("remove", "destroy"),
}
_CONVENTION_WEIGHTS = (66, 13, 4, 2, 3, 4, 8)
"""Shares of `naming.CONVENTIONS`: snake_case dominates MCP, camelCase follows."""
_EXTRA = {
    field.name: field for field in parse_fields("query! force:boolean format{csv,json,ndjson} ids![] changes!:object")
}
"""Parameters of the generic operations (search, delete, export, bulk update) that no resource
declares."""


@dataclass(frozen=True)
class Author:
    care: float
    convention: Convention
    drift: Convention
    """The convention some of the author's tools slip into."""
    drift_rate: float
    prefix: str
    doc_rate: float
    """Share of parameters that get a description."""
    doc_style: DocStyle
    schema_style: SchemaStyle
    nest_filters: bool
    union_keys: bool
    annotate_rate: float
    annotation_titles: bool
    title_rate: float
    output_rate: float
    synonym_rate: float
    contradiction_rate: float
    voice: Voice


@dataclass(frozen=True)
class ToolBlueprint:
    op: Operation
    name: str
    title: str | None
    params: tuple[Param, ...]
    annotations: dict[str, Any] | None
    output_schema: dict[str, Any] | None
    plan: DescriptionPlan


@dataclass(frozen=True)
class ServerDraft:
    plan: ServerPlan
    author: Author
    tools: tuple[ToolBlueprint, ...]
    spare: tuple[Operation, ...]
    """Operations the server could offer but does not now; `history` adds removed tools from
    here."""


def _share(rng: random.Random, *options: tuple[float, float]) -> float:
    """Picks a value from `(weight, value)` pairs; a negative value means uniform in [0.2, 0.9]."""
    total = sum(weight for weight, _ in options)
    u = rng.random() * total
    for weight, value in options:
        if u < weight:
            return value if value >= 0 else rng.uniform(0.2, 0.9)
        u -= weight
    return options[-1][1]


def draw_author(rng: random.Random, brand: str) -> Author:
    convention = rng.choices(CONVENTIONS, weights=_CONVENTION_WEIGHTS)[0]
    drift = rng.choice([other for other in CONVENTIONS if other != convention])
    style: SchemaStyle = rng.choices(("plain", "zod", "pydantic"), weights=(35, 40, 25))[0]
    annotate_rate = _share(rng, (55, 0.0), (30, 1.0), (15, -1))
    prefix = "".join(ch for ch in brand.lower() if ch.isascii() and ch.isalnum()) or "mcp"
    care = server_care(rng)
    return Author(
        care=care,
        convention=convention,
        drift=drift,
        drift_rate=_share(rng, (88, 0.0), (12, 0.25)),
        prefix=prefix,
        doc_rate=_share(rng, (0.45 + 0.45 * care, 1.0), (0.25 * (1 - care), 0.0), (0.05 + 0.3 * (1 - care), -1)),
        doc_style=rng.choices(("rich", "terse"), weights=(60, 40))[0],
        schema_style=style,
        nest_filters=rng.random() < 0.1,
        union_keys=rng.random() < 0.08,
        annotate_rate=annotate_rate,
        annotation_titles=rng.random() < 0.2,
        title_rate=_share(rng, (60, 0.0), (25, 1.0), (15, 0.5)),
        output_rate=_share(rng, (85, 0.0), (15, 0.6)),
        synonym_rate=_share(rng, (85, 0.0), (15, 0.12)),
        contradiction_rate=CONTRADICTION_RATE if annotate_rate > 0 else 0.0,
        voice=Voice(
            brand=brand,
            docstring=style == "pydantic" and rng.random() < 0.5,
            markdown=rng.random() < 0.15,
        ),
    )


def _sequence(domain_index: int, author: Author, rng: random.Random) -> list[Operation]:
    """A domain's operations in the order a server adds them: resource by resource, core
    operations first (some skipped, which is what leaves real surfaces incomplete), actions
    interleaved, then the extras, then what was skipped."""
    ops = domain_operations(DOMAINS[domain_index])
    resources = list(dict.fromkeys(op.resource for op in ops if op.resource is not None))
    rng.shuffle(resources)
    actions = [op for op in ops if op.action is not None]
    rng.shuffle(actions)
    ordered: list[Operation] = []
    skipped: list[Operation] = []
    for resource in resources:
        for op in ops:
            if op.resource is resource and op.core:
                (ordered if rng.random() < 0.85 else skipped).append(op)
        if actions:
            ordered.append(actions.pop())
    ordered.extend(actions)
    extras = [op for op in ops if op.resource is not None and not op.core]
    rng.shuffle(extras)
    ordered.extend(extras)
    ordered.extend(skipped)
    with_synonyms: list[Operation] = []
    for op in ordered:
        with_synonyms.append(op)
        if op.verb in SYNONYMS and rng.random() < author.synonym_rate:
            with_synonyms.append(dataclasses.replace(op, verb=rng.choice(SYNONYMS[op.verb])))
    return with_synonyms


def name_for(op: Operation, author: Author, rng: random.Random) -> str:
    convention = author.drift if rng.random() < author.drift_rate else author.convention
    return tool_name(op.verb, op.noun, convention, prefix=author.prefix)


def _choose(
    plan: ServerPlan, author: Author, rng: random.Random
) -> tuple[list[tuple[Operation, str]], list[Operation]]:
    """Exactly `plan.tool_count` operations with distinct names, adding further domains when
    the primary one runs out (the all-in-one servers of the long tail). What is left of the last
    domain becomes the spares."""
    others = [index for index in range(len(DOMAINS)) if index != plan.domain]
    rng.shuffle(others)
    chosen: list[tuple[Operation, str]] = []
    spare: list[Operation] = []
    names: set[str] = set()
    for domain_index in [plan.domain, *others]:
        for op in _sequence(domain_index, author, rng):
            name = name_for(op, author, rng)
            if name in names:
                continue
            if len(chosen) < plan.tool_count:
                names.add(name)
                chosen.append((op, name))
            elif len(spare) < MAX_SPARES:
                spare.append(op)
        if len(chosen) == plan.tool_count:
            return chosen, spare
    raise ValueError(f"the domains cannot supply {plan.tool_count} distinct tools")


def _fields(op: Operation, rng: random.Random) -> list[tuple[FieldSpec, bool]]:
    """The (field, required) pairs a tool for `op` takes, before documentation."""
    if op.action is not None:
        return [(field, field.required) for field in op.action.params]
    resource = op.resource
    assert resource is not None
    parent = [(resource.parent, resource.parent.required)] if resource.parent else []
    required_parent = [(field, True) for field, required in parent if required]
    key = [(resource.key, True)]
    filters = [field for field in resource.filters if field.name not in ("query",)]
    plain_filters = [field for field in filters if field.name not in ("limit", "cursor")]
    optional_fields = [field for field in resource.fields if not field.required]

    def some(items: list[FieldSpec], low: int = 0) -> list[tuple[FieldSpec, bool]]:
        if not items:
            return []
        count = rng.randint(min(low, len(items)), len(items))
        return [(field, False) for field in rng.sample(items, count)]

    kind = op.kind
    if kind == "list":
        return parent + some(filters)
    if kind == "get":
        return required_parent + key
    if kind == "create":
        required = [(field, True) for field in resource.fields if field.required]
        return parent + required + some(optional_fields)
    if kind == "update":
        return required_parent + key + some(list(resource.fields), low=1)
    if kind == "delete":
        force = [(_EXTRA["force"], False)] if rng.random() < 0.3 else []
        return required_parent + key + force
    if kind == "search":
        return [(_EXTRA["query"], True), *parent, *some(filters)]
    if kind == "archive":
        return required_parent + key
    if kind == "count":
        return parent + some(plain_filters)
    if kind == "export":
        return [(_EXTRA["format"], False), *parent, *some(plain_filters)]
    return [(_EXTRA["ids"], True), (_EXTRA["changes"], True)]


def _params(op: Operation, author: Author, rng: random.Random) -> tuple[Param, ...]:
    seen: set[str] = set()
    pairs: list[tuple[FieldSpec, bool]] = []
    for field, required in _fields(op, rng):
        if field.name not in seen:
            seen.add(field.name)
            pairs.append((field, required))
    while len(pairs) > MAX_PARAMS:
        optional = [index for index, (_, required) in enumerate(pairs) if not required]
        pairs.pop(optional[-1] if optional else len(pairs) - 1)
    owner = op.subject
    key_name = op.resource.key.name if op.resource is not None else None
    return tuple(
        Param(
            field=field,
            required=required,
            description=(
                describe_field(field, owner=owner, style=author.doc_style) if rng.random() < author.doc_rate else None
            ),
            union=author.union_keys and field.name == key_name and field.kind == "string",
        )
        for field, required in pairs
    )


def _annotations(op: Operation, author: Author, rng: random.Random) -> dict[str, Any] | None:
    if rng.random() >= author.annotate_rate:
        return None
    hints: dict[str, Any] = {}
    if author.annotation_titles:
        hints["title"] = tool_title(op.verb, op.noun)
    if op.effect != "read" and rng.random() < author.contradiction_rate:
        # A copy-pasted annotation block: a mutating tool declared read-only.
        hints["readOnlyHint"] = True
        return hints
    hints["readOnlyHint"] = op.effect == "read"
    if op.effect != "read":
        hints["destructiveHint"] = op.effect == "delete"
    if op.effect in ("read", "update") and rng.random() < 0.5:
        hints["idempotentHint"] = True
    if op.effect == "external" or op.domain.key in ("web", "maps", "weather"):
        hints["openWorldHint"] = True
    return hints


def _output_schema(op: Operation, author: Author, rng: random.Random) -> dict[str, Any] | None:
    if op.kind not in ("get", "list", "search", "create", "action"):
        return None
    if rng.random() >= author.output_rate:
        return None
    if op.resource is None:
        result = FieldSpec(name="result", kind="string")
        return output_schema((result,), many=False)
    fields = (op.resource.key, *op.resource.fields[:4])
    return output_schema(fields, many=op.kind in ("list", "search"))


def _sibling(op: Operation, others: list[tuple[Operation, str]]) -> Sibling | None:
    """The sibling a careful author would name to mark this tool's boundary, if the server has
    one: the list tool for a get, the archive tool for a delete, a read tool on the same thing
    for an action."""
    if op.resource is not None:
        for kind in related_kinds(op.kind):
            for other, name in others:
                if other.resource is op.resource and other.kind == kind:
                    return Sibling(name=name, kind=kind)
        return None
    for other, name in others:
        if other.resource is not None and other.resource.singular in op.noun and other.kind in ("get", "list"):
            return Sibling(name=name, kind=other.kind)
    return None


def make_tool(
    op: Operation,
    name: str,
    author: Author,
    others: list[tuple[Operation, str]],
    rng: random.Random,
) -> ToolBlueprint:
    care = tool_care(author.care, rng)
    params = _params(op, author, rng)
    title = None
    if rng.random() < author.title_rate:
        title = name if rng.random() < 0.06 else tool_title(op.verb, op.noun)
    return ToolBlueprint(
        op=op,
        name=name,
        title=title,
        params=params,
        annotations=_annotations(op, author, rng),
        output_schema=_output_schema(op, author, rng),
        plan=draw_plan(care=care, has_params=bool(params), sibling=_sibling(op, others), rng=rng),
    )


def build_server(plan: ServerPlan, seed: int) -> ServerDraft:
    rng = derive_rng(seed, "server", plan.server_id)
    author = draw_author(rng, plan.brand)
    chosen, spare = _choose(plan, author, rng)
    tools = tuple(
        make_tool(op, name, author, chosen, derive_rng(seed, "tool", plan.server_id, name)) for op, name in chosen
    )
    return ServerDraft(plan=plan, author=author, tools=tools, spare=tuple(spare))


def render_tool(tool: ToolBlueprint, author: Author) -> dict[str, Any]:
    """The `tools/list` entry, camelCase as MCP publishes it, absent fields omitted."""
    entry: dict[str, Any] = {"name": tool.name}
    if tool.title is not None:
        entry["title"] = tool.title
    description = compose_description(
        op=tool.op,
        plan=tool.plan,
        params=tool.params,
        voice=author.voice,
        name=tool.name,
        title=tool.title,
    )
    if description is not None:
        entry["description"] = description
    entry["inputSchema"] = input_schema(
        tool.params, author.schema_style, tool_name=tool.name, nest_filters=author.nest_filters
    )
    if tool.annotations is not None:
        entry["annotations"] = tool.annotations
    if tool.output_schema is not None:
        entry["outputSchema"] = tool.output_schema
    return entry
