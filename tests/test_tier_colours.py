"""One colour per tier everywhere: the page's chips, the charts and the SVG badges read one map,
and white text on each colour meets WCAG AA (4.5:1), worked out here with the WCAG formula."""

from __future__ import annotations

import re
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import build_in_memory

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


def test_page_chips_and_badges_use_the_one_map() -> None:
    stylesheet = (ROOT / "templates" / "static" / "site.css").read_text()
    for tier in TIER_COLOURS:
        # the chip of each tier takes its background from the property css() sets
        assert re.search(rf"\.tier-{tier.lower()}\b[^}}]*background: var\(--tiercolour-{tier.lower()}\)", stylesheet)
        assert f"--tiercolour-{tier.lower()}:{TIER_COLOURS[tier]};" in css()
        assert f'fill="{TIER_COLOURS[tier]}"' in Badge("TDQS", tier, 3.0).svg()
    assert f'fill="{NO_TIER}"' in Badge("TDQS", None, None).svg()
    # no colour literal for a tier in the stylesheet or any script: they read the properties
    # (the favicon, a picture, is green like tier A on purpose)
    for static in sorted([*(ROOT / "templates" / "static").glob("*.css"), *(ROOT / "templates" / "static").glob("*.js")]):
        text = static.read_text(encoding="utf-8").lower()
        assert not any(colour.lower() in text for colour in TIER_COLOURS.values()), static.name


def test_the_charts_drawn_at_build_time_paint_each_tier_as_the_page_chips_do(tmp_path: Path) -> None:
    # Charts are SVG drawn at build time (builder.chart_svg), so a tier's colour is in the page:
    # every tier bar of the home page's chart must be filled with the colour the site's stylesheet's
    # `--tiercolour-*` property gives that tier's chips (the page itself carries none).
    definitions = [definition(f"tool_{n}") for n in range(3)]
    tools = [tool_score(d, scores(*dims)) for d, dims in
             zip(definitions, [(5, 5, 5, 5, 5, 5), (3, 3, 3, 3, 3, 3), (1, 1, 1, 1, 1, 1)], strict=True)]
    write_capture(tmp_path, "srv", report("srv", tools), definitions)
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("index.html")
    assert "<style>" not in html and 'href="static/site.css"' in html
    [style] = re.findall(r"\n:root\{([^}]*)\}\n$", writer.text("static/site.css"))
    properties = dict(item.split(":", 1) for item in style.split(";"))
    chart = html.split('<figure class="chart" id="chart-tiers">', 1)[1].split("</figure>", 1)[0]
    bars = re.findall(r'<rect [^>]*fill="([^"]+)"><title>([A-Z]): ', chart)
    assert [tier for _, tier in bars] == ["A", "B", "C", "D", "F"]
    for fill, tier in bars:
        assert fill == properties[f"--tiercolour-{tier.lower()}"], tier
