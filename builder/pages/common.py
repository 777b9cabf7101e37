"""Pages every site has whatever systems it shows: a fallback home, search and the 404 page (the
data-problems pages are builder.pages.problems)."""

from __future__ import annotations

from builder import urls
from builder.pages.page import NavItem, Page, PageContext


class FallbackHomeContext(PageContext):
    sections: list[NavItem]


def fallback_home(nav: list[NavItem]) -> Page:
    return Page(
        urls.HOME, "home_empty.html",
        FallbackHomeContext(title="Scorecards", description="Scorecards of grading results.", sections=nav),
    )


class NotFoundContext(PageContext):
    pass


def not_found_page() -> Page:
    return Page(
        urls.NOT_FOUND, "404.html",
        NotFoundContext(title="Page not found", description="There is no scorecard at this address."),
    )


class SearchContext(PageContext):
    pass


def search_page() -> Page:
    return Page(
        "search/index.html", "search.html",
        SearchContext(title="Search", description="Search servers, tools, namespaces and sessions."),
    )
