"""One colour per tier everywhere: the page's chips, the charts and the SVG badges read one map,
and white text on each colour meets WCAG AA (4.5:1), worked out here with the WCAG formula."""

from __future__ import annotations

import re
from pathlib import Path

from builder.publish.badges import Badge
from builder.tier_colours import NO_TIER, TIER_COLOURS, css

ROOT = Path(__file__).resolve().parents[1]


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_white_text_on_every_tier_colour_meets_aa() -> None:
    for colour in [*TIER_COLOURS.values(), NO_TIER]:
        assert (1.0 + 0.05) / (_luminance(colour) + 0.05) >= 4.5, colour


def test_page_charts_and_badges_use_the_one_map() -> None:
    stylesheet = (ROOT / "templates" / "static" / "site.css").read_text()
    for tier in TIER_COLOURS:
        # the chip of each tier takes its background from the property css() sets
        assert re.search(rf"\.tier-{tier.lower()}\b[^}}]*background: var\(--tiercolour-{tier.lower()}\)", stylesheet)
        assert f"--tiercolour-{tier.lower()}:{TIER_COLOURS[tier]};" in css()
        assert f'fill="{TIER_COLOURS[tier]}"' in Badge("TDQS", tier, 3.0).svg()
    assert f'fill="{NO_TIER}"' in Badge("TDQS", None, None).svg()
    # no colour literal for a tier anywhere else in the scripts: charts.js reads the properties
    script = (ROOT / "templates" / "static" / "charts.js").read_text()
    assert not any(colour in script for colour in TIER_COLOURS.values())
    assert "--tiercolour-" in script
