"""The CLEO scores-over-time chart as a plain Plotly figure dict.

A dict rather than a `plotly.graph_objects.Figure`, as in `builder.charts`: the figure is data that
builder.chart_svg draws as SVG at build time, with no template (Plotly's default one would add
kilobytes per figure) and colours from the site's CSS, except the markers, which take the grade
colours TDQS tiers use. Hover labels are Plotly's HTML-like text, so session ids (third-party text)
are HTML-escaped before they go in (chart_svg unescapes them once and escapes them for the SVG).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from builder.charts import TIER_COLOURS
from builder.cleo.pages.views import display_id, graded_at
from builder.config import CleoGradeScale

HOVER_ID_LIMIT = 48


def score_timeline(
    points: Sequence[dict[str, Any]], scale: CleoGradeScale
) -> dict[str, Any] | None:
    """Rows of `cleo_timeline.sql` → a figure; None when there is nothing to plot."""
    if not points:
        return None
    thresholds = [("A", scale.a), ("B", scale.b), ("C", scale.c), ("D", scale.d)]
    return {
        "data": [{
            "type": "scatter",
            "mode": "markers",
            "name": "Graded runs",
            "x": [graded_at(row["graded_at"]).iso for row in points],
            "y": [round(row["percent"], 2) for row in points],
            "text": [
                f"{html.escape(display_id(row['session_id'], HOVER_ID_LIMIT))} · {row['grade']}"
                for row in points
            ],
            "hovertemplate": "%{text}<br>%{x}<br>%{y}%<extra></extra>",
            "marker": {"size": 9, "color": [TIER_COLOURS.get(row["grade"], "#57606a") for row in points]},
        }],
        "layout": {
            "height": 320,
            "margin": {"l": 56, "r": 24, "t": 16, "b": 48},
            "showlegend": False,
            "xaxis": {"type": "date", "title": {"text": "Graded (UTC)"}},
            "yaxis": {"range": [0, 105], "title": {"text": "Score, % of max"}, "ticksuffix": "%"},
            "shapes": [
                {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
                 "y0": 100 * share, "y1": 100 * share, "line": {"dash": "dot", "width": 1}}
                for _, share in thresholds
            ],
            "annotations": [
                {"xref": "paper", "x": 1, "xanchor": "left", "yref": "y", "y": 100 * share,
                 "text": letter, "showarrow": False}
                for letter, share in thresholds
            ],
        },
    }
