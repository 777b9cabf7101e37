"""The unit of output: where a page goes, which template draws it, and its typed context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class PageContext(BaseModel):
    """Base of every page context. Frozen: a context is data, built once, read by a template."""

    model_config = ConfigDict(frozen=True)

    title: str
    description: str = ""
    """One sentence for search results and link previews."""
    grade: str | None = None
    """The page's grade in a few words ("overall B 3.4"), for link previews: `og:title` ends with it
    (the description says it too)."""
    stand_in_models: list[str] = Field(default_factory=list, exclude=True)
    """The stand-in models (`stand-in/…`) whose scores this page shows: the page then says "Stand-in
    scores" (base.html). Set by the page that shows them, so a page of real data never says it; not
    part of a context's API JSON."""


CAMEL_VIEW = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)
"""A view that is data read by a template and published as API JSON in camelCase."""


class CamelView(BaseModel):
    """Base of the views whose JSON the API publishes: camelCase keys, snake_case attributes."""

    model_config = CAMEL_VIEW


@dataclass(frozen=True)
class Page:
    path: str
    template: str
    context: PageContext | Callable[[], PageContext]
    """The context, or a function that builds it when the page is rendered: a registry has a
    quarter of a million pages, and holding every context at once would cost gigabytes."""
    key: str | None = None
    """Content hash of what the page is made from, for incremental rebuilds (builder.engine.incremental);
    None for pages that depend on the whole corpus and are always rendered."""

    def resolved(self) -> PageContext:
        return self.context() if callable(self.context) else self.context


@dataclass(frozen=True)
class DataFile:
    """A non-HTML output: API JSON, CSV, a feed. `content` is written as it is."""

    path: str
    content: str | bytes | Callable[[], str | bytes]
    key: str | None = None
    """As `Page.key`."""

    def data(self) -> str | bytes:
        return self.content() if callable(self.content) else self.content


@dataclass(frozen=True)
class NavItem:
    label: str
    path: str


Output = Page | DataFile
