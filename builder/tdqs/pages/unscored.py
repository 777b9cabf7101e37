"""Pages for what has no score yet: a tool of the newest tools/list that the current capture did
not score, and a captured server with no usable score at all.

A link to either must never be a 404 and a server must never just vanish from the list: each gets
a page at its usual address saying so, and why, with what is known (the definition as captured).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from markupsafe import Markup
from pydantic import ConfigDict, Field

from builder import urls
from builder.engine.search import SearchDoc
from builder.pages.page import Page, PageContext
from builder.tdqs.identity import identity
from builder.tdqs.pages.search_fields import NOT_SCORED, search_tool, server_search_doc
from builder.tdqs.pages.siblings import OtherTools
from builder.tdqs.pages.views import (
    CategoryLink,
    DefinitionView,
    ProblemFileLink,
    SiblingTool,
    UnscoredToolRow,
    category_links,
    describe_definition,
    problem_links,
    titled,
    unscored_rows,
)
from builder.tdqs.reader import Definition, Server
from builder.tdqs.unscored import UnscoredServer


class UnscoredToolContext(PageContext):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)  # other_tools_html stays Markup

    server_slug: str
    server_name: str
    server_identity: str
    """Whose server it is (builder.tdqs.identity), beside its name in the breadcrumb and the title."""
    name: str
    slug: str
    reason: str
    definition: DefinitionView
    other_tools: list[SiblingTool]
    more_tools: int
    other_tools_html: Markup = Field(exclude=True)
    """The `<li>` items of `other_tools`, drawn once for all the server's tool pages (siblings)."""


class UnscoredServerContext(PageContext):
    server_id: str
    slug: str
    display_name: str
    identity: str
    categories: list[CategoryLink]
    about: str | None
    repository_url: str | None
    homepage_url: str | None
    reason: str
    captured_at: str
    tools_capture: str | None
    tools: list[UnscoredToolRow]
    problem_files: list[ProblemFileLink]
    """Its input files with a problem (why it has no score), each linked to its problems."""


@dataclass(frozen=True)
class UnscoredSummary:
    """What the server list needs of a server without a score."""

    server_id: str
    slug: str
    display_name: str
    description: str | None
    reason: str
    captured_at: str
    tool_count: int
    repository_url: str | None = None
    categories: tuple[str, ...] = ()


def _tool_page(
    server_slug: str, server_name: str, who: str, name: str, slug: str, reason: str, definition: Definition,
    siblings: OtherTools, key: str,
) -> Page:
    path = urls.tool_page(server_slug, slug)

    def context() -> UnscoredToolContext:
        others, more = siblings.of(name)
        return UnscoredToolContext(
            title=f"{name} · {titled(server_name, who)}: not scored yet",
            description=f"The tool {name} of {titled(server_name, who)} has no TDQS score yet.",
            server_slug=server_slug, server_name=server_name, server_identity=who, name=name, slug=slug, reason=reason,
            definition=describe_definition(definition.tool), other_tools=others, more_tools=more,
            other_tools_html=siblings.items(name, path),
        )
    return Page(path, "tdqs/tool_unscored.html", context, key=key)


def unscored_tool_pages(server: Server, siblings: OtherTools) -> Iterator[Page]:
    """The pages of a scored server's tools that have no score in its current capture."""
    rows = {row.name: row for row in unscored_rows(server)}
    who = identity(server.server_id, server.meta.repository_url).label
    for name, definition in server.unscored_tools.items():
        row = rows[name]
        yield _tool_page(server.slug, server.display_name, who, name, row.slug, row.reason, definition,
                         siblings, server.digest)


def _listed(server: UnscoredServer) -> str:
    return f"listed in the tools/list of {server.tools_capture}; the server has no score yet"


def unscored_server_outputs(server: UnscoredServer, problem_files: list[str] | None = None) -> Iterator[Page]:
    """`problem_files`: the server's input files with a problem, in order."""
    rows = [UnscoredToolRow(name=name, slug=server.tool_slugs[name], reason=_listed(server)) for name in server.tools]
    who = identity(server.server_id, server.meta.repository_url).label

    def context() -> UnscoredServerContext:
        return UnscoredServerContext(
            title=f"{titled(server.display_name, who)}: not scored yet",
            description=f"The MCP server {server.display_name} ({who}) has been captured but has no TDQS score yet.",
            server_id=server.server_id, slug=server.slug, display_name=server.display_name, identity=who,
            categories=category_links(server.meta.categories),
            about=server.meta.description, repository_url=server.meta.repository_url,
            homepage_url=server.meta.homepage_url, reason=server.reason, captured_at=server.captured_at,
            tools_capture=server.tools_capture, tools=rows, problem_files=problem_links(problem_files or []),
        )

    yield Page(urls.server_page(server.slug), "tdqs/server_unscored.html", context, key=server.digest)
    siblings = OtherTools(server.slug, [SiblingTool(name=row.name, slug=row.slug, tier=None, tdqs=None) for row in rows])
    for row in rows:
        yield _tool_page(server.slug, server.display_name, who, row.name, row.slug, row.reason,
                         server.tools[row.name], siblings, server.digest)


def unscored_summary(server: UnscoredServer) -> UnscoredSummary:
    return UnscoredSummary(
        server_id=server.server_id, slug=server.slug, display_name=server.display_name,
        description=server.meta.description, reason=server.reason, captured_at=server.captured_at,
        tool_count=len(server.tools), repository_url=server.meta.repository_url,
        categories=tuple(server.meta.categories or ()),
    )


def unscored_search_doc(server: UnscoredServer) -> SearchDoc:
    """Found by its name and its tools' names, like a scored server."""
    return SearchDoc(
        path=urls.server_page(server.slug),
        template="search/tdqs_server.html",
        context=server_search_doc(
            server.server_id, server.display_name, server.meta, tier_text=NOT_SCORED, grade=NOT_SCORED, sort="0",
            tools=[search_tool(server.tool_slugs[name], name, None, definition.tool.description)
                   for name, definition in server.tools.items()],
        ),
    )
