"""The shapes the synthetic servers are made of: domains, their resources, actions and fields.

Domains are written as data (`data/domains.toml`) in a compact field notation so that thirty-odd
of them stay readable; this module holds the typed records, the one parser for that notation and
the loader of the data file.

Field notation, one token per field, separated by spaces:
`name`, then any of `!` (required), `:kind` (string when absent), `{a,b,c}` (enum), `[]` (array).
Examples: `title!`, `priority{low,medium,high}`, `due_date:date`, `labels[]`, `limit:integer`.
A field of kind `object` takes its properties from `fields.COMPOSITES[name]`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

FieldKind = Literal["string", "integer", "number", "boolean", "date", "date-time", "email", "uri", "object"]

Effect = Literal["read", "create", "update", "delete", "external"]
"""What calling a tool does to the world: `external` is a side effect outside the server's own
data (a message sent, a payment captured, a process started)."""

_FIELD = re.compile(
    r"^(?P<name>[a-z][a-z0-9_]*)(?P<required>!)?(?::(?P<kind>[a-z-]+))?"
    r"(?:\{(?P<enum>[^}]*)\})?(?P<array>\[\])?$"
)
_KINDS: frozenset[str] = frozenset(FieldKind.__args__)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: FieldKind = "string"
    required: bool = False
    enum: tuple[str, ...] = ()
    array: bool = False


@dataclass(frozen=True)
class Resource:
    singular: str
    """Words separated by spaces (`pull request`); names join them with the convention's glue."""
    plural: str
    key: FieldSpec
    """The identifier a get/update/delete takes."""
    parent: FieldSpec | None
    """The scope a list/create needs (`project_id` for issues), if any."""
    where: str
    """The same scope in prose, `in a project`; empty when there is none."""
    fields: tuple[FieldSpec, ...]
    """Writable attributes; `!` marks those a create requires."""
    filters: tuple[FieldSpec, ...]
    """What a list or search can narrow by."""
    shows: str
    """What a record carries, in prose, for "Returns …" sentences."""


@dataclass(frozen=True)
class Action:
    """An operation beyond create/read/update/delete, such as `merge pull request`."""

    verb: str
    noun: str
    """May be empty for verb-only tools such as `navigate`."""
    effect: Effect
    purpose: str
    """The clear purpose sentence, without a final period."""
    params: tuple[FieldSpec, ...]
    returns: str


@dataclass(frozen=True)
class Domain:
    key: str
    label: str
    """What kind of service it is, in prose: `issue tracker`."""
    topics: tuple[str, ...]
    """Words that server ids are made of: `issues`, `tickets`."""
    brands: tuple[str, ...]
    resources: tuple[Resource, ...]
    actions: tuple[Action, ...]


def parse_fields(spec: str) -> tuple[FieldSpec, ...]:
    """Parses the field notation described in the module docstring; raises on a typo, because the
    notation is only ever written by hand in this package."""
    parsed: list[FieldSpec] = []
    for token in spec.split():
        match = _FIELD.match(token)
        if match is None:
            raise ValueError(f"bad field token: {token!r}")
        kind = match.group("kind") or "string"
        if kind not in _KINDS:
            raise ValueError(f"bad field kind in {token!r}")
        enum = match.group("enum")
        parsed.append(
            FieldSpec(
                name=match.group("name"),
                kind=kind,  # type: ignore[arg-type]
                required=match.group("required") is not None,
                enum=tuple(enum.split(",")) if enum else (),
                array=match.group("array") is not None,
            )
        )
    return tuple(parsed)


def resource(
    singular: str,
    plural: str,
    *,
    key: str,
    fields: str,
    filters: str = "",
    parent: str | None = None,
    where: str = "",
    shows: str,
) -> Resource:
    (key_field,) = parse_fields(key)
    parent_field = parse_fields(parent)[0] if parent else None
    return Resource(
        singular=singular,
        plural=plural,
        key=key_field,
        parent=parent_field,
        where=where,
        fields=parse_fields(fields),
        filters=parse_fields(filters),
        shows=shows,
    )


def action(verb: str, noun: str, effect: Effect, purpose: str, *, params: str = "", returns: str) -> Action:
    return Action(
        verb=verb,
        noun=noun,
        effect=effect,
        purpose=purpose,
        params=parse_fields(params),
        returns=returns,
    )


def load_domains(name: str) -> tuple[Domain, ...]:
    """The domains of `data/<name>` (TOML: `[[domain]]` tables with `[[domain.resource]]` and
    `[[domain.action]]` tables holding the arguments of `resource()` and `action()`)."""
    text = resources.files("scorecards_demo").joinpath("data", name).read_text(encoding="utf-8")
    document: dict[str, Any] = tomllib.loads(text)
    return tuple(
        Domain(
            key=entry["key"],
            label=entry["label"],
            topics=tuple(entry["topics"]),
            brands=tuple(entry["brands"]),
            resources=tuple(resource(**item) for item in entry.get("resource", ())),
            actions=tuple(action(**item) for item in entry.get("action", ())),
        )
        for entry in document["domain"]
    )
