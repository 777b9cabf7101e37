"""Whose server this is: the line under a server's name that tells same-named servers apart.

A registry has many servers of one name (forks, "GitHub MCP Server"), and a name alone says
nothing about whose each is. Every place a server's name is shown (lists, search results, its
page's heading and link previews) shows its identity under it: the owner and repository its
`repositoryUrl` names (`jdoe/babelwise-mcp`), followed by the server's id when the id is not the
repository's name (two servers of one repository then still differ), or the id alone when there
is no repository. Server ids are unique, so two servers never have the same identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True, slots=True)
class Identity:
    label: str
    """What is shown under the name: `jdoe/babelwise-mcp`, `jdoe/servers · jdoe-git`, or the id."""
    owner: str | None
    repository: str | None
    """`owner/name` of the repository, when its URL names one."""

    def terms(self, server_id: str, repository_url: str | None) -> str:
        """Everything a person may search the server by besides its name: its id, its repository
        (as `owner/name` and as its URL) and the repository's owner, space separated."""
        parts = [server_id]
        if self.repository:
            parts += [self.repository, self.owner or ""]
        if repository_url:
            parts.append(repository_url)
        seen: dict[str, None] = {}
        for part in parts:
            if part:
                seen.setdefault(part, None)
        return " ".join(seen)


def repository_of(url: str | None) -> tuple[str, str] | None:
    """(owner, name) of a repository URL on a code host (`https://github.com/jdoe/x.git` →
    `("jdoe", "x")`); None for anything else (no URL, not http(s), fewer than two path parts)."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if len(segments) < 2:
        return None
    owner, name = segments[0], segments[1].removesuffix(".git")
    if not owner.strip() or not name.strip():
        return None
    return owner, name


@lru_cache(maxsize=256)  # asked for on each of a server's tool pages and changes: parsed once per server
def identity(server_id: str, repository_url: str | None) -> Identity:
    found = repository_of(repository_url)
    if found is None:
        return Identity(label=server_id, owner=None, repository=None)
    owner, name = found
    repository = f"{owner}/{name}"
    label = repository if server_id == name else f"{repository} · {server_id}"
    return Identity(label=label, owner=owner, repository=repository)
