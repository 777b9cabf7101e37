"""What a server can offer: a domain's resources and actions expanded into operations.

An operation is a tool before it has a name, a schema or a description. Servers choose a subset
(core operations first, so small servers look like small real servers rather than random
samples), and the subset is what the stand-in's completeness judgement later inspects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorecards_demo.vocabulary import Action, Domain, Effect, Resource

OpKind = Literal[
    "list",
    "get",
    "create",
    "update",
    "delete",
    "search",
    "archive",
    "count",
    "export",
    "bulk_update",
    "action",
]

_RESOURCE_OPS: tuple[tuple[OpKind, str, bool, Effect, bool], ...] = (
    # kind, verb, plural noun?, effect, core?
    ("list", "list", True, "read", True),
    ("get", "get", False, "read", True),
    ("create", "create", False, "create", True),
    ("update", "update", False, "update", True),
    ("delete", "delete", False, "delete", True),
    ("search", "search", True, "read", False),
    ("archive", "archive", False, "update", False),
    ("count", "count", True, "read", False),
    ("export", "export", True, "read", False),
    ("bulk_update", "bulk update", True, "update", False),
)
_WRITES: frozenset[OpKind] = frozenset({"create", "update", "delete", "archive", "bulk_update"})


@dataclass(frozen=True)
class Operation:
    kind: OpKind
    verb: str
    noun: str
    effect: Effect
    domain: Domain
    resource: Resource | None
    action: Action | None
    core: bool

    @property
    def subject(self) -> str:
        """The thing the tool is about, singular where it has one (`issue`, `pull request`)."""
        if self.resource is not None:
            return self.resource.singular
        return self.noun


def domain_operations(domain: Domain) -> list[Operation]:
    """Every operation the domain supports, in a fixed order. A resource with no writable fields
    is read-only (pods, users): it gets no create/update/delete."""
    found: list[Operation] = []
    for resource in domain.resources:
        for kind, verb, plural, effect, core in _RESOURCE_OPS:
            if kind in _WRITES and not resource.fields:
                continue
            found.append(
                Operation(
                    kind=kind,
                    verb=verb,
                    noun=resource.plural if plural else resource.singular,
                    effect=effect,
                    domain=domain,
                    resource=resource,
                    action=None,
                    core=core,
                )
            )
    for item in domain.actions:
        found.append(
            Operation(
                kind="action",
                verb=item.verb,
                noun=item.noun,
                effect=item.effect,
                domain=domain,
                resource=None,
                action=item,
                core=True,
            )
        )
    return found


_RELATED: dict[OpKind, tuple[OpKind, ...]] = {
    "get": ("list", "search"),
    "list": ("search", "get", "count"),
    "search": ("list", "get"),
    "create": ("update", "get"),
    "update": ("bulk_update", "create", "get"),
    "delete": ("archive", "update"),
    "archive": ("delete", "update"),
    "count": ("list",),
    "export": ("list", "search"),
    "bulk_update": ("update",),
}


def related_kinds(kind: OpKind) -> tuple[OpKind, ...]:
    """The sibling operations a description would naturally contrast this one with."""
    return _RELATED.get(kind, ())
