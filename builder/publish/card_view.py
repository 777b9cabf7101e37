"""A card on its subject's page (builder.publish.cards): where it is, and the Markdown and HTML a
maintainer pastes into a README to show it, linking back to the page. Any grading system's page
shows one through templates/_partials/card.html."""

from __future__ import annotations

from builder import urls
from builder.config import SiteConfig
from builder.pages.page import CamelView
from builder.publish.cards import HEIGHT, WIDTH, html_snippet, markdown_alt


def snippet_base(config: SiteConfig) -> str:
    """Where pasted snippets point: the absolute site URL when configured (`--site-url`), else the base path."""
    return config.absolute_base if config.has_absolute_base else config.base_path


class CardView(CamelView):
    """The card on its page, with the snippets that embed it."""

    path: str
    width: int
    height: int
    alt: str
    markdown: str
    """A Markdown image of the card linking to its page, for a README."""
    html: str
    """The same as HTML, at the card's declared size."""


def card_view(page: str, alt: str, config: SiteConfig) -> CardView:
    """The card beside the page at `page` (urls.card_file), described by `alt`."""
    path = urls.card_file(page)
    base = snippet_base(config)
    card_url, page_url = urls.absolute(base, path), urls.absolute(base, page)
    return CardView(
        path=path, width=WIDTH, height=HEIGHT, alt=alt,
        markdown=f"[![{markdown_alt(alt)}]({card_url})]({page_url})",
        html=html_snippet(card_url, page_url, alt),
    )
