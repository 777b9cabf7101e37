"""sitemap.xml and robots.txt.

The sitemap protocol wants absolute URLs and at most 50,000 per file, so a site with more pages
gets a sitemap index pointing at `sitemaps/sitemap-N.xml`. Without a known absolute base URL
(`--site-url`, or a full URL as `--base-url`) no sitemap is written: a sitemap of relative URLs
is invalid, and robots.txt then names none.

Each URL's `lastmod` is the date its data was captured (never the build's clock: the same data
builds the same bytes): the date of the nearest folder above the page that its grading system
dated (a server's folder: its newest capture), else the newest date of the whole corpus. Written
as a W3C date (`2026-05-24`); a stored timestamp that does not start with a valid date gives none.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping, Sequence
from xml.sax.saxutils import escape

from builder import urls
from builder.config import SiteConfig
from builder.pages.page import DataFile

MAX_URLS = 50_000
SITEMAP = "sitemap.xml"


def w3c_date(timestamp: str | None) -> str | None:
    """`2026-05-24T02:32:23.000Z` → `2026-05-24`; None when it does not start with a valid date."""
    if not timestamp:
        return None
    try:
        return datetime.date.fromisoformat(timestamp[:10]).isoformat()
    except ValueError:
        return None


def page_date(path: str, dates: Mapping[str, str], default: str | None) -> str | None:
    """The W3C date of the page at `path`: that of the nearest dated folder above it, else `default`."""
    end = len(path)
    while (end := path.rfind("/", 0, end)) > 0:
        found = dates.get(path[: end + 1])
        if found is not None:
            return w3c_date(found)
    return w3c_date(default)


def _urlset(entries: Sequence[tuple[str, str | None]]) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"<url><loc>{escape(loc)}</loc><lastmod>{date}</lastmod></url>" if date else f"<url><loc>{escape(loc)}</loc></url>"
              for loc, date in entries]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def sitemap_files(
    page_paths: Sequence[str], config: SiteConfig, *, dates: Mapping[str, str] | None = None,
    default_date: str | None = None, max_urls: int = MAX_URLS,
) -> Iterator[DataFile]:
    """`dates`: folder → timestamp, as `GradingSystem.page_dates` gives them; `default_date`: the
    corpus's newest timestamp, for every other page."""
    if not config.has_absolute_base:
        return
    base = config.absolute_base
    dates = dates or {}
    entries = [(urls.absolute(base, path), page_date(path, dates, default_date))
               for path in sorted(page_paths) if path != "404.html"]
    if len(entries) <= max_urls:
        yield DataFile(SITEMAP, _urlset(entries))
        return
    parts = [entries[i : i + max_urls] for i in range(0, len(entries), max_urls)]
    index = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for number, chunk in enumerate(parts, start=1):
        path = f"sitemaps/sitemap-{number}.xml"
        yield DataFile(path, _urlset(chunk))
        newest = max((date for _, date in chunk if date), default=None)
        lastmod = f"<lastmod>{newest}</lastmod>" if newest else ""
        index.append(f"<sitemap><loc>{escape(urls.absolute(base, path))}</loc>{lastmod}</sitemap>")
    index.append("</sitemapindex>")
    yield DataFile(SITEMAP, "\n".join(index) + "\n")


def robots_txt(config: SiteConfig) -> DataFile:
    lines = ["User-agent: *", "Allow: /"]
    if config.has_absolute_base:
        lines.append(f"Sitemap: {urls.absolute(config.absolute_base, SITEMAP)}")
    return DataFile("robots.txt", "\n".join(lines) + "\n")
