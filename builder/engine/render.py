"""The Jinja2 environment: autoescaping everywhere, strict about undefined names, and the few
filters templates need. One Renderer per build; rendering a page is a pure function of the page."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateSyntaxError,
    nodes,
    pass_context,
    select_autoescape,
)
from markupsafe import Markup

from builder import numbers, urls
from builder.chart_svg import svg_chart
from builder.config import SiteConfig
from builder.dates import day_words
from builder.engine.assets import TEMPLATES
from builder.engine.escaping import EscapingCodeGenerator, text_content
from builder.engine.inlining import inline_includes
from builder.markdown import is_safe_url, is_web_url, render_trusted, render_untrusted
from builder.pages.page import Page


class SiteEnvironment(Environment):
    """Jinja2's environment, whose templates escape their output faster (builder.engine.escaping)
    and draw their partials in place (builder.engine.inlining). Same text."""

    code_generator_class = EscapingCodeGenerator

    def compile(  # type: ignore[override]
        self, source: str | nodes.Template, name: str | None = None, filename: str | None = None,
        raw: bool = False, defer_init: bool = False,
    ) -> Any:
        if isinstance(source, str):
            with suppress(TemplateSyntaxError):  # then Jinja2 reports it below, as it reports any template's
                source = inline_includes(self.parse(source, name, filename), self._partial)
        return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]

    def _partial(self, name: str) -> nodes.Template:
        assert self.loader is not None
        source, filename, _ = self.loader.get_source(self, name)
        return self.parse(source, name, filename)


class Renderer:
    def __init__(self, config: SiteConfig, site: dict[str, Any]) -> None:
        self.config = config
        self.env = SiteEnvironment(
            loader=FileSystemLoader(str(TEMPLATES)),
            autoescape=select_autoescape(["html", "xml", "svg"], default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # Templates do not change during a build: without this, every include of every page
            # stats its file to see whether it should be reloaded.
            auto_reload=False,
            cache_size=-1,
        )
        self.env.filters.update(
            # Every figure goes through builder.numbers: half-up rounding on exact values, and a
            # figure beside a grade written so that it bands to that grade.
            score=numbers.fixed,
            share=numbers.percent,
            signed=numbers.signed,
            exact=numbers.shortest,
            banded=numbers.banded,
            banded_share=numbers.banded_percent,
            day=day_words,
            markdown=render_untrusted,
            text=text_content,  # element content only: quotes left as they are
            trusted_markdown=render_trusted,
            svg_chart=lambda figure, label: Markup(svg_chart(figure, label)),  # every text is escaped inside
        )
        self.env.globals.update(
            url=_url, asset=_asset, canonical=_canonical, safe_url=is_safe_url, web_url=is_web_url, config=config, site=site,
            # The output paths of the pages templates link to (builder.urls): a template never spells one.
            server_page=urls.server_page, tool_page=urls.tool_page, download_file=urls.download_file,
            compare_page=urls.compare_page, manifest_file=urls.MANIFEST,
        )

    def render(self, page: Page) -> str:
        template = self.env.get_template(page.template)
        return template.render(page=page.resolved(), page_path=page.path)

    def render_string(self, template_name: str, **context: Any) -> str:
        return self.env.get_template(template_name).render(**context)


@pass_context
def _url(context: Any, target: str) -> str:
    """`{{ url('servers/index.html') }}`: the relative link from the page being rendered. The 404
    page is served at whatever path was missing, so its links start from the base path instead."""
    if context["page_path"] == urls.NOT_FOUND:
        return urls.absolute(context["config"].base_path, target)
    return urls.relative(context["page_path"], target)


@pass_context
def _asset(context: Any, name: str) -> str:
    return _url(context, f"static/{name}")


@pass_context
def _canonical(context: Any) -> str:
    return urls.absolute(context["config"].absolute_base, context["page_path"])
