"""The list of a server's other tools on each of its tool pages (`tdqs/_other_tools.html`): its neighbours
by name, a bounded number of them, and a link to the server's page for the rest.

Every tool page of a server shows links from the same sorted list, so the links are sorted
and their `<li>` items drawn once per server, not once per page: a server with N tools would
otherwise draw N lists of up to OTHER_TOOLS items, and at registry scale that was a fifth of the
cost of a tool page. A page then joins the items it shows.
"""

from __future__ import annotations

from bisect import bisect_left

from markupsafe import Markup, escape

from builder import numbers, urls
from builder.tdqs.pages.views import SiblingTool
from builder.tdqs.reader import Server

NEIGHBOURS = 3
"""Links to other tools on a tool's page: the NEIGHBOURS tools before it and after it by name (more on one
side at an end of the list), so a page's weight does not grow with its server's size; the server's page
lists them all."""
OTHER_TOOLS = 2 * NEIGHBOURS


class OtherTools:
    """A server's tools, scored and not scored yet, as the other-tools lists of its pages show them."""

    def __init__(self, server_slug: str, links: list[SiblingTool]) -> None:
        self.server_slug = server_slug
        self.links = sorted(links, key=lambda link: (link.name.lower(), link.name))
        self._keys = [(link.name.lower(), link.name) for link in self.links]
        self._items: dict[str, dict[int, Markup]] = {}
        """By parent folder of the pages: each link's item, by its position in `links`."""

    @classmethod
    def of_server(cls, server: Server) -> OtherTools:
        return cls(server.slug, [
            SiblingTool(name=t.name, slug=t.slug, tier=t.checked.tier, tdqs=t.checked.tdqs)
            for t in server.current.tools
        ] + [
            SiblingTool(name=n, slug=server.unscored_slugs[n], tier=None, tdqs=None)
            for n in server.unscored_tools
        ])

    def _shown(self, name: str) -> tuple[list[int], int]:
        """The positions of the links the page of `name` shows (its neighbours by name, up to OTHER_TOOLS,
        never a link of its own name), and how many more there are."""
        others = [i for i, link in enumerate(self.links) if link.name != name]
        before = bisect_left(self._keys, (name.lower(), name))
        at = sum(1 for i in others if i < before)  # where `name` sits among the others
        start = max(0, min(at - NEIGHBOURS, len(others) - OTHER_TOOLS))
        shown = others[start:start + OTHER_TOOLS]
        return shown, len(others) - len(shown)

    def of(self, name: str) -> tuple[list[SiblingTool], int]:
        """The tools the page of `name` links to (its neighbours by name, at most OTHER_TOOLS) and how
        many more the server has."""
        shown, more = self._shown(name)
        return [self.links[i] for i in shown], more

    def items(self, name: str, page_path: str) -> Markup:
        """The `<li>` items of the list on the page of `name` (at `page_path`): those of
        `of(name)`, joined. Each item is drawn the first time a page shows it and kept for the
        pages in the same parent folder: a link that leads out of a page's own folder depends only
        on that parent, and a server's tool pages are sibling folders
        (`servers/<server>/tools/<tool>/`) that never list themselves."""
        drawn = self._items.setdefault(page_path.rsplit("/", 2)[0], {})
        items = []
        for i in self._shown(name)[0]:
            item = drawn.get(i)
            if item is None:
                item = drawn[i] = self._item(self.links[i], page_path)
            items.append(item)
        return Markup("".join(items))  # every item is already Markup: joined as text, not escaped again

    def _item(self, link: SiblingTool, page_path: str) -> Markup:
        """One `<li>`, as `tdqs/_other_tools.html` drew it with the `tier` macro, every text escaped."""
        href = urls.relative(page_path, urls.tool_page(self.server_slug, link.slug))
        if link.tier:
            score = f" {escape(numbers.fixed(link.tdqs))}" if link.tdqs is not None else ""
            grade = f'<span class="tier tier-{escape(link.tier.lower())}">{escape(link.tier)}{score}</span>'
        else:
            grade = '<span class="state">not scored yet</span>'
        return Markup(f'<li><a href="{escape(href)}">{escape(link.name)}</a> {grade}</li>')
