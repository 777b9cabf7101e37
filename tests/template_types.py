"""The static types of a template's names, for tests/test_template_contract.py.

Walks a template's syntax tree (and what it extends, includes and imports) with an environment of
name → the annotations its value may have: the context models it is rendered with, the renderer's
globals, and every name the template binds itself. A `for` target takes the element type of what it
iterates (unpacked against a tuple's members), `loop` is Jinja's LoopContext, `set` and `with` take
their right side's type, a macro parameter takes the union of the types its call sites pass. Every
`name.a.b…` chain is then looked up, attribute by attribute, on those annotations: Optional is
followed into its member, a pydantic field, dataclass or NamedTuple field, property or method
(by its return annotation) is an attribute, a dict's missing attribute is a key (as Jinja reads it).

A chain ends in one of three ways: followed (every attribute found on a known type), a problem (an
attribute its type lacks), or a named reason it could not be followed (a value typed Any, a macro
parameter passed only literals, …). Nothing is passed silently.
"""

from __future__ import annotations

import inspect
import typing
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, nodes
from jinja2.runtime import LoopContext
from pydantic import BaseModel
from template_annotations import (
    Function,
    MacroRef,
    Method,
    ModuleRef,
    Types,
    Unknown,
    attribute,
    call_result,
    elements,
    is_key,
    members,
    returns,
    type_name,
    unpacked,
)

FOLLOWED = "followed"

CallSite = tuple[tuple[Types, ...], tuple[tuple[str, Types], ...]]
"""What one call of a macro passes: its positional arguments' types, its keywords' types."""
ChainKey = tuple[str, int, str, tuple[str, ...]]
"""(template, line, root name, attributes): one `root.a.b` chain of a template."""


def _literals(annotation: Any, name: str) -> tuple[Any, ...] | None:
    """The values a model's `name` field may take, when it is a Literal (a tagged union's tag)."""
    cls = typing.get_origin(annotation) or annotation
    if not (inspect.isclass(cls) and issubclass(cls, BaseModel) and name in cls.model_fields):
        return None
    tag = cls.model_fields[name].annotation
    return typing.get_args(tag) if typing.get_origin(tag) is typing.Literal else None


def _narrowed(test: nodes.Node, env: dict[str, Types]) -> tuple[dict[str, Types], dict[str, Types]]:
    """The environments of an `{% if x.tag == 'value' %}`'s two branches: x narrowed to the union's
    members whose Literal tag admits the value, and to the others. Any other test: env for both."""
    if not (
        isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0].op in ("eq", "ne")
        and isinstance(test.expr, nodes.Getattr) and isinstance(test.expr.node, nodes.Name)
        and isinstance(test.ops[0].expr, nodes.Const)
    ):
        return env, env
    name, tag, value = test.expr.node.name, test.expr.attr, test.ops[0].expr.value
    kinds = env.get(name, frozenset())
    tags = {kind: _literals(kind, tag) for kind in kinds}
    if not any(found is not None for found in tags.values()):
        return env, env
    matching = frozenset(kind for kind in kinds if tags[kind] is None or value in tags[kind])  # type: ignore[operator]
    others = frozenset(kind for kind in kinds if tags[kind] is None or tags[kind] != (value,))
    then, otherwise = {**env, name: matching}, {**env, name: others}
    return (then, otherwise) if test.ops[0].op == "eq" else (otherwise, then)


SAME_LIST = {"reverse", "list", "sort", "unique", "selectattr", "rejectattr"}
ONE_ITEM = {"first", "last", "min", "max", "random"}
TEXT = {"string", "e", "escape", "safe", "trim", "upper", "lower", "title", "capitalize", "replace",
        "truncate", "join", "format", "striptags", "urlencode", "indent", "center", "tojson", "urlize",
        "wordwrap", "forceescape", "xmlattr", "filesizeformat"}
NUMBER = {"length": int, "count": int, "wordcount": int, "int": int, "float": float, "sum": float}


@dataclass
class Walk:
    """One checking run over templates; `outcomes` and `problems` are its findings."""

    environment: Environment
    outcomes: dict[ChainKey, set[str]] = field(default_factory=lambda: defaultdict(set))
    problems: set[str] = field(default_factory=set)
    macros: dict[tuple[str, str], tuple[nodes.Macro, dict[str, Types]]] = field(default_factory=dict)
    calls: dict[tuple[str, str], list[CallSite]] = field(default_factory=lambda: defaultdict(list))
    trees: dict[str, nodes.Template] = field(default_factory=dict)
    _at: list[str] = field(default_factory=list)

    def globals(self) -> dict[str, Types]:
        bound: dict[str, Types] = {}
        for name, value in self.environment.globals.items():
            if name == "namespace":
                bound[name] = frozenset({Unknown("a namespace(), whose attributes the template sets itself")})
            elif isinstance(value, BaseModel):
                bound[name] = frozenset({type(value)})
            elif isinstance(value, dict):
                bound[name] = frozenset({dict[str, Any]})
            elif callable(value):
                bound[name] = frozenset({Function(value)})
            else:
                bound[name] = frozenset({type(value)})
        return bound

    def tree(self, name: str) -> nodes.Template:
        if name not in self.trees:
            loader = self.environment.loader
            assert loader is not None
            self.trees[name] = self.environment.parse(loader.get_source(self.environment, name)[0])
        return self.trees[name]

    # The entry points.

    def template(self, name: str, tree: nodes.Template, context: dict[str, Types]) -> None:
        """Walk one rendered template with the types of the names it is rendered with."""
        flat = {bound: frozenset(member for kind in kinds for member in members(kind)) for bound, kinds in context.items()}
        self._tree(name, tree, {**self.globals(), **flat})

    def settle(self, rounds: int = 10) -> None:
        """Walk every macro body with its parameters' types, until no call site adds a type."""
        for _ in range(rounds):
            before = {key: len(sites) for key, sites in self.calls.items()}
            for key, (macro, env) in list(self.macros.items()):
                self._body(key[0], macro.body, {**env, **self._parameters(key, macro)})
            after = {key: len(sites) for key, sites in self.calls.items()}
            if after == before:
                return

    # Statements.

    def _tree(self, name: str, tree: nodes.Template, env: dict[str, Types]) -> None:
        """A template's body, its macros' names bound first: a block that calls a macro defined
        further down runs after the definition."""
        for macro in tree.find_all(nodes.Macro):
            env.setdefault(macro.name, frozenset({MacroRef(name, macro.name)}))
        self._body(name, tree.body, env)

    def _body(self, template: str, body: list[nodes.Node], env: dict[str, Types]) -> None:
        self._at.append(template)
        try:
            for node in body:
                self._statement(node, env)
        finally:
            self._at.pop()

    def _statement(self, node: nodes.Node, env: dict[str, Types]) -> None:
        here = self._at[-1]
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if not isinstance(child, nodes.TemplateData):
                    self.expression(child, env)
        elif isinstance(node, nodes.If):
            self.expression(node.test, env)
            then, otherwise = _narrowed(node.test, env)
            self._body(here, node.body, then)
            rest: list[nodes.Node] = node.else_
            if node.elif_:
                rest = [nodes.If(node.elif_[0].test, node.elif_[0].body, node.elif_[1:], node.else_, lineno=node.lineno)]
            self._body(here, rest, otherwise)
        elif isinstance(node, nodes.For):
            iterated = self.expression(node.iter, env)
            inner = dict(env)
            items = frozenset().union(*(elements(kind) for kind in iterated)) if iterated else frozenset()
            self._bind(node.target, items, inner)
            inner["loop"] = frozenset({LoopContext})
            if node.test is not None:
                self.expression(node.test, inner)
            self._body(here, node.body, inner)
            self._body(here, node.else_, dict(env))
        elif isinstance(node, nodes.Assign):
            self._bind(node.target, self.expression(node.node, env), env)
        elif isinstance(node, nodes.AssignBlock):
            self._body(here, node.body, dict(env))
            self._bind(node.target, frozenset({str}), env)
        elif isinstance(node, nodes.With):
            inner = dict(env)
            for target, value in zip(node.targets, node.values, strict=True):
                self._bind(target, self.expression(value, env), inner)
            self._body(here, node.body, inner)
        elif isinstance(node, nodes.Macro):
            key = (here, node.name)
            env[node.name] = frozenset({MacroRef(*key)})
            known = self.macros.get(key)
            merged = dict(env) if known is None else {
                name: known[1].get(name, frozenset()) | env.get(name, frozenset()) for name in {*known[1], *env}
            }
            self.macros[key] = (node, merged)
        elif isinstance(node, nodes.CallBlock):
            self.expression(node.call, env)
            inner = dict(env)
            for argument in node.args:
                self._bind(argument, frozenset({Unknown("an argument of caller()")}), inner)
            self._body(here, node.body, inner)
        elif isinstance(node, nodes.Include):
            name = self._static_name(node.template)
            if name is not None and name not in self._at:
                self._tree(name, self.tree(name), dict(env))
        elif isinstance(node, nodes.Extends):
            name = self._static_name(node.template)
            if name is not None and name not in self._at:
                self._tree(name, self.tree(name), env)
        elif isinstance(node, nodes.Import):
            name = self._module(node.template, env if node.with_context else self.globals())
            env[node.target] = frozenset(
                {ModuleRef(name, frozenset(macro.name for macro in self.tree(name).find_all(nodes.Macro)))}
                if name else {Unknown("a dynamic import")}
            )
        elif isinstance(node, nodes.FromImport):
            name = self._module(node.template, env if node.with_context else self.globals())
            for imported in node.names:
                original, alias = (imported, imported) if isinstance(imported, str) else imported
                env[alias] = frozenset({MacroRef(name, original)} if name else {Unknown("a dynamic import")})
        elif isinstance(node, nodes.Block | nodes.Scope | nodes.ScopedEvalContextModifier | nodes.FilterBlock):
            if isinstance(node, nodes.FilterBlock):
                self.expression(node.filter, env)
            self._body(here, node.body, env if isinstance(node, nodes.Block) else dict(env))
        elif isinstance(node, nodes.ExprStmt):
            self.expression(node.node, env)
        # Break, Continue, TemplateData-only nodes: nothing to read.

    def _static_name(self, template: nodes.Expr) -> str | None:
        return template.value if isinstance(template, nodes.Const) and isinstance(template.value, str) else None

    def _module(self, template: nodes.Expr, env: dict[str, Types]) -> str | None:
        """Register an imported template's macros; its name, when it is spelled out."""
        name = self._static_name(template)
        if name is not None and name not in self._at:
            self._tree(name, self.tree(name), dict(env))
        return name

    def _bind(self, target: nodes.Node, found: Types, env: dict[str, Types]) -> None:
        if isinstance(target, nodes.Name):
            env[target.name] = found
        elif isinstance(target, nodes.Tuple):
            parts: list[set[Any]] = [set() for _ in target.items]
            for kind in found:
                pieces = [frozenset({kind})] * len(parts) if isinstance(kind, Unknown) else unpacked(kind, len(parts))
                for part, piece in zip(parts, pieces, strict=True):
                    part.update(piece)
            for item, part in zip(target.items, parts, strict=True):
                self._bind(item, frozenset(part), env)
        # NSRef (`set ns.x = …`): a namespace's attribute, read back untyped.

    def _parameters(self, key: tuple[str, str], macro: nodes.Macro) -> dict[str, Types]:
        """Each parameter's types: the union of what its call sites pass, or its default."""
        names = [argument.name for argument in macro.args]
        defaults = dict(zip(names[len(names) - len(macro.defaults):], macro.defaults, strict=True))
        passed: dict[str, set[Any]] = {name: set() for name in names}
        for positional, keywords in self.calls.get(key, []):
            given = dict(zip(names, positional, strict=False)) | {k: v for k, v in keywords if k in names}
            for name in names:
                if name in given:
                    passed[name].update(given[name])
                elif name in defaults:
                    passed[name].update(self.expression(defaults[name], {}))
        bound = {name: frozenset({Unknown(f"{name} of a macro")}) for name in ("varargs", "kwargs", "caller")}
        for name in names:
            bound[name] = frozenset(passed[name]) or frozenset(
                {Unknown(f"parameter {name} of macro {key[1]}, which no call site passes")}
            )
        return bound

    def undefined_macros(self) -> set[str]:
        """Macros called and defined nowhere."""
        return {f"{template} has no macro {name}" for template, name in self.calls if (template, name) not in self.macros}

    # Expressions.

    def expression(self, node: nodes.Node, env: dict[str, Types]) -> Types:
        """The types the expression's value may have; every chain inside it is recorded."""
        if isinstance(node, nodes.Getattr):
            return self._getattr(node, env)
        if isinstance(node, nodes.Name):
            return env.get(node.name, frozenset({Unknown(f"the name {node.name}, bound nowhere the checker sees")}))
        if isinstance(node, nodes.Const):
            return frozenset({Unknown(f"a literal {type(node.value).__name__}")})
        if isinstance(node, nodes.Getitem):
            return self._getitem(node, env)
        if isinstance(node, nodes.Call):
            return self._call(node, env)
        if isinstance(node, nodes.Filter):
            return self._filter(node, env)
        if isinstance(node, nodes.CondExpr):
            self.expression(node.test, env)
            first = self.expression(node.expr1, env)
            return first | (self.expression(node.expr2, env) if node.expr2 is not None else frozenset())
        for child in node.iter_child_nodes():
            self.expression(child, env)
        if isinstance(node, nodes.Compare | nodes.Test | nodes.Not):
            return frozenset({bool})
        if isinstance(node, nodes.Concat):
            return frozenset({str})
        return frozenset({Unknown(f"the value of a {type(node).__name__} expression")})

    def _getattr(self, node: nodes.Getattr, env: dict[str, Types]) -> Types:
        attributes: list[str] = []
        base: nodes.Node = node
        while isinstance(base, nodes.Getattr):
            attributes.append(base.attr)
            base = base.node
        attributes.reverse()
        current = self.expression(base, env)
        outcome = FOLLOWED
        root = base.name if isinstance(base, nodes.Name) else "the value"
        for index, name in enumerate(attributes):
            known = [kind for kind in current if not isinstance(kind, Unknown)]
            if not known:
                reasons = sorted({kind.reason for kind in current}) or ["nothing"]
                outcome = f"{'.'.join([root, *attributes[:index]])} is {' or '.join(reasons)}"
                current = frozenset(current)
                break
            keys = [kind for kind in known if is_key(kind, name)]
            if keys and len(keys) == len(known):
                outcome = f"{'.'.join([root, *attributes[:index]])} is a {type_name(keys[0])}, whose keys are not checked"
            found: set[Any] = set()
            for kind in known:
                result = attribute(kind, name)
                if isinstance(result, str):
                    self.problems.add(f"{self._at[-1]}:{node.lineno} reads {'.'.join([root, *attributes[: index + 1]])}: no {result}")
                else:
                    found.update(result)
            current = frozenset(found)
        if isinstance(base, nodes.Name):
            self.outcomes[(self._at[-1], node.lineno, base.name, tuple(attributes))].add(outcome)
        return current

    def _getitem(self, node: nodes.Getitem, env: dict[str, Types]) -> Types:
        base = self.expression(node.node, env)
        self.expression(node.arg, env)
        if isinstance(node.arg, nodes.Slice):
            return base
        found: set[Any] = set()
        for kind in base:
            cls = typing.get_origin(kind) or kind
            if inspect.isclass(cls) and issubclass(cls, Mapping) and len(typing.get_args(kind)) == 2:
                found.update(members(typing.get_args(kind)[1]))
            elif cls is tuple and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, int):
                arguments = typing.get_args(kind)
                if len(arguments) == 2 and arguments[1] is Ellipsis:
                    found.update(members(arguments[0]))
                elif node.arg.value < len(arguments):
                    found.update(members(arguments[node.arg.value]))
            else:
                found.update(elements(kind))
        return frozenset(found)

    def _call(self, node: nodes.Call, env: dict[str, Types]) -> Types:
        callee = self.expression(node.node, env)
        positional = [self.expression(argument, env) for argument in node.args]
        keywords = {keyword.key: self.expression(keyword.value, env) for keyword in node.kwargs}
        for extra in (node.dyn_args, node.dyn_kwargs):
            if extra is not None:
                self.expression(extra, env)
        found: set[Any] = set()
        for kind in callee:
            if isinstance(kind, Method):
                found.update(call_result(kind))
            elif isinstance(kind, Function):
                found.update(returns(kind.function, getattr(kind.function, "__name__", "a function")))
            elif isinstance(kind, MacroRef):
                self._called(kind, positional, keywords)
                found.add(str)
            else:
                found.add(Unknown(f"the result of calling {kind.reason}" if isinstance(kind, Unknown) else "the result of calling an untyped value"))
        return frozenset(found)

    def _called(self, macro: MacroRef, positional: list[Types], keywords: dict[str, Types]) -> None:
        """Record what one call site passes (resolved against the definition, which may come later)."""
        key = (macro.template, macro.name)
        site = (tuple(positional), tuple(sorted(keywords.items(), key=lambda item: item[0])))
        if site not in self.calls[key]:
            self.calls[key].append(site)

    def _filter(self, node: nodes.Filter, env: dict[str, Types]) -> Types:
        value = self.expression(node.node, env) if node.node is not None else frozenset()
        for argument in node.args:
            self.expression(argument, env)
        for keyword in node.kwargs:
            self.expression(keyword.value, env)
        name = node.name
        if name in SAME_LIST:
            items = frozenset().union(*(elements(kind) for kind in value)) if value else frozenset()
            known = [kind for kind in items if not isinstance(kind, Unknown)]
            return frozenset({list[typing.Union[tuple(known)]]} if known else items)  # type: ignore[misc]  # noqa: UP007
        if name in ONE_ITEM:
            return frozenset().union(*(elements(kind) for kind in value)) if value else frozenset()
        if name in ("default", "d"):
            return value | (self.expression(node.args[0], env) if node.args else frozenset())
        if name == "map":
            return frozenset({Unknown("the result of map")})
        if name in NUMBER:
            return frozenset({NUMBER[name]})
        if name in TEXT:
            return frozenset({str})
        function = self.environment.filters.get(name)
        if function is None:
            return frozenset({Unknown(f"the result of the unknown filter {name}")})
        return returns(function, f"the filter {name}")
