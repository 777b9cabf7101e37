"""Pages every site has whatever systems it shows: the data-problems page and a fallback home."""

from __future__ import annotations

from functools import partial

from builder import urls
from builder.engine.problems import InputFile, Problem, ProblemLog
from builder.pages.page import NavItem, Page, PageContext


class ProblemsContext(PageContext):
    files: list[InputFile]
    problems: list[Problem]
    errors: int
    warnings: int


def problems_page(log: ProblemLog) -> Page:
    """Its context is made when the page is rendered: a registry's tens of thousands of files
    are not held as models until then."""
    return Page(urls.PROBLEMS, "problems.html", partial(_problems_context, log))


def _problems_context(log: ProblemLog) -> ProblemsContext:
    return ProblemsContext(
        title="Data problems",
        description="Every input file read, whether it was accepted, and every problem found in it.",
        files=log.files,
        problems=log.problems,
        errors=log.error_count,
        warnings=len(log) - log.error_count,
    )


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
