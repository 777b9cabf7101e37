"""Tool descriptions composed from a plan of what the author bothered to say.

A description is a purpose sentence plus optional parts, each matching one thing the TDQS rubric
rewards: a contrast with a named sibling, usage guidance (implied, when, when-not), behavioural
facts, parameter semantics, the return value. Filler sentences ("This tool allows you to …")
are what conciseness penalises. The parts are chosen in `quality.py`; this module only words
them, with enough template variety that a corpus of 200,000 tools does not read as one sentence.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Literal

from scorecards_demo.fields import describe_field
from scorecards_demo.operations import Operation, OpKind
from scorecards_demo.schemas import Param
from scorecards_demo.vocabulary import Effect, FieldSpec, Resource
from scorecards_demo.wording import article, capitalize_first, join_words

DescriptionKind = Literal["missing", "tautology", "mismatched", "terse", "vague", "clear"]
"""`mismatched` is a sibling's description pasted onto the wrong tool: it reads well and says
the wrong thing, which is the one way a description earns "misleading"."""


@dataclass(frozen=True)
class Sibling:
    """A tool of the same server that a description can name as the alternative."""

    name: str
    kind: OpKind


@dataclass(frozen=True)
class DescriptionPlan:
    kind: DescriptionKind
    detail: bool
    """The purpose sentence carries a qualifier (scope, key, filters) beyond verb + resource."""
    contrast: Sibling | None
    """A sibling tool the description names to draw a boundary."""
    usage: int
    """0 none, 1 implied, 2 says when, 3 says when and when not."""
    behavior: int
    """How many behavioural facts (side effects, limits, auth, pagination) it discloses, 0-3."""
    params: int
    """0 says nothing about parameters, 1 names them, 2 explains their formats."""
    returns: bool
    filler: int
    """Sentences that add nothing, 0-2."""
    variant: int
    """Seeds the wording, so the same plan always reads the same."""


_PLAIN = DescriptionPlan(
    kind="clear",
    detail=False,
    contrast=None,
    usage=0,
    behavior=0,
    params=0,
    returns=False,
    filler=0,
    variant=0,
)


@dataclass(frozen=True)
class Voice:
    """How a server's author writes, beyond what they say."""

    brand: str
    docstring: bool
    """Python-docstring layout: `Args:` and `Returns:` blocks."""
    markdown: bool
    """Paragraph breaks, and behavioural facts as a bulleted list."""


def _words(name: str) -> str:
    return name.replace("_", " ")


def _key_phrase(resource: Resource) -> str:
    """How prose names a record's identifier: `ID`, or `name` when the key is the resource
    itself (`bucket`, `table`), or the key's own words (`path`, `pull number`)."""
    key = resource.key.name
    if key.endswith("_id"):
        return "ID"
    return "name" if _words(key) in resource.singular else _words(key)


def _purpose(op: Operation, plan: DescriptionPlan, params: tuple[Param, ...]) -> str:
    resource = op.resource
    if resource is None:
        assert op.action is not None
        if plan.detail:
            return f"{op.action.purpose}, returning {op.action.returns}."
        return f"{op.action.purpose}."
    one, many, where = resource.singular, resource.plural, resource.where
    where = f" {where}" if where else ""
    a_one = f"{article(one)} {one}"
    named = [_words(p.field.name) for p in params if not p.required][:2]
    writable = [_words(f.name) for f in resource.fields][:3]
    detailed: dict[OpKind, str] = {
        "list": f"List {many}{where}, filtered by {join_words(named)}."
        if named
        else f"List all {many}{where}, newest first.",
        "get": f"Get a single {one} by its {_key_phrase(resource)}, including its {resource.shows}.",
        "create": f"Create a new {one}{where} with {join_words(writable)}."
        if writable
        else f"Create a new {one}{where}.",
        "update": f"Update the {join_words(writable)} of an existing {one}.",
        "delete": f"Delete a single {one} by its {_key_phrase(resource)}.",
        "search": f"Search {many}{where} by keyword across their text fields.",
        "archive": f"Archive {a_one} so it no longer appears in default lists.",
        "count": f"Count the {many}{where} that match the given filters.",
        "export": f"Export all {many}{where} as CSV or JSON.",
        "bulk_update": f"Apply the same changes to many {many} at once by ID.",
    }
    plain: dict[OpKind, str] = {
        "list": f"List all {many}{where}.",
        "get": f"Get the details of {a_one}.",
        "create": f"Create a new {one}{where}.",
        "update": f"Update an existing {one}.",
        "delete": f"Delete {a_one} by {_key_phrase(resource)}.",
        "search": f"Search for {many}{where}.",
        "archive": f"Archive {a_one} by {_key_phrase(resource)}.",
        "count": f"Count the {many}{where}.",
        "export": f"Export {many} to a file.",
        "bulk_update": f"Update many {many} in bulk.",
    }
    return (detailed if plan.detail else plain)[op.kind]


_OPPOSITE: dict[OpKind, tuple[OpKind, ...]] = {
    "list": ("create", "delete"),
    "get": ("update", "delete"),
    "search": ("create",),
    "count": ("delete",),
    "export": ("create",),
    "create": ("list", "delete"),
    "update": ("get", "delete"),
    "bulk_update": ("list",),
    "delete": ("create", "list"),
    "archive": ("create",),
}


def _mismatched(op: Operation, rng: random.Random) -> str:
    """The plain purpose of an operation that does something else to the same thing."""
    if op.action is not None:
        others = [item for item in op.domain.actions if item.verb != op.action.verb]
        if others:
            return f"{rng.choice(others).purpose}."
        return f"{op.action.returns[:1].upper()}{op.action.returns[1:]}."
    other = dataclasses.replace(op, kind=rng.choice(_OPPOSITE[op.kind]))
    return _purpose(other, _PLAIN, ())


def _vague(op: Operation, voice: Voice, rng: random.Random) -> str:
    many = op.resource.plural if op.resource is not None else op.noun or op.domain.label
    one = op.subject or op.domain.label
    return rng.choice(
        (
            f"Handles {many}.",
            f"Manage {voice.brand} {many}.",
            f"{capitalize_first(one)} tool.",
            f"Tool for working with {many}.",
            f"Interact with {many} in {voice.brand}.",
            f"Performs the {op.verb} operation.",
            f"{capitalize_first(op.verb)} stuff in {voice.brand}.",
        )
    )


_SIBLING_DOES: dict[OpKind, str] = {
    "list": "browse many {many}",
    "get": "look up one {one} by {key}",
    "search": "find {many} by text",
    "count": "get just the number of matches",
    "create": "add a new {one}",
    "update": "change an existing {one}",
    "bulk_update": "change many {many} at once",
    "archive": "hide {a_one} without deleting it",
    "delete": "remove {a_one} permanently",
    "export": "download every {one}",
}


def _contrast(op: Operation, sibling: Sibling, slots: dict[str, str], rng: random.Random) -> str:
    """A sentence that draws the boundary with `sibling`, by what the sibling does (and, for a
    get beside a list, by what this tool does)."""
    name = sibling.name
    does = _SIBLING_DOES[sibling.kind].format(**slots)
    options = [f"To {does}, use {name} instead.", f"To {does}, use {name}."]
    if op.kind == "get" and sibling.kind in ("list", "search"):
        options.append(f"Unlike {name}, it returns one {slots['one']} with every field.")
    if op.kind == "list" and sibling.kind == "get":
        options.append(f"Unlike {name}, this returns many {slots['many']} at once.")
    if op.action is not None and op.effect != "read":
        options.append(f"Unlike {name}, this changes state.")
    return rng.choice(options)


_IMPLIED: dict[OpKind, str] = {
    "list": "Useful for getting an overview of {many}.",
    "get": "Useful for inspecting {a_one} before changing it.",
    "create": "Useful for recording new {many}.",
    "update": "Useful for keeping {many} current.",
    "delete": "Useful for cleaning up {many}.",
    "search": "Useful for finding {many} when you do not know the ID.",
    "archive": "Typically used to tidy up old {many}.",
    "count": "Handy for dashboards and quick checks.",
    "export": "Typically used for reporting and backups.",
    "bulk_update": "Useful for triage sessions.",
    "action": "Typically used in {brand} automation workflows.",
}
_WHEN: dict[OpKind, str] = {
    "list": "Use this when you need to see all {many}{where}.",
    "get": "Use this when you already know the {key} and need the full record.",
    "create": "Use this when {a_one} does not exist yet.",
    "update": "Use this when you need to change fields on an existing {one}.",
    "delete": "Use this when {a_one} must be removed for good.",
    "search": "Use this when you only know some words from the {one}.",
    "archive": "Use this when {a_one} is finished but should stay on record.",
    "count": "Use this when you only need the number of matches.",
    "export": "Use this when a person needs the {many} in a spreadsheet.",
    "bulk_update": "Use this when several {many} need the same change.",
    "action": "Use this when you need to {purpose}.",
}
_NOT: dict[OpKind, str] = {
    "list": "Do not use it to look up a single {one}",
    "get": "Do not use it to browse or search",
    "create": "Do not use it to modify an existing {one}",
    "update": "Do not use it to create {many}",
    "delete": "Do not use it if the {one} might be needed again",
    "search": "Do not use it when you already know the ID",
    "archive": "Do not use it to delete data",
    "count": "Do not use it to fetch the records themselves",
    "export": "Do not use it for small lookups",
    "bulk_update": "Do not use it for a single {one}",
    "action": "Do not use it for bulk changes",
}

_FACTS: dict[Effect, tuple[str, ...]] = {
    "read": (
        "Read-only: it never modifies data.",
        "Responses may be cached for up to 60 seconds.",
        "Requires a token with read access.",
        "Fails with a not-found error when the input matches nothing.",
    ),
    "create": (
        "Each call creates a new {one}, so retrying after a timeout can create duplicates.",
        "Requires write access.",
        "Watchers are notified by email.",
        "Rate limited to 30 requests per minute.",
    ),
    "update": (
        "Only the fields you pass are changed; omitted fields keep their values.",
        "Changes are recorded in the {one}'s history.",
        "Requires write access.",
        "Idempotent: repeating the same call has no further effect.",
    ),
    "delete": (
        "This permanently deletes the {one} and cannot be undone.",
        "Requires admin permissions.",
        "Related records are deleted with it.",
        "Fails with a not-found error if the {one} is already gone.",
    ),
    "external": (
        "This takes effect immediately and cannot be recalled.",
        "Requires the {brand} account to have the matching permission.",
        "Rate limited to 10 calls per minute.",
        "Runs asynchronously; the response only confirms the request was accepted.",
        "HTML such as <b> is stripped; use Markdown instead.",
    ),
}


_PAGED = (
    "Results are paginated; pass next_cursor back as cursor to get the next page.",
    "Returns at most 100 items per call.",
)


def _format(field: FieldSpec) -> str:
    if field.enum:
        return f"one of {', '.join(field.enum)}"
    if field.kind == "date":
        return "a YYYY-MM-DD date"
    if field.kind == "date-time":
        return "an ISO 8601 timestamp"
    if field.kind == "boolean":
        return "true or false (default false)"
    if field.kind in ("integer", "number"):
        return "a positive number"
    if field.kind == "email":
        return "an email address"
    if field.kind == "uri":
        return "an absolute http(s) URL"
    if field.kind == "object":
        return "an object (see the schema)"
    if field.array:
        return f"a list of {_words(field.name)}"
    if field.name.endswith("_id"):
        return f"the ID returned by the {_words(field.name[:-3])} tools"
    return f"the {_words(field.name)} as plain text"


def _param_sentence(params: tuple[Param, ...], level: int, rng: random.Random) -> str:
    if level == 1:
        names = [_words(p.field.name) for p in params[:3]]
        return rng.choice((f"Takes {join_words(names)}.", f"Provide the {join_words(names)}."))
    parts = [f"`{p.field.name}` is {_format(p.field)}" for p in params[:3]]
    return "; ".join(parts) + "."


def _docstring_args(params: tuple[Param, ...], owner: str) -> str:
    lines = ["Args:"]
    for param in params:
        doc = param.description or describe_field(param.field, owner=owner, style="rich")
        lines.append(f"    {param.field.name}: {doc}")
    return "\n".join(lines)


def _returned(op: Operation) -> str:
    """What the tool returns, as the object of "Returns …"."""
    if op.action is not None:
        return op.action.returns
    assert op.resource is not None
    if op.kind in ("list", "search"):
        return f"a page of {op.resource.plural} with their {op.resource.shows}"
    if op.kind == "count":
        return "the count as an integer"
    if op.kind in ("delete", "archive"):
        return f"the {op.resource.key.name} of the affected {op.resource.singular}"
    return f"the {op.resource.singular}'s {op.resource.shows}"


_FILLER = (
    "This tool allows you to {verb} {noun} using the {brand} API.",
    "It is a powerful and easy way to work with your {many}.",
    "Simply provide the required parameters and the tool will handle the rest.",
    "This is one of the tools provided by the {brand} MCP server.",
)


def compose_description(
    *,
    op: Operation,
    plan: DescriptionPlan,
    params: tuple[Param, ...],
    voice: Voice,
    name: str,
    title: str | None,
) -> str | None:
    """The description text, or None for a tool published without one."""
    rng = random.Random(plan.variant)
    one = op.subject or op.domain.label
    if plan.kind == "missing":
        return rng.choice((None, "", "  "))
    if plan.kind == "tautology":
        return title if title is not None and plan.variant % 2 else name
    if plan.kind == "mismatched":
        return _mismatched(op, rng)
    if plan.kind == "terse":
        # Never bare "Verb noun": with a title that reads the same, that is a tautology.
        verb, noun = capitalize_first(op.verb), op.noun or one
        return rng.choice((f"{verb} {noun}.", f"{verb} the {noun}.", f"{verb} {noun} in {voice.brand}."))
    resource = op.resource
    slots = {
        "one": one,
        "a_one": f"{article(one)} {one}",
        "many": resource.plural if resource is not None else f"{one}s",
        "where": f" {resource.where}" if resource is not None and resource.where else "",
        "key": _key_phrase(resource) if resource is not None else "ID",
        "brand": voice.brand,
        "verb": op.verb,
        "noun": op.noun or one,
        "purpose": op.action.purpose[:1].lower() + op.action.purpose[1:] if op.action is not None else "",
    }
    lead = _vague(op, voice, rng) if plan.kind == "vague" else _purpose(op, plan, params)

    sentences: list[str] = []
    fillers = [text.format(**slots) for text in rng.sample(_FILLER, plan.filler)]
    if fillers and rng.random() < 0.5:
        sentences.append(fillers.pop(0))
    sentences.append(lead)
    if plan.contrast is not None:
        sentences.append(_contrast(op, plan.contrast, slots, rng))
    if plan.usage == 1:
        sentences.append(_IMPLIED[op.kind].format(**slots))
    elif plan.usage >= 2:
        sentences.append(_WHEN[op.kind].format(**slots))
    if plan.usage == 3:
        alternative = f"; use {plan.contrast.name} for that." if plan.contrast is not None else "."
        sentences.append(_NOT[op.kind].format(**slots) + alternative)
    facts = list(_FACTS[op.effect])
    if op.kind in ("list", "search"):
        facts[1:1] = _PAGED
    disclosed = [fact.format(**slots) for fact in rng.sample(facts, min(plan.behavior, len(facts)))]

    if voice.markdown and disclosed:
        blocks = [" ".join(sentences + fillers), "\n".join(f"- {fact}" for fact in disclosed)]
    else:
        blocks = [" ".join(sentences + disclosed + fillers)]
    if plan.params and params:
        blocks.append(_docstring_args(params, one) if voice.docstring else _param_sentence(params, plan.params, rng))
    if plan.returns and not (plan.detail and op.action is not None):
        returned = _returned(op)
        blocks.append(f"Returns:\n    {returned}" if voice.docstring else f"Returns {returned}.")
    return "\n\n".join(blocks) if voice.docstring or voice.markdown else " ".join(blocks)
