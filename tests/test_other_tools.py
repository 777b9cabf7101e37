"""The other-tools list of a tool page, drawn once per server (builder/tdqs/pages/siblings.py), is
what the template drew for each page on its own: the same tools, the same count of more, and the
same bytes, third-party names escaped. The expected list is computed here from scratch (filter,
sort, cut) and drawn by Jinja with the site's `tier` macro, as `tdqs/_other_tools.html` did."""

from __future__ import annotations

import pytest

from builder import urls
from builder.config import SiteConfig
from builder.engine.render import Renderer
from builder.tdqs.pages.siblings import OTHER_TOOLS, OtherTools
from builder.tdqs.pages.views import SiblingTool

SERVER = "acme"

PER_PAGE = (
    '{% from "_partials/macros.html" import tier %}'
    '{% for t in others %}<li><a href="{{ url(tool_page(server_slug, t.slug)) }}">{{ t.name }}</a> '
    '{% if t.tier %}{{ tier(t.tier, t.tdqs) }}{% else %}<span class="state">not scored yet</span>{% endif %}'
    '</li>{% endfor %}'
)


def _links(count: int) -> list[SiblingTool]:
    """Scored and unscored tools whose names need escaping, differ only by case, or sort apart
    from their lower-case form."""
    names = ["a<b>", "A<b>", "x&y", '"quoted"', "it's", "Zeta", "zeta", "b\u00e9ta"]
    names += [f"tool_{i:03d}" for i in range(count - len(names))]
    slugs = urls.distinct_slugs(names)
    tiers = ["A", "B", "C", "D", "F", None]
    links = []
    for i, name in enumerate(names):
        tier = tiers[i % len(tiers)]
        links.append(SiblingTool(name=name, slug=slugs[name], tier=tier,
                                 tdqs=None if tier is None else 1 + (i * 0.37) % 4))
    return links


def _expected(links: list[SiblingTool], name: str) -> tuple[list[SiblingTool], int]:
    """The three other tools before `name` by name and the three after, or six from the end it is near."""
    def key(link: SiblingTool) -> tuple[str, str]:
        return link.name.lower(), link.name
    others = sorted((link for link in links if link.name != name), key=key)
    earlier = [link for link in others if key(link) < (name.lower(), name)]
    later = others[len(earlier):]
    take_before = min(len(earlier), max(3, 6 - len(later)))
    shown = earlier[len(earlier) - take_before:] + later[:6 - take_before]
    return shown, len(others) - len(shown)


def test_a_page_shows_six_neighbours_whatever_its_servers_size() -> None:
    assert OTHER_TOOLS == 6


@pytest.mark.parametrize("count", [1, 2, 6, 7, 8, 9, 50, 120])
def test_each_page_shows_what_drawing_its_own_list_showed(count: int) -> None:
    links = _links(max(count, 8))[:count]
    siblings = OtherTools(SERVER, list(reversed(links)))
    template = Renderer(SiteConfig(), {}).env.from_string(PER_PAGE)
    for link in links:
        page = urls.tool_page(SERVER, link.slug)
        others, more = _expected(links, link.name)
        assert siblings.of(link.name) == (others, more)
        drawn = template.render(others=others, server_slug=SERVER, page_path=page)
        assert siblings.items(link.name, page) == drawn


def test_names_are_escaped() -> None:
    links = _links(8)
    siblings = OtherTools(SERVER, links)
    items = "".join(siblings.items(link.name, urls.tool_page(SERVER, link.slug)) for link in links)
    assert "a&lt;b&gt;" in items and "x&amp;y" in items and "&#34;quoted&#34;" in items and "it&#39;s" in items
    assert "<b>" not in items
