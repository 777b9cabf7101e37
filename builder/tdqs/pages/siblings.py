"""The list of a server's other tools on each of its tool pages (`tdqs/_other_tools.html`).

Every tool page of a server shows the same list but for the tool itself, so the links are sorted
and their `<li>` items drawn once per server, not once per page: a server with N tools would
otherwise draw N lists of up to OTHER_TOOLS items, and at registry scale that was a fifth of the
cost of a tool page. A page then joins the items it shows.
"""

from __future__ import annotations

from collections import Counter

from markupsafe import Markup, escape

from builder import numbers, urls
from builder.tdqs.pages.views import SiblingTool
from builder.tdqs.reader import Server

OTHER_TOOLS = 50
"""Links to other tools on a tool's page: enough to move around a server, bounded at registry scale."""


class OtherTools:
    """A server's tools, scored and not scored yet, as the other-tools lists of its pages show them."""

    def __init__(self, server_slug: str, links: list[SiblingTool]) -> None:
        self.server_slug = server_slug
        self.links = sorted(links, key=lambda link: (link.name.lower(), link.name))
        self._items: dict[str, dict[int, Markup]] = {}
        """By parent folder of the pages: each link's item, by its position in `links`."""
        self._named = Counter(link.name for link in self.links)
        """How many links have each name: a page leaves out every link with its tool's name."""

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
        """The positions of the links the page of `name` shows, and how many more there are. The
        links are sorted, so those shown are among the first OTHER_TOOLS plus the page's own."""
        own = self._named[name]
        head = range(min(len(self.links), OTHER_TOOLS + own))
        shown = [i for i in head if self.links[i].name != name][:OTHER_TOOLS]
        return shown, max(0, len(self.links) - own - OTHER_TOOLS)

    def of(self, name: str) -> tuple[list[SiblingTool], int]:
        """The tools the page of `name` links to (every other tool, by name, at most OTHER_TOOLS)
        and how many more the server has."""
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
