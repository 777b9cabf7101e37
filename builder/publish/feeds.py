"""Atom feeds of grade changes: one for the whole site, one per server.

Entry ids are tag URIs built from the server and capture ids, so they never change when the site
moves to another base URL; links are absolute where the base URL is known and base-path-absolute
otherwise. Third-party text is escaped, and characters XML 1.0 forbids (NUL, most C0 controls,
lone surrogates) are dropped, since one of them would make the whole feed unreadable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from builder import urls
from builder.config import SiteConfig
from builder.dates import instant_key

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
TAG_AUTHORITY = "scorecards.invalid,2026"
MAX_ENTRIES = 100


def xml_text(text: str) -> str:
    return escape(_NOT_XML.sub("", text))


@dataclass(frozen=True)
class FeedEntry:
    key: str
    """Stable identity: `<server-id>/<capture-id>`."""
    title: str
    updated: str
    """RFC 3339 timestamp, from the capture: the feed never reads the clock."""
    page: str
    """Output path of the page the entry is about."""
    summary: str


def entry_order(entry: FeedEntry) -> tuple[str, str]:
    """Feeds list their entries by this, greatest (newest) first: by the instant, never the text."""
    return instant_key(entry.updated), entry.key


def atom(title: str, feed_path: str, entries: Sequence[FeedEntry], config: SiteConfig, history: str | None = None
         ) -> str:
    """The newest MAX_ENTRIES entries; `history`, the output path of the full history (a download),
    is linked as the feed's `related` link, since a feed reader sees only the recent window."""
    ordered = sorted(entries, key=entry_order, reverse=True)[:MAX_ENTRIES]
    base = config.absolute_base if config.has_absolute_base else config.base_path
    updated = ordered[0].updated if ordered else "1970-01-01T00:00:00Z"
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<title>{xml_text(title)}</title>",
        f"<id>tag:{TAG_AUTHORITY}:{xml_text(feed_path)}</id>",
        f"<updated>{xml_text(updated)}</updated>",
        f"<link rel=\"self\" href={quoteattr(urls.absolute(base, feed_path))}/>",
        f"<link rel=\"alternate\" type=\"text/html\" href={quoteattr(urls.absolute(base, urls.HOME))}/>",
        f"<author><name>{xml_text(config.title)}</name></author>",
    ]
    if history is not None:
        lines.insert(-1, f"<link rel=\"related\" href={quoteattr(urls.absolute(base, history))}/>")
    for entry in ordered:
        lines += [
            "<entry>",
            f"<title>{xml_text(entry.title)}</title>",
            f"<id>tag:{TAG_AUTHORITY}:{xml_text(entry.key)}</id>",
            f"<updated>{xml_text(entry.updated)}</updated>",
            f"<link rel=\"alternate\" type=\"text/html\" href={quoteattr(urls.absolute(base, entry.page))}/>",
            f"<summary>{xml_text(entry.summary)}</summary>",
            "</entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
