"""Plotly figures as plain figure dicts (plotly's JSON schema), drawn in the browser by the
plotly.js bundled with the `plotly` package and served from the site.

No template (`template: none` is implied by giving none): Plotly's default template adds ~6.5 KB to
every figure. Colours come from the site's CSS at draw time (static/charts.js), so charts follow
dark mode. A test validates every figure kind with `plotly.graph_objects.Figure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TIER_COLOURS = {"A": "#1a7f37", "B": "#4d8f00", "C": "#b08800", "D": "#cf5f00", "F": "#cf222e"}


def _layout(title: str, x_title: str, y_title: str, **extra: Any) -> dict[str, Any]:
    """Only what differs per figure; margins, automargin and colours are set once in charts.js."""
    layout: dict[str, Any] = {"title": {"text": title}, "xaxis": {}, "yaxis": {}, **extra}
    if x_title:
        layout["xaxis"]["title"] = {"text": x_title}
    if y_title:
        layout["yaxis"]["title"] = {"text": y_title}
    return layout


def bar(
    title: str, labels: Sequence[str], values: Sequence[float], *, x_title: str = "", y_title: str = "",
    colours: Sequence[str] | None = None, horizontal: bool = False, text: Sequence[str] | None = None,
    range_: tuple[float, float] | None = None,
) -> dict[str, Any]:
    trace: dict[str, Any] = {
        "type": "bar",
        "x": list(values) if horizontal else list(labels),
        "y": list(labels) if horizontal else list(values),
        "orientation": "h" if horizontal else "v",
    }
    if colours:
        trace["marker"] = {"color": list(colours)}
    if text:
        trace["text"] = list(text)
        trace["textposition"] = "auto"
    layout = _layout(title, x_title, y_title)
    if range_:
        layout["xaxis" if horizontal else "yaxis"]["range"] = list(range_)
    if horizontal:
        layout["yaxis"]["autorange"] = "reversed"
    return {"data": [trace], "layout": layout}


def histogram(
    title: str, bins: Sequence[float], counts: Sequence[int], *, x_title: str, y_title: str
) -> dict[str, Any]:
    """A pre-binned histogram: counts are computed in SQL, not shipped as raw values."""
    return {
        "data": [{"type": "bar", "x": list(bins), "y": list(counts), "marker": {"color": "#0969da"}}],
        "layout": _layout(title, x_title, y_title, bargap=0.05),
    }


def line(
    title: str, x: Sequence[str], y: Sequence[float | None], *, y_title: str, range_: tuple[float, float]
) -> dict[str, Any]:
    layout = _layout(title, "", y_title, height=240)
    layout["yaxis"]["range"] = list(range_)
    return {"data": [{"type": "scatter", "mode": "lines+markers", "x": list(x), "y": list(y)}], "layout": layout}
