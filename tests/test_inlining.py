"""builder.engine.inlining: a page drawn with its partials inlined is the page Jinja2 draws with its
includes run, on every page of data/; only the includes whose meaning cannot change are inlined."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment, StrictUndefined, TemplateError

from builder.build import read_and_plan
from builder.config import SiteConfig
from builder.engine.render import Renderer, SiteEnvironment
from builder.pages.page import Page

DATA = Path(__file__).resolve().parents[1] / "data"

SETTINGS = {"undefined": StrictUndefined, "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True,
            "autoescape": True}


def test_every_page_of_data_is_drawn_the_same() -> None:
    config = SiteConfig(site_url="https://example.org", dispute_url="https://example.org/issues")
    model = read_and_plan(DATA, config)
    inlined, included = Renderer(config, model.site), Renderer(config, model.site)
    included.env.compile = Environment.compile.__get__(included.env)  # type: ignore[method-assign]
    pages = [output for output in model.outputs if isinstance(output, Page)]
    assert {"tdqs/tool.html", "tdqs/server.html", "cleo/run.html"} <= {page.template for page in pages}
    for page in pages:
        assert inlined.render(page) == included.render(page), page.path
    compiled = inlined.env.compile(inlined.env.loader.get_source(inlined.env, "tdqs/tool.html")[0],  # type: ignore[union-attr]
                                   "tdqs/tool.html", raw=True)
    assert "get_template('_partials/freshness.html'" not in compiled
    assert "get_template('_partials/badge.html'" not in compiled
    reference = Environment.compile(inlined.env, inlined.env.loader.get_source(  # type: ignore[union-attr]
        inlined.env, "tdqs/tool.html")[0], "tdqs/tool.html", raw=True)
    assert "get_template('_partials/freshness.html'" in reference


PARTIALS = {
    "plain.html": "{# a note #}\n<p>{{ x }}</p>\n{% for i in items %}{{ i }}{% if not loop.last %}, {% endif %}{% endfor %}\n"
                  "{% if y is defined %}y={{ y }}{% endif %}\n",
    "sets.html": "{% set x = 'changed' %}{{ x }}\n",
    "macro.html": "{% macro m() %}M{% endmacro %}{{ m() }}\n",
    "nested.html": "[{% include 'plain.html' %}]\n",
    "static.html": "static\n",
    "broken.html": "{% if %}\n",
}
PAGE = (
    "{% set x = 'outer' %}{% set i = 'kept' %}\n"
    "{% with items = [1, 2, 3] %}{% include 'plain.html' %}{% endwith %}\n"
    "{% with items = [], y = 5 %}{% include 'plain.html' %}{% endwith %}\n"
    "{% include 'sets.html' %}{% include 'macro.html' %}{% include 'nested.html' %}\n"
    "{% include 'missing.html' ignore missing %}{% include name %}{% include 'static.html' without context %}\n"
    "{% if false %}{% include 'absent.html' %}{% include 'broken.html' %}{% endif %}{{ x }} {{ i }}\n"
)


def test_what_is_inlined_and_what_is_not() -> None:
    ours = SiteEnvironment(loader=DictLoader({**PARTIALS, "page.html": PAGE}), **SETTINGS)
    plain = Environment(loader=DictLoader({**PARTIALS, "page.html": PAGE}), **SETTINGS)
    context = {"items": ["a"], "name": "plain.html"}
    assert ours.get_template("page.html").render(context) == plain.get_template("page.html").render(context)
    assert "outer kept" in ours.get_template("page.html").render(context)
    source = ours.compile(PAGE, "page.html", raw=True)
    for kept in ("sets.html", "macro.html", "nested.html", "missing.html", "static.html", "absent.html", "broken.html"):
        assert f"'{kept}'" in source, kept
    assert "'plain.html'" not in source
    for bad in ("{% include 'absent.html' %}", "{% include 'broken.html' %}", "{% if %}"):
        with pytest.raises(TemplateError):
            ours.from_string(bad).render()
