"""Plotly figures as plain figure dicts (plotly's JSON schema), drawn as SVG at build time by
builder.chart_svg: a figure dict is a well-known model a test can validate with
`plotly.graph_objects.Figure`, and no page loads plotly.js (4.8 MB) to draw a few bars.

No template (`template: none` is implied by giving none): Plotly's default template adds ~6.5 KB to
every figure. Only tier colours are set here (from builder.tier_colours); every other colour comes
from the site's CSS (`.chart-svg` in site.css), so charts follow dark mode.

Plotly renders a subset of HTML in every text it draws (tick labels, hover text, titles, bar text):
`<a href>` becomes a link, `<b>`/`<br>`/`<span style>` styled markup, `&lt;` an entity. Tool and
server names are third-party text, so every string that goes into a figure passes `plotly_text`,
which escapes `&`, `<` and `>`: Plotly then shows the name exactly as it is written.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from builder.tier_colours import TIER_COLOURS  # re-exported: one map for page, charts and badges

__all__ = ["TIER_COLOURS", "bar", "histogram", "line"]


def plotly_text(text: str) -> str:
    """`text` as Plotly shows it literally: its HTML subset and entities escaped."""
    return html.escape(text, quote=False)


def _texts(values: Sequence[Any]) -> list[Any]:
    return [plotly_text(value) if isinstance(value, str) else value for value in values]


def _layout(title: str, x_title: str, y_title: str, **extra: Any) -> dict[str, Any]:
    """Only what differs per figure; margins and colours are chart_svg's and the stylesheet's."""
    layout: dict[str, Any] = {"title": {"text": plotly_text(title)}, "xaxis": {}, "yaxis": {}, **extra}
    if x_title:
        layout["xaxis"]["title"] = {"text": plotly_text(x_title)}
    if y_title:
        layout["yaxis"]["title"] = {"text": plotly_text(y_title)}
    return layout


def bar(
    title: str, labels: Sequence[str], values: Sequence[float], *, x_title: str = "", y_title: str = "",
    colours: Sequence[str] | None = None, horizontal: bool = False, text: Sequence[str] | None = None,
    range_: tuple[float, float] | None = None,
) -> dict[str, Any]:
    trace: dict[str, Any] = {
        "type": "bar",
        "x": list(values) if horizontal else _texts(labels),
        "y": _texts(labels) if horizontal else list(values),
        "orientation": "h" if horizontal else "v",
    }
    if colours:
        trace["marker"] = {"color": list(colours)}
    if text:
        trace["text"] = _texts(text)
        trace["textposition"] = "auto"
    layout = _layout(title, x_title, y_title)
    if range_:
        layout["xaxis" if horizontal else "yaxis"]["range"] = list(range_)
    if horizontal:
        layout["yaxis"]["autorange"] = "reversed"
    return {"data": [trace], "layout": layout}


def histogram(
    title: str, bins: Sequence[float], counts: Sequence[int], *, x_title: str, y_title: str, width: float = 0.1,
    range_: tuple[float, float] | None = None, colours: Sequence[str] | None = None,
    pass_line: tuple[float, str] | None = None,
) -> dict[str, Any]:
    """A pre-binned histogram on a numeric axis: each bar at its bin's value, `width` wide, so an
    empty bin keeps its place (on a category axis it would vanish and the bars close up). Counts
    are computed in SQL, not shipped as raw values. `pass_line`: (value, label) of a dotted
    vertical line, such as TDQS's passing bar."""
    trace: dict[str, Any] = {"type": "bar", "x": list(bins), "y": list(counts), "width": width,
                             "marker": {"color": list(colours) if colours else "#0969da"}}
    layout = _layout(title, x_title, y_title, bargap=0)
    layout["xaxis"]["type"] = "linear"
    if range_:
        layout["xaxis"]["range"] = list(range_)
    if pass_line:
        value, label = pass_line
        layout["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": value, "x1": value, "y0": 0, "y1": 1,
                             "line": {"dash": "dot"}}]
        layout["annotations"] = [{"xref": "x", "yref": "paper", "x": value, "y": 1, "text": plotly_text(label),
                                  "showarrow": False}]
    return {"data": [trace], "layout": layout}


def line(
    title: str, x: Sequence[str], y: Sequence[float | None], *, y_title: str, range_: tuple[float, float],
    dates: bool = False,
) -> dict[str, Any]:
    """A line over `x`; with `dates`, `x` are ISO 8601 moments, placed by time (not evenly)."""
    layout = _layout(title, "", y_title, height=240)
    layout["yaxis"]["range"] = list(range_)
    if dates:
        layout["xaxis"]["type"] = "date"
    return {"data": [{"type": "scatter", "mode": "lines+markers", "x": _texts(x), "y": list(y)}], "layout": layout}
