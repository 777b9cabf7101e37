"""Score badges: an SVG per grade, and a shields.io endpoint JSON beside it.

The SVG's file name carries the tier and score (`B-3.4.svg`), so the badge URL changes whenever
the score does: GitHub's image proxy caches by URL and can never show a stale grade. Its endpoint
JSON (`B-3.4.json`) sits beside it and is addressed the same way. A server also has a stable
endpoint beside its scorecard (`servers/<id>/badge.json`), which shields.io re-reads on its own
schedule, for a README badge that follows the server's current grade.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote
from xml.sax.saxutils import escape

from builder.pages.page import DataFile
from builder.tier_colours import NO_TIER, TIER_COLOURS

COLOURS: dict[str | None, str] = {tier: colour for tier, colour in TIER_COLOURS.items()}
COLOURS[None] = NO_TIER
"""The site's one tier→colour map (builder.tier_colours), so a README badge matches the page."""
SHIELDS_COLOURS = {"A": "brightgreen", "B": "green", "C": "yellow", "D": "orange", "F": "red", None: "lightgrey"}


def _text_width(text: str) -> int:
    """Width in px of `text` in 11px Verdana, close enough for a badge: narrow, wide and regular glyphs."""
    width = 0.0
    for ch in text:
        width += 4.0 if ch in "ijlt.,:;|! " else 9.5 if ch in "MWmw@" else 7.0
    return int(width + 10)


@dataclass(frozen=True)
class Badge:
    label: str
    tier: str | None
    score: float | None

    @property
    def message(self) -> str:
        return "not rated" if self.tier is None or self.score is None else f"{self.tier} {self.score:.1f}"

    @property
    def file_name(self) -> str:
        return "none.svg" if self.tier is None or self.score is None else f"{self.tier}-{self.score:.1f}.svg"

    def svg(self) -> str:
        left, right = _text_width(self.label), _text_width(self.message)
        total = left + right
        colour = COLOURS.get(self.tier, COLOURS[None])
        label, message = escape(self.label), escape(self.message)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
            f'aria-label="{label}: {message}"><title>{label}: {message}</title>'
            f'<rect width="{left}" height="20" fill="#555"/><rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{left / 2:.1f}" y="14">{label}</text><text x="{left + right / 2:.1f}" y="14">{message}</text>'
            "</g></svg>\n"
        )

    def endpoint(self) -> str:
        document = {
            "schemaVersion": 1,
            "label": self.label,
            "message": self.message,
            "color": SHIELDS_COLOURS.get(self.tier, SHIELDS_COLOURS[None]),
        }
        return json.dumps(document, indent=2) + "\n"


BADGE_FOLDER = "badges"
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="
"""shields.io's endpoint badge: it fetches the JSON at `url` (absolute, URL-encoded) and draws it."""


def shields_endpoint_badge(endpoint_url: str) -> str:
    """The image URL of shields.io's badge for an endpoint JSON at the absolute `endpoint_url`."""
    return SHIELDS_ENDPOINT + quote(endpoint_url, safe="")


class BadgeSet:
    """The SVGs and endpoint JSONs a section needs. A badge depends only on its label, tier and
    score, so one SVG and one JSON serve every server and tool with that grade: a registry needs a
    few dozen files, not half a million."""

    def __init__(self) -> None:
        self._svgs: dict[str, Badge] = {}

    def svg_path(self, badge: Badge) -> str:
        prefix = "".join(ch for ch in badge.label.lower() if ch.isalnum()) or "badge"
        path = f"{BADGE_FOLDER}/{prefix}-{badge.file_name}"
        self._svgs.setdefault(path, badge)
        return path

    def endpoint_path(self, badge: Badge) -> str:
        """The endpoint JSON beside the badge's SVG."""
        return self.svg_path(badge).removesuffix(".svg") + ".json"

    def used(self) -> dict[str, Badge]:
        """SVG path → badge, for every badge asked for so far."""
        return dict(self._svgs)

    def add(self, used: dict[str, Badge]) -> None:
        """Badges another set (a worker's) was asked for."""
        for path, badge in used.items():
            self._svgs.setdefault(path, badge)

    def files(self) -> list[DataFile]:
        files: list[DataFile] = []
        for path, badge in sorted(self._svgs.items()):
            files.append(DataFile(path, badge.svg()))
            files.append(DataFile(path.removesuffix(".svg") + ".json", badge.endpoint()))
        return files
