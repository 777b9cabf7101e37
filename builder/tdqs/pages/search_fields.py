"""What a server's search document says of whose server it is and what it is for, beside its
name and tools (templates/search/tdqs_server.html).

A maintainer looks a server up by its id (`jdoe-babelwise-mcp`), its repository or its owner, so
each is indexed, with its compact form (builder.engine.search.compact_name) for queries that
Pagefind would split into common words. The search page shows a result's identity and grade from
the document's Pagefind metadata and orders by grade; a server's categories are words of its text.

Pagefind finds words by their beginning, while the servers list's "Find a server" finds any part of
a server's id or repository (`ather` finds `acme-weather`). So the document also carries the
endings of the id's and the repository's compact forms (`fragments`): every part of them is the
beginning of one of those words. Only these two names get them: a server's tools and description
are words a person types from their start, and each ending is one more word in the index.

What the search page shows above each hit (the name, whose server it is, its grade) is not written
as the document's text, only in attributes Pagefind indexes (one run of words, which the page
leaves out of excerpts), so an excerpt says what the hit adds.
"""

from __future__ import annotations

from pydantic import BaseModel

from builder.engine.search import compact_name
from builder.tdqs.categories import spellings
from builder.tdqs.identity import identity
from builder.tdqs.models import ServerMeta

FRAGMENT_LETTERS = 3
"""The shortest ending indexed (`fragments`): shorter ones would find most of the registry."""


def fragments(names: list[str]) -> str:
    """Every ending of each name's compact form after its first letter, of at least FRAGMENT_LETTERS
    letters (`acme-weather` → `cmeweather meweather … her`), space separated, each once."""
    found: dict[str, None] = {}
    for name in names:
        whole = compact_name(name)
        for start in range(1, len(whole) - FRAGMENT_LETTERS + 1):
            found.setdefault(whole[start:], None)
    return " ".join(found)


class SearchTool(BaseModel):
    """One tool of a server's search document: a sub-section the search page links to its page."""

    slug: str
    name: str
    compact: str
    """The name as one word (builder.engine.search.compact_name)."""
    grade: str
    """`A 4.1`, or `not scored yet`: what its search hit shows (`tool_grades`)."""
    tier_text: str
    """`TDQS A 4.1`, or `not scored yet`: what its sub-section says."""
    description: str | None


NOT_SCORED = "not scored yet"


def search_tool(slug: str, name: str, grade: str | None, description: str | None) -> SearchTool:
    """`grade`: `A 4.1`; None for a tool not scored yet."""
    return SearchTool(
        slug=slug, name=name, compact=compact_name(name), grade=grade or NOT_SCORED,
        tier_text=f"TDQS {grade}" if grade else NOT_SCORED, description=description,
    )


class ServerSearchDoc(BaseModel):
    """What templates/search/tdqs_server.html reads of a server, scored or not: its search document."""

    display_name: str
    compact: str
    """The display name as one word."""
    about: str | None
    tier_text: str
    """`overall A 4.9`, `not scored yet`, or empty below the coverage bar."""
    server_id: str
    identity: str
    repository_url: str | None
    owner: str | None
    terms: str
    """Everything the server is searched by besides its name (builder.tdqs.identity)."""
    compact_terms: str
    fragments: str
    """The endings of the id's and repository's compact forms (`fragments`)."""
    grade: str
    """The overall grade as shown (`A 4.9`, `not scored yet`, `below 80% coverage`)."""
    sort: str
    """The number the search page orders by grade on (the overall score; 0 without one)."""
    categories: list[str]
    tool_grades: str
    """`slug=A 4.1|slug2=B 3.2` (`tool_grades`)."""
    tools: list[SearchTool]


def server_search_doc(
    server_id: str, display_name: str, meta: ServerMeta, *, tier_text: str, grade: str, sort: str,
    tools: list[SearchTool],
) -> ServerSearchDoc:
    """`grade`: the overall grade as shown (`A 4.9`, or `not scored yet`); `sort`: the number the
    search page orders by grade on (the overall score; 0 without one)."""
    who = identity(server_id, meta.repository_url)
    names = [server_id, who.repository or "", who.owner or ""]
    return ServerSearchDoc(
        display_name=display_name,
        compact=compact_name(display_name),
        about=meta.description,
        tier_text=tier_text,
        server_id=server_id,
        identity=who.label,
        repository_url=meta.repository_url,
        owner=who.owner,
        terms=who.terms(server_id, meta.repository_url),
        # Only the compact forms that differ from the name (`jdoe-x` → `jdoex`; `jdoe` is indexed as it is).
        compact_terms=" ".join(dict.fromkeys(compact_name(n) for n in names if n and compact_name(n) != n.lower())),
        fragments=fragments([server_id, who.repository or ""]),
        grade=grade,
        sort=sort,
        # One spelling per category, as a server lists it (its own, not the corpus's choice).
        categories=list(spellings(meta.categories or []).values()),
        tool_grades=tool_grades([(tool.slug, tool.grade) for tool in tools]),
        tools=tools,
    )


def tool_grades(tools: list[tuple[str, str]]) -> str:
    """`slug=A 4.1|slug2=B 3.2`: each tool's grade for its search hit, by its anchor's slug. Tool
    slugs are `[a-z0-9_-]`, so neither `=` nor `|` occurs in one."""
    return "|".join(f"{slug}={grade}" for slug, grade in tools)
