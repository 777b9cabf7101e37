"""`{% include "a partial" %}` compiled as if the partial's text stood there.

Jinja2 runs an include when the page is rendered: it looks the template up, builds it a new
context from a copy of every name the page has, and passes each piece of its output through one
more Python loop. A tool page has seven includes (freshness, definition, other tools, notes,
badge, provenance, dispute); drawn in place they cost about a tenth of the page's template less
(tests/test_inlining.py holds every page of a corpus to the same text).

Only the includes whose meaning does not change are inlined: a constant name, with context (the
default), not `ignore missing`, and a partial that is plain text, output, `if`, `for` and `with`
(no `extends`, block, macro, import, `set` or include of its own); a partial missing or not
parsing stays an include, to fail as it did, when reached. The partial's nodes go in an
artificial scope, so its loop variables stay its own, as they did in its own context; names it
reads resolve as they did, from the includer's `with` and context. The templates' sources are
left as they are: `Environment.parse` (tests/test_template_contract.py) still sees the includes.
"""

from __future__ import annotations

from collections.abc import Callable

from jinja2 import TemplateNotFound, TemplateSyntaxError, nodes
from jinja2.visitor import NodeTransformer

NOT_INLINED = (
    nodes.Extends, nodes.Block, nodes.Macro, nodes.CallBlock, nodes.Import, nodes.FromImport, nodes.Include,
    nodes.Assign, nodes.AssignBlock, nodes.FilterBlock, nodes.OverlayScope, nodes.EvalContextModifier,
)
"""What a partial holding it is left to a run-time include: what would mean something else in
the includer's body (a block, a `set` at its top level) or what it was not checked with."""


class _Inliner(NodeTransformer):
    def __init__(self, parse: Callable[[str], nodes.Template]) -> None:
        self.parse = parse

    def visit_Include(self, node: nodes.Include) -> nodes.Node:
        name = node.template.value if isinstance(node.template, nodes.Const) else None
        if not isinstance(name, str) or not node.with_context or node.ignore_missing:
            return node
        try:
            partial = self.parse(name)
        except (TemplateNotFound, TemplateSyntaxError):
            return node  # it fails where and when Jinja2 would fail it: on the include, if reached
        if any(True for _ in partial.find_all(NOT_INLINED)):
            return node
        scope = nodes.Scope(partial.body)
        scope.set_lineno(node.lineno, override=True)  # an error in it points at the include
        return scope


def inline_includes(tree: nodes.Template, parse: Callable[[str], nodes.Template]) -> nodes.Template:
    """`tree` with its inlinable includes replaced by the partials' nodes; `parse(name)` gives a
    fresh syntax tree of the template `name`."""
    result = _Inliner(parse).visit(tree)
    assert isinstance(result, nodes.Template)
    return result
