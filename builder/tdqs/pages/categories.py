"""Category pages: for each category the servers name in their `server.json`, the page ranking
its servers, best first (`categories/<key>/`, 50 a page, as the servers list), and the page
listing every category (`categories/`).

"Which server is best for X?" is answered by rank: overall tier first (A before B …, then the
servers whose overall score is not published, then those not scored yet), the overall score
within a tier, then the name. The rows are the servers list's own (`ListEntry.row`), so a server
reads the same on both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

from pydantic import BaseModel, ConfigDict

from builder import urls
from builder.pages.page import Page, PageContext
from builder.pages.paging import PER_PAGE, Pager, pager, split
from builder.tdqs.categories import category_key, category_slug, spellings
from builder.tdqs.pages.server_list import TIERS, ListEntry, ServerListRow, tier_order

BEST_SHOWN = 3
"""Servers of each category the home page and the categories page name."""


def rank_key(entry: ListEntry) -> tuple[int, float, str, str]:
    """Tier, then overall score (higher first), then name: the order of a category's servers."""
    overall = entry.overall
    return tier_order(entry.tier), -(overall if overall is not None else -1.0), entry.display_name.lower(), entry.slug


@dataclass(frozen=True)
class Category:
    """A category and its servers, best first."""

    key: str
    name: str
    path: str
    entries: list[ListEntry]


def categories_of(entries: list[ListEntry]) -> list[Category]:
    """Every category named by a server, most servers first, then by name."""
    shown = spellings(name for entry in entries for name in entry.categories)
    members: dict[str, list[ListEntry]] = {key: [] for key in shown}
    for entry in entries:
        for name in entry.categories:
            members[category_key(name)].append(entry)
    found = [
        Category(key=key, name=shown[key], path=urls.category_page(category_slug(shown[key])),
                 entries=sorted(members[key], key=rank_key))
        for key in shown
    ]
    return sorted(found, key=lambda c: (-len(c.entries), c.name.lower(), c.key))


class CategorySummary(BaseModel):
    """A category as the home page and the categories page show it: its best few servers."""

    model_config = ConfigDict(frozen=True)

    name: str
    path: str
    count: int
    best: list[ServerListRow]
    """Its best few servers (BEST_SHOWN)."""


def summaries(found: list[Category]) -> list[CategorySummary]:
    return [CategorySummary(name=c.name, path=c.path, count=len(c.entries),
                            best=[entry.row() for entry in c.entries[:BEST_SHOWN]]) for c in found]


class CategoryContext(PageContext):
    name: str
    rows: list[ServerListRow]
    rank_from: int
    """The rank of the page's first row."""
    pager: Pager
    graded: int
    """How many of the category's servers have a published overall grade."""


class CategoriesContext(PageContext):
    categories: list[CategorySummary]


def _category_context(category: Category, number: int, count: int, rows: list[ListEntry], stand_ins: list[str]
                      ) -> CategoryContext:
    total = len(category.entries)
    return CategoryContext(
        title=category.name if number == 1 else f"{category.name}, page {number}",
        description=f"The {total} MCP servers in the category {category.name}, best TDQS grade first.",
        name=category.name, rows=[entry.row() for entry in rows], rank_from=(number - 1) * PER_PAGE + 1,
        pager=pager(number, count, total, lambda n: urls.category_page(category_slug(category.name), n)),
        graded=sum(entry.tier in TIERS for entry in category.entries), stand_in_models=stand_ins,
    )


def _categories_context(found: list[Category], stand_ins: list[str]) -> CategoriesContext:
    return CategoriesContext(
        stand_in_models=stand_ins,
        title="Categories",
        description=f"The {len(found)} categories of MCP servers, each with its best servers.",
        categories=summaries(found),
    )


def category_outputs(found: list[Category], stand_ins: list[str]) -> Iterator[Page]:
    """`stand_ins`: the stand-in models of the corpus's scores, named on every page that shows them."""
    yield Page(urls.CATEGORIES, "tdqs/categories.html", partial(_categories_context, found, stand_ins))
    for category in found:
        pages = split(category.entries)
        for number, rows in enumerate(pages, start=1):
            yield Page(urls.category_page(category_slug(category.name), number), "tdqs/category.html",
                       partial(_category_context, category, number, len(pages), list(rows), stand_ins))
