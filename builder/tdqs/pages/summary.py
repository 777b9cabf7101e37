"""What the corpus-wide TDQS outputs need of one server, and nothing more.

The statistics, the server list, recent changes, the site feed, the index.json check and the
search index each read a few fields of every server; the server's own pages read all of it. A
`ServerSummary` is those few fields, made where the server was read. It is small and plain, so a
worker process that reads part of a registry (builder.engine.workers) hands the parent summaries and keeps
the parsed servers, whose pages it renders itself: pickling a parsed server costs more than
reading it.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder import urls
from builder.engine.search import SearchDoc
from builder.tdqs.pages.search_fields import search_tool, server_search_doc
from builder.tdqs.pages.views import ServerScores, server_scores
from builder.tdqs.reader import Server
from builder.tdqs.registry_index import index_entry_json


@dataclass(frozen=True)
class ServerSummary:
    server_id: str
    slug: str
    display_name: str
    description: str | None
    scores: ServerScores
    models: tuple[str, ...]
    """The model of each capture, oldest first ('' where a capture names none)."""
    spec_versions: tuple[str, ...]
    newest: str
    """The newest capture's generatedAt."""
    index_entry: str
    """Its index.json entry, as JSON (`index_entry_json`)."""


def summarise(server: Server) -> ServerSummary:
    current = server.current
    scores = server_scores(current)
    return ServerSummary(
        server_id=server.server_id,
        slug=server.slug,
        display_name=server.display_name,
        description=server.meta.description,
        scores=scores,
        models=tuple(c.report.model or "" for c in server.captures),
        spec_versions=tuple(c.report.spec_version for c in server.captures),
        newest=server.current.generated_at,  # the captures are in time order (never their text's)
        index_entry=index_entry_json(server),
    )


def search_doc(server: Server, scores: ServerScores) -> SearchDoc:
    """One search document per server, each tool a sub-section whose anchor (`t-<slug>`) the
    search page turns into a link to the tool's own page. A tool is found by its name and its
    description, and shown with its grade; the grader's summary stays on the tool's page (indexing
    it too costs Pagefind a third more time at registry scale, for words nobody searches by)."""
    published = scores.coverage_ok and scores.overall_tier is not None and scores.overall_score is not None
    grade = f"{scores.overall_tier} {scores.overall_score:.1f}" if published else "below 80% coverage"
    tools = [
        search_tool(tool.slug, tool.name, f"{tool.checked.tier} {tool.checked.tdqs:.1f}",
                    tool.definition.tool.description if tool.definition else None)
        for tool in server.current.tools
    ] + [
        search_tool(server.unscored_slugs[name], name, None, definition.tool.description)
        for name, definition in server.unscored_tools.items()
    ]
    return SearchDoc(
        path=urls.server_page(server.slug),
        template="search/tdqs_server.html",
        context=server_search_doc(
            server.server_id, server.display_name, server.meta, tier_text=f"overall {grade}" if published else "",
            grade=grade, sort=f"{scores.overall_score:.1f}" if published else "0", tools=tools,
        ),
    )
