"""Third-party Markdown, rendered safely.

markdown-it-py's `commonmark` preset passes raw HTML such as `<script>` straight through, so
descriptions are rendered with the `js-default` preset (raw HTML off, so it is escaped as text)
and a link policy of our own: only http, https and mailto targets become links. Everything else,
`javascript:` and `data:` included, stays visible as text.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markupsafe import Markup

_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def is_safe_url(url: str) -> bool:
    """True for an absolute http(s) or mailto URL with no control characters or whitespace tricks."""
    if not url or any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme.lower() not in _SAFE_SCHEMES:
        return False
    return parts.scheme.lower() == "mailto" or bool(parts.netloc)


def _build() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = is_safe_url  # type: ignore[method-assign]
    return md


_THIRD_PARTY = _build()
def heading_anchor(text: str) -> str:
    """`Conciseness & Structure (10%)` → `conciseness-structure`: the ids other pages link to."""
    return re.sub(r"[^a-z0-9]+", "-", text.split(" (")[0].lower()).strip("-")


def _heading_ids(state: StateCore) -> None:
    for position, token in enumerate(state.tokens):
        if token.type == "heading_open" and position + 1 < len(state.tokens):
            token.attrSet("id", heading_anchor(state.tokens[position + 1].content))


_TRUSTED = MarkdownIt("commonmark", {"html": False}).enable("table")
_TRUSTED.core.ruler.push("heading_ids", _heading_ids)


def render_untrusted(text: str | None) -> Markup:
    """HTML for Markdown written by someone else (tool descriptions)."""
    if not text:
        return Markup("")
    return Markup(_THIRD_PARTY.render(text))


def render_trusted(text: str) -> Markup:
    """HTML for Markdown this project writes itself (the rubric page), tables enabled."""
    return Markup(_TRUSTED.render(text))
