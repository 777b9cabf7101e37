"""One colour per tier, everywhere: the page's tier badges (CSS), the charts and the SVG badges.

Each colour carries white text at WCAG AA contrast (4.5:1 or more), so a badge is the same filled
chip in light and dark mode and in a README. The stylesheet does not repeat the values: the build
appends `css()`, the CSS custom properties (`--tiercolour-a` …), to the site.css it writes, whose rules
read those properties; the charts (builder.charts, drawn as SVG by builder.chart_svg) and the badges read this map.
"""

from __future__ import annotations

TIER_COLOURS: dict[str, str] = {
    "A": "#1a7f37",
    "B": "#537a00",
    "C": "#9a6700",
    "D": "#bc4c00",
    "F": "#cf222e",
}
NO_TIER = "#6e7781"
"""Not rated, not published, not scored."""


def colour(tier: str | None) -> str:
    return TIER_COLOURS.get(tier or "", NO_TIER)


def css() -> str:
    """The custom properties the build appends to site.css (builder.build.write_static)."""
    values = "".join(f"--tiercolour-{tier.lower()}:{value};" for tier, value in TIER_COLOURS.items())
    return ":root{" + values + f"--tiercolour-none:{NO_TIER}}}"


def stylesheet(site_css: bytes) -> bytes:
    """The site's stylesheet as published: templates/static/site.css with `css()` appended."""
    return site_css + f"\n{css()}\n".encode()
