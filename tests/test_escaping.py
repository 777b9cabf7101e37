"""builder.engine.escaping: the templates' `escape` gives what markupsafe's gives, the same text as
the same type, and it is the one the compiled templates call."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import markupsafe
from markupsafe import Markup
from shared_data import shared_file

from builder.config import SiteConfig
from builder.engine import escaping
from builder.engine.render import Renderer


class _Html:
    def __html__(self) -> str:
        return "<b>kept</b>"


class _Text(str):
    """A str subclass: not the fast path."""


def _values() -> list[Any]:
    naughty = json.loads(shared_file("bad-input/naughty-strings.json").read_text(encoding="utf-8"))
    strings = [s for s in naughty if isinstance(s, str)]
    assert len(strings) > 400
    return [
        *strings, "", "&<>'\"", "a & b < c > d ' e \" f", "\x00", "&amp;", Markup("<em>safe</em>"), Markup(""),
        _Text("<i>"), _Html(), None, True, 0, -7, 3.25, float("nan"), Decimal("1.10"), Fraction(1, 3),
        ["<x>"], {"k": "<v>"},
    ]


def test_escape_is_markupsafes_escape() -> None:
    for value in _values():
        ours, theirs = escaping.escape(value), markupsafe.escape(value)
        assert type(ours) is type(theirs) is Markup, repr(value)
        assert str(ours) == str(theirs), repr(value)


def test_the_compiled_templates_escape_with_it() -> None:
    renderer = Renderer(SiteConfig(), {"nav": []})
    template = renderer.env.from_string("{{ a }}|{{ b }}|{{ c }}")
    assert template.root_render_func.__globals__["escape"] is escaping.escape
    assert template.render(a="<&>", b=Markup("<i>"), c=5) == "&lt;&amp;&gt;|<i>|5"
    page = renderer.env.get_template("tdqs/tool.html")
    assert page.root_render_func.__globals__["escape"] is escaping.escape
