"""sitemap.xml and robots.txt.

The sitemap protocol wants absolute URLs and at most 50,000 per file, so a site with more pages
gets a sitemap index pointing at `sitemaps/sitemap-N.xml`. Without a known absolute base URL
(`--site-url`, or a full URL as `--base-url`) no sitemap is written: a sitemap of relative URLs
is invalid, and robots.txt then names none.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from xml.sax.saxutils import escape

from builder import urls
from builder.config import SiteConfig
from builder.pages.page import DataFile

MAX_URLS = 50_000
SITEMAP = "sitemap.xml"


def _urlset(locations: Sequence[str]) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"<url><loc>{escape(loc)}</loc></url>" for loc in locations]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def sitemap_files(page_paths: Sequence[str], config: SiteConfig, *, max_urls: int = MAX_URLS) -> Iterator[DataFile]:
    if not config.has_absolute_base:
        return
    base = config.absolute_base
    locations = [urls.absolute(base, path) for path in sorted(page_paths) if path != "404.html"]
    if len(locations) <= max_urls:
        yield DataFile(SITEMAP, _urlset(locations))
        return
    parts = [locations[i : i + max_urls] for i in range(0, len(locations), max_urls)]
    index = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for number, chunk in enumerate(parts, start=1):
        path = f"sitemaps/sitemap-{number}.xml"
        yield DataFile(path, _urlset(chunk))
        index.append(f"<sitemap><loc>{escape(urls.absolute(base, path))}</loc></sitemap>")
    index.append("</sitemapindex>")
    yield DataFile(SITEMAP, "\n".join(index) + "\n")


def robots_txt(config: SiteConfig) -> DataFile:
    lines = ["User-agent: *", "Allow: /"]
    if config.has_absolute_base:
        lines.append(f"Sitemap: {urls.absolute(config.absolute_base, SITEMAP)}")
    return DataFile("robots.txt", "\n".join(lines) + "\n")
