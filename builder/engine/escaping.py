"""The escaping of every `{{ … }}` a template outputs: markupsafe's own, with its common case made
cheap. A tool page outputs some 140 expressions; `markupsafe.escape` spends most of its time in
Python (`Markup.__new__` asks each escaped string whether it has `__html__`), which cost about a
tenth of a tool page's template. The compiled templates call `escape` below instead (the Jinja2
code generator's `escape` name is rebound in every template module); it returns what
`markupsafe.escape` returns, the same text as the same type (tests/test_escaping.py)."""

from __future__ import annotations

import html
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from markupsafe import Markup
from markupsafe import escape as markupsafe_escape

try:  # markupsafe's own inner function (3.0 and later): its C speedups, or its Python fallback
    from markupsafe._speedups import _escape_inner
except ImportError:  # pragma: no cover - a markupsafe built without them
    try:
        from markupsafe._native import _escape_inner
    except ImportError:  # markupsafe before 3.0: no inner function, so markupsafe's escape itself
        _escape_inner = None  # type: ignore[assignment]

_new_str = str.__new__


def escape(value: Any, /) -> Markup:
    """`markupsafe.escape(value)`. A plain `str` (most of what a page outputs) is escaped without
    the round trip through `Markup.__new__`; a `Markup` is already safe and is returned as it is
    (markupsafe returns an equal copy); everything else goes to markupsafe."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _new_str(Markup, _escape_inner(value))  # type: ignore[no-any-return]
    if kind is Markup:
        return value  # type: ignore[no-any-return]
    return markupsafe_escape(value)


class EscapingCodeGenerator(CodeGenerator):
    """Jinja2's code generator, whose modules escape with `escape` above: the module imports
    `escape` from jinja2.runtime first, then this rebinds it (functions look it up when called)."""

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        super().visit_Template(node, frame)
        self.writeline(f"from {__name__} import escape")


def text_content(value: str) -> Markup:
    """`value` escaped for an element's content (`<pre><code>…</code></pre>`): `&`, `<` and `>`, which are all
    HTML needs there; quotes, which only an attribute value needs escaped, stay as they are (a raw JSON
    schema is mostly quotes, and `&#34;` is five bytes for one). Never for an attribute value."""
    return Markup(html.escape(value, quote=False))
