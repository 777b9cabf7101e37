"""Third-party Markdown, rendered safely.

markdown-it-py's `commonmark` preset passes raw HTML such as `<script>` straight through, so
descriptions are rendered with the `js-default` preset (raw HTML off, so it is escaped as text)
and a link policy of our own: only http, https and mailto targets become links. Everything else,
`javascript:` and `data:` included, stays visible as text. Images are never loaded: a tool
description that embeds one would make every visitor's browser fetch a third party's URL (a
tracking pixel), so an image is shown as its alt text, linked to the image where it is not already
inside a link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
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


def is_web_url(url: str) -> bool:
    """True for an absolute http(s) URL (`is_safe_url` without mailto): what a server's repository
    and homepage links may be (docs/data-format.md)."""
    return is_safe_url(url) and urlsplit(url).scheme.lower() in ("http", "https")


def _image(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """An image as its alt text (or "image"), never an `<img>`."""
    token = tokens[idx]
    text = escapeHtml(self.renderInlineAsText(token.children or [], options, env) or "image")
    inside_link = sum(1 if t.type == "link_open" else -1 if t.type == "link_close" else 0 for t in tokens[:idx]) > 0
    source = token.attrGet("src") or ""
    if inside_link or not isinstance(source, str) or not is_safe_url(source):
        return text
    return f'<a href="{escapeHtml(source)}" rel="nofollow noopener">{text}</a>'


def _build() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = is_safe_url  # type: ignore[method-assign]
    md.add_render_rule("image", _image)
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
