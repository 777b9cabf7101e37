"""What a value of a given annotation holds, as Jinja reads it: the types behind `value.name`,
`for x in value`, `for a, b in value` and `value.method()`, for tests/template_types.py.

A type is an annotation (a class, or a generic such as list[X] or X | None), or one of the markers
below: a callable the checker can call (Method, Function, MacroRef, ModuleRef) or Unknown, a value
of no type the checker can follow, with the reason why.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class Unknown:
    """A value of no type the checker can follow, and why."""

    reason: str


@dataclass(frozen=True)
class Method:
    """A method read off a value of type `owner`: calling it gives its return annotation."""

    owner: Any
    name: str


@dataclass(frozen=True)
class Function:
    """A global function or filter: calling it gives its return annotation."""

    function: Callable[..., Any]


@dataclass(frozen=True)
class MacroRef:
    template: str
    name: str


@dataclass(frozen=True)
class ModuleRef:
    """`{% import "x.html" as m %}`: `m.name` is one of x.html's macros."""

    template: str
    macros: frozenset[str]


Types = frozenset[Any]


def members(annotation: Any) -> list[Any]:
    """The annotation's possible types: a union's members, None left out (templates guard it)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return [member for arg in typing.get_args(annotation) for member in members(arg)]
    if origin is typing.Annotated:
        return members(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return list({type(value) for value in typing.get_args(annotation)})
    if annotation is type(None) or annotation is None:
        return []
    return [annotation]


def _hints(target: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(target)
    except Exception:  # builtins and C types have none
        return {}


def returns(function: Any, what: str) -> Types:
    hint = _hints(function).get("return")
    if hint is None:
        return frozenset({Unknown(f"the unannotated result of {what}")})
    if isinstance(hint, typing.TypeVar) or hint is Any:
        return frozenset({Unknown(f"the untyped ({hint}) result of {what}")})
    return frozenset(members(hint))


def type_name(annotation: Any) -> str:
    if typing.get_args(annotation):
        return str(annotation).replace("typing.", "")
    return getattr(annotation, "__name__", None) or str(annotation)


def attribute(annotation: Any, name: str) -> Types | str:
    """What `value.name` holds for a value of this annotation: its types, or (a string) the
    `Type.name` the type lacks."""
    if isinstance(annotation, Unknown):
        return frozenset({annotation})
    if annotation is Any:
        return frozenset({Unknown("a value typed Any")})
    if isinstance(annotation, Method | Function | MacroRef):
        return frozenset({Unknown("an attribute of a callable")})
    if isinstance(annotation, ModuleRef):
        return frozenset({MacroRef(annotation.template, name)}) if name in annotation.macros else f"{annotation.template}.{name}"
    cls = typing.get_origin(annotation) or annotation
    if not inspect.isclass(cls):
        return frozenset({Unknown(f"a value typed {annotation}")})
    if issubclass(cls, BaseModel) and name in cls.model_fields:
        return frozenset(members(cls.model_fields[name].annotation))
    hints = {} if issubclass(cls, BaseModel) else _hints(cls)
    if name in hints:  # a dataclass's or NamedTuple's field
        return frozenset(members(hints[name]))
    member = inspect.getattr_static(cls, name, None)
    if member is None:
        if issubclass(cls, Mapping):  # Jinja reads `d.key` as d["key"] when d has no such attribute
            arguments = typing.get_args(annotation)
            if not arguments:
                return frozenset({Unknown(f"a value of an unparameterised {cls.__name__}")})
            if arguments[1] is Any:
                return frozenset({Unknown(f"a value of {type_name(annotation)}")})
            return frozenset(members(arguments[1]))
        if issubclass(cls, BaseModel) and name.startswith("model_"):
            return frozenset({Unknown("pydantic's own model_ attribute")})
        return f"{cls.__name__}.{name}"
    if isinstance(member, property):
        return returns(member.fget, f"{cls.__name__}.{name}")
    if isinstance(member, cached_property):
        return returns(member.func, f"{cls.__name__}.{name}")
    if callable(member) or isinstance(member, staticmethod | classmethod):
        return frozenset({Method(annotation, name)})
    return frozenset({type(member)})


def is_key(annotation: Any, name: str) -> bool:
    """Whether Jinja reads `value.name` as a mapping's key `value["name"]`: no attribute of that name."""
    cls = typing.get_origin(annotation) or annotation
    return inspect.isclass(cls) and issubclass(cls, Mapping) and inspect.getattr_static(cls, name, None) is None


def call_result(method: Method) -> Types:
    """What calling `value.name()` gives: a dict's items, keys and values as lists."""
    cls = typing.get_origin(method.owner) or method.owner
    arguments = typing.get_args(method.owner)
    if issubclass(cls, Mapping) and len(arguments) == 2:
        key, value = arguments
        views = {"items": list[tuple[key, value]], "keys": list[key], "values": list[value]}  # type: ignore[valid-type]
        if method.name in views:
            return frozenset({views[method.name]})
        if method.name == "get":
            return frozenset(members(value))
    return returns(inspect.getattr_static(cls, method.name), f"{type_name(method.owner)}.{method.name}()")


def elements(annotation: Any) -> Types:
    """What `for x in value` binds x to."""
    if isinstance(annotation, Unknown):
        return frozenset({annotation})
    if members(annotation) != [annotation]:  # a union, Optional or Annotated: its members' items
        return frozenset().union(*(elements(member) for member in members(annotation)))
    cls = typing.get_origin(annotation) or annotation
    arguments = typing.get_args(annotation)
    if not inspect.isclass(cls):
        return frozenset({Unknown(f"an item of {annotation}")})
    if cls is tuple and arguments:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return frozenset(members(arguments[0]))
        return frozenset(member for argument in arguments for member in members(argument))
    if issubclass(cls, str):
        return frozenset({str})
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # a NamedTuple
        return frozenset(member for hint in _hints(cls).values() for member in members(hint))
    if issubclass(cls, Iterable) and not issubclass(cls, BaseModel):
        if not arguments:
            return frozenset({Unknown(f"an item of an unparameterised {cls.__name__}")})
        if arguments[0] is Any:
            return frozenset({Unknown(f"an item of {type_name(cls)}[Any]")})
        return frozenset(members(arguments[0]))
    return frozenset({Unknown(f"an item of {type_name(annotation)}")})


def unpacked(annotation: Any, count: int) -> list[Types]:
    """What `for a, b in …` binds a and b to, for one item of this annotation."""
    cls = typing.get_origin(annotation) or annotation
    arguments = typing.get_args(annotation)
    if cls is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return [frozenset(members(arguments[0]))] * count
    if cls is tuple and len(arguments) == count:
        return [frozenset(members(argument)) for argument in arguments]
    if inspect.isclass(cls) and issubclass(cls, tuple) and hasattr(cls, "_fields") and len(cls._fields) == count:
        hints = _hints(cls)
        return [frozenset(members(hints[name])) for name in cls._fields]
    return [frozenset({Unknown(f"a part of an item of {type_name(annotation)}")})] * count
