"""What a server's search document says of whose server it is and what it is for, beside its
name and tools (templates/search/tdqs_server.html).

A maintainer looks a server up by its id (`jdoe-babelwise-mcp`), its repository or its owner, so
each is indexed, with its compact form (builder.engine.search.compact_name) for queries that
Pagefind would split into common words. The search page shows a result's identity and grade from
the document's Pagefind metadata and orders by grade; a server's categories are words of its text.
"""

from __future__ import annotations

from typing import Any

from builder.engine.search import compact_name
from builder.tdqs.categories import spellings
from builder.tdqs.identity import identity
from builder.tdqs.models import ServerMeta


def server_fields(server_id: str, meta: ServerMeta, grade: str, sort: str) -> dict[str, Any]:
    """`grade`: the overall grade as shown (`A 4.9`, or `not scored yet`); `sort`: the number the
    search page orders by grade on (the overall score; 0 without one)."""
    who = identity(server_id, meta.repository_url)
    terms = who.terms(server_id, meta.repository_url)
    names = [server_id, who.repository or "", who.owner or ""]
    return {
        "server_id": server_id,
        "identity": who.label,
        "repository_url": meta.repository_url,
        "owner": who.owner,
        "terms": terms,
        # Only the compact forms that differ from the name (`jdoe-x` → `jdoex`; `jdoe` is indexed as it is).
        "compact_terms": " ".join(dict.fromkeys(compact_name(n) for n in names if n and compact_name(n) != n.lower())),
        "grade": grade,
        "sort": sort,
        # One spelling per category, as a server lists it (its own, not the corpus's choice).
        "categories": list(spellings(meta.categories or []).values()),
    }


def tool_grades(tools: list[tuple[str, str]]) -> str:
    """`slug=A 4.1|slug2=B 3.2`: each tool's grade for its search hit, by its anchor's slug. Tool
    slugs are `[a-z0-9_-]`, so neither `=` nor `|` occurs in one."""
    return "|".join(f"{slug}={grade}" for slug, grade in tools)
