"""The site's charts drawn as SVG at build time, from the Plotly figure dicts of builder.charts.

plotly.js is 4.8 MB; parsing and running it on a phone blocked the main thread for seconds, for a
few bar charts. The figures stay Plotly figure dicts (the model a test validates with
`plotly.graph_objects.Figure`, and what the page embeds for an interactive view on request), but
what a visitor sees first is this static drawing: no script, painted with the page, readable
without JavaScript, sized by its viewBox, coloured by the site's CSS (so it follows dark mode),
with a tooltip (`<title>`) on every bar and point.

Only what the site's figures use is drawn: vertical and horizontal bars (optionally coloured per
bar and labelled with `text`), lines and markers over categories or dates, dotted horizontal
`shapes` with their `annotations`, axis titles, `range`, `ticksuffix` and `autorange: reversed`.
Text is third-party (tool names, session ids): it is escaped here, once. Strings a figure escaped
for Plotly (which renders HTML in labels) are unescaped first, so `&lt;` shows as `<`, as Plotly
would show it.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

WIDTH = 480
"""The drawing's width in its own units. A chart is drawn at this width at most (on a desktop) and
shrinks with a narrower screen: on a 390 px phone the content column is 358 px wide, so a label
of FONT units shows at FONT × 358 / 480 px."""
FONT = 15
"""Text size in the drawing's units: 11.2 px on a 390 px phone (at least 11, the smallest size a
label is read at), 15 px on a desktop."""
BAR_PITCH = 26
"""Units per category of a horizontal bar chart: 100 tools make a chart 2,600 units tall, still readable."""
_EM = 0.6 * FONT
"""An average character's width: long labels are cut to fit the margin, with an ellipsis."""


def _text(value: object) -> str:
    return html.escape(html.unescape(str(value)), quote=True)


def _fit(label: str, room: float) -> str:
    limit = max(4, int(room / _EM))
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _number(value: float) -> str:
    """A tick or value label: integers without decimals, others with what they need (at most 2)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values from `low` to `high` (inclusive where they fall on a step)."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _title(layout: dict[str, Any], axis: str) -> str:
    return str(((layout.get(axis) or {}).get("title") or {}).get("text") or "")


def _colours(trace: dict[str, Any], count: int) -> list[str | None]:
    colour = (trace.get("marker") or {}).get("color")
    if isinstance(colour, list):
        return [str(c) if c else None for c in colour] + [None] * (count - len(colour))
    return [str(colour) if colour else None] * count


def _fill(colour: str | None) -> str:
    return f' fill="{_text(colour)}"' if colour else ' class="mark"'


def _value_range(layout: dict[str, Any], axis: str, values: Sequence[float | None]) -> tuple[float, float]:
    """The axis range: the figure's, widened to start at 0 for bars (a bar of 1.0 must show)."""
    given = (layout.get(axis) or {}).get("range")
    present = [v for v in values if v is not None]
    top = max(present, default=1.0)
    if given:
        return 0.0 if given[0] > 0 else float(given[0]), max(float(given[1]), top)
    return 0.0, top * 1.1 if top > 0 else 1.0


def _svg(width: float, height: float, label: str, body: list[str]) -> str:
    return (
        f'<svg class="chart-svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" height="{height:g}" '
        f'font-size="{FONT}" role="img" aria-label="{_text(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{_text(label)}</title>{''.join(body)}</svg>"
    )


def _bars_horizontal(figure: dict[str, Any], label: str) -> str:
    trace, layout = figure["data"][0], figure["layout"]
    names = [str(n) for n in trace["y"]]
    values = [float(v) if v is not None else None for v in trace["x"]]
    texts = trace.get("text") or [None] * len(names)
    colours = _colours(trace, len(names))
    if (layout.get("yaxis") or {}).get("autorange") != "reversed":
        names, values, texts, colours = names[::-1], values[::-1], texts[::-1], colours[::-1]
    low, high = _value_range(layout, "xaxis", values)
    left = min(max(len(n) for n in names) * _EM + 12, WIDTH * 0.4) if names else 40
    shown_texts = [str(t) if t is not None else _number(v) for t, v in zip(texts, values, strict=True) if v is not None]
    right = min(max((len(html.unescape(t)) for t in shown_texts), default=2) * _EM + 12, WIDTH * 0.35)
    top, bottom = 36, 50
    plot_w = WIDTH - left - right
    height = top + bottom + BAR_PITCH * len(names)
    scale = plot_w / (high - low)
    body = [f'<text class="chart-title" x="{WIDTH / 2:g}" y="{FONT + 4}" text-anchor="middle">{_text(_title_of(layout))}</text>']
    for tick in _ticks(low, high):
        x = left + (tick - low) * scale
        body.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}"/>')
        body.append(f'<text x="{x:.1f}" y="{height - bottom + FONT + 4}" text-anchor="middle">{_number(tick)}</text>')
    for index, (name, value, text, colour) in enumerate(zip(names, values, texts, colours, strict=True)):
        y = top + index * BAR_PITCH
        body.append(f'<text x="{left - 6:g}" y="{y + BAR_PITCH / 2 + FONT / 3:.1f}" text-anchor="end">'
                    f"{_text(_fit(name, left - 12))}</text>")
        if value is None:
            continue
        width = max((value - low) * scale, 1.0)
        shown = text if text is not None else _number(value)
        body.append(f'<rect x="{left:g}" y="{y + 3:.1f}" width="{width:.1f}" height="{BAR_PITCH - 6}"{_fill(colour)}>'
                    f"<title>{_text(name)}: {_text(shown)}</title></rect>")
        body.append(f'<text class="value" x="{left + width + 4:.1f}" y="{y + BAR_PITCH / 2 + FONT / 3:.1f}">'
                    f"{_text(shown)}</text>")
    if axis_title := _title(layout, "xaxis"):
        body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">{_text(axis_title)}</text>')
    return _svg(WIDTH, height, label, body)


def _title_of(layout: dict[str, Any]) -> str:
    return str((layout.get("title") or {}).get("text") or "")


def _bars_vertical(figure: dict[str, Any], label: str) -> str:
    trace, layout = figure["data"][0], figure["layout"]
    if (layout.get("xaxis") or {}).get("type") == "linear":
        return _histogram(figure, label)
    names = [_number(n) if isinstance(n, int | float) else str(n) for n in trace["x"]]
    values = [float(v) if v is not None else None for v in trace["y"]]
    texts = trace.get("text") or [None] * len(names)
    colours = _colours(trace, len(names))
    low, high = _value_range(layout, "yaxis", values)
    height = float(layout.get("height") or 300)
    left, top, right = 58, 36, 16
    longest = max((len(n) for n in names), default=1)
    slot = (WIDTH - left - right) / max(len(names), 1)
    rotate = longest * _EM > slot
    bottom = 44 + (min(longest, 24) * _EM * 0.7 if rotate else 0)
    height = max(height, top + bottom + 120)
    plot_h = height - top - bottom
    scale = plot_h / (high - low)
    body = [f'<text class="chart-title" x="{WIDTH / 2:g}" y="{FONT + 4}" text-anchor="middle">{_text(_title_of(layout))}</text>']
    body += _y_grid(low, high, top, plot_h, left, right)
    # Every label when they fit; otherwise about 20 of them, evenly (a histogram of tenths).
    every = max(1, math.ceil(len(names) / 20)) if rotate else 1
    for index, (name, value, text, colour) in enumerate(zip(names, values, texts, colours, strict=True)):
        x = left + index * slot
        centre = x + slot / 2
        if index % every == 0:
            if rotate:
                body.append(f'<text x="{centre:.1f}" y="{top + plot_h + 14:.1f}" text-anchor="end" '
                            f'transform="rotate(-40 {centre:.1f} {top + plot_h + 14:.1f})">{_text(_fit(name, 24 * _EM))}</text>')
            else:
                body.append(f'<text x="{centre:.1f}" y="{top + plot_h + 18:.1f}" text-anchor="middle">{_text(name)}</text>')
        if value is None:
            continue
        bar_h = max((value - low) * scale, 1.0 if value > 0 else 0.0)
        shown = text if text is not None else _number(value)
        gap = min(slot * 0.15, 8)
        body.append(f'<rect x="{x + gap:.1f}" y="{top + plot_h - bar_h:.1f}" width="{max(slot - 2 * gap, 1):.1f}" '
                    f'height="{bar_h:.1f}"{_fill(colour)}><title>{_text(name)}: {_text(shown)}</title></rect>')
        if text is not None:
            body.append(f'<text class="value" x="{centre:.1f}" y="{top + plot_h - bar_h - 4:.1f}" '
                        f'text-anchor="middle">{_text(text)}</text>')
    if axis_title := _title(layout, "yaxis"):
        body.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
                    f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">{_text(axis_title)}</text>')
    if axis_title := _title(layout, "xaxis"):
        body.append(f'<text x="{left + (WIDTH - left - right) / 2:.1f}" y="{height - 6:g}" '
                    f'text-anchor="middle">{_text(axis_title)}</text>')
    return _svg(WIDTH, height, label, body)


def _histogram(figure: dict[str, Any], label: str) -> str:
    """Bars on a numeric x axis (builder.charts.histogram): each at its value, the bin's width
    wide, so empty bins keep their place; ticks at round values; dotted vertical `shapes` (the
    passing bar) with their annotation above the plot."""
    trace, layout = figure["data"][0], figure["layout"]
    xs = [float(x) for x in trace["x"]]
    values = [float(v) if v is not None else 0.0 for v in trace["y"]]
    bin_width = float(trace.get("width") or 1)
    colours = _colours(trace, len(xs))
    given = (layout.get("xaxis") or {}).get("range")
    x_low = min([*xs, *(given[:1] if given else [])], default=0.0) - bin_width / 2
    x_high = max([*xs, *(given[1:] if given else [])], default=1.0) + bin_width / 2
    low, high = _value_range(layout, "yaxis", values)
    height = float(layout.get("height") or 300)
    left, top, right, bottom = 58, 36 + FONT, 16, 50
    height = max(height, top + bottom + 120)
    plot_w, plot_h = WIDTH - left - right, height - top - bottom

    def x_of(value: float) -> float:
        return left + (value - x_low) / (x_high - x_low) * plot_w

    y_scale = plot_h / (high - low)
    body = [f'<text class="chart-title" x="{WIDTH / 2:g}" y="{FONT + 4}" text-anchor="middle">{_text(_title_of(layout))}</text>']
    body += _y_grid(low, high, top, plot_h, left, right)
    for tick in _ticks(x_low, x_high):
        body.append(f'<text x="{x_of(tick):.1f}" y="{top + plot_h + FONT + 4:.1f}" text-anchor="middle">{_number(tick)}</text>')
    for x, value, colour in zip(xs, values, colours, strict=True):
        bar_h = max((value - low) * y_scale, 1.0 if value > 0 else 0.0)
        start, end = x_of(x - bin_width / 2), x_of(x + bin_width / 2)
        body.append(f'<rect x="{start + 0.5:.1f}" y="{top + plot_h - bar_h:.1f}" width="{max(end - start - 1, 1):.1f}" '
                    f'height="{bar_h:.1f}"{_fill(colour)}><title>{_number(x)}: {_number(value)}</title></rect>')
    for shape in layout.get("shapes") or []:
        x = x_of(float(shape["x0"]))
        body.append(f'<line class="threshold" x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + plot_h:.1f}"/>')
    for note in layout.get("annotations") or []:
        x = x_of(float(note["x"]))
        anchor = "end" if x > left + plot_w * 0.7 else "start"
        body.append(f'<text class="threshold-label" x="{x + (-4 if anchor == "end" else 4):.1f}" y="{top - 6}" '
                    f'text-anchor="{anchor}">{_text(note["text"])}</text>')
    body.append(f'<line class="axis" x1="{left}" y1="{top + plot_h:.1f}" x2="{WIDTH - right}" y2="{top + plot_h:.1f}"/>')
    if axis_title := _title(layout, "yaxis"):
        body.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
                    f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">{_text(axis_title)}</text>')
    if axis_title := _title(layout, "xaxis"):
        body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 6:g}" text-anchor="middle">{_text(axis_title)}</text>')
    return _svg(WIDTH, height, label, body)


def _moment(value: str) -> float | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _y_grid(low: float, high: float, top: float, plot_h: float, left: float, right: float) -> list[str]:
    """The horizontal grid lines and their labels of a plot from `low` to `high`."""
    scale = plot_h / (high - low)
    lines = []
    for tick in _ticks(low, high):
        y = top + plot_h - (tick - low) * scale
        lines.append(f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{WIDTH - right}" y2="{y:.1f}"/>')
        lines.append(f'<text x="{left - 6}" y="{y + 5:.1f}" text-anchor="end">{_number(tick)}</text>')
    return lines


def _scatter(figure: dict[str, Any], label: str) -> str:
    trace, layout = figure["data"][0], figure["layout"]
    xs = [str(x) for x in trace["x"]]
    ys = [float(y) if y is not None else None for y in trace["y"]]
    texts = trace.get("text") or [None] * len(xs)
    colours = _colours(trace, len(xs))
    yaxis = layout.get("yaxis") or {}
    low, high = (float(v) for v in yaxis.get("range") or (min(v for v in ys if v is not None), max(
        v for v in ys if v is not None)))
    suffix = str(yaxis.get("ticksuffix") or "")
    height = float(layout.get("height") or 300)
    left, top, right, bottom = 58, 32, 40, 50
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    moments = [_moment(x) for x in xs] if (layout.get("xaxis") or {}).get("type") == "date" else None
    if moments is not None and None not in moments and len(set(moments)) > 1:
        first, last = min(moments), max(moments)  # type: ignore[type-var]
        positions = [left + (m - first) / (last - first) * plot_w for m in moments]  # type: ignore[operator]
    else:
        step = plot_w / max(len(xs) - 1, 1)
        positions = [left + i * step if len(xs) > 1 else left + plot_w / 2 for i in range(len(xs))]

    def y_of(value: float) -> float:
        return top + plot_h - (value - low) / (high - low or 1) * plot_h

    body = [f'<text class="chart-title" x="{WIDTH / 2:g}" y="{FONT + 4}" text-anchor="middle">{_text(_title_of(layout))}</text>']
    for tick in _ticks(low, high):
        body.append(f'<line class="grid" x1="{left}" y1="{y_of(tick):.1f}" x2="{WIDTH - right}" y2="{y_of(tick):.1f}"/>')
        body.append(f'<text x="{left - 6}" y="{y_of(tick) + 5:.1f}" text-anchor="end">{_number(tick)}{_text(suffix)}</text>')
    for shape in layout.get("shapes") or []:
        level = y_of(float(shape["y0"]))
        body.append(f'<line class="threshold" x1="{left}" y1="{level:.1f}" x2="{WIDTH - right}" y2="{level:.1f}"/>')
    for note in layout.get("annotations") or []:
        body.append(f'<text x="{WIDTH - right + 6}" y="{y_of(float(note["y"])) + 4:.1f}">{_text(note["text"])}</text>')
    shown_x: list[int] = []
    for index in sorted(range(len(xs)), key=lambda i: (i not in (0, len(xs) - 1), i)):
        if all(abs(positions[index] - positions[other]) >= 80 for other in shown_x):
            shown_x.append(index)
    for index in sorted(shown_x):
        # Centred under its point, unless that would run past the chart's edge: then it ends (or starts) there.
        half = len(xs[index][:10]) * FONT * 0.3
        anchor = "end" if positions[index] + half > WIDTH else "start" if positions[index] - half < 0 else "middle"
        body.append(f'<text x="{positions[index]:.1f}" y="{top + plot_h + 18:.1f}" text-anchor="{anchor}">'
                    f"{_text(xs[index][:10])}</text>")
    if "lines" in str(trace.get("mode", "")):
        run: list[str] = []
        for x, y in zip(positions, ys, strict=True):
            if y is None:  # a gap: the line stops and starts again
                if len(run) > 1:
                    body.append(f'<polyline class="line" points="{" ".join(run)}"/>')
                run = []
                continue
            run.append(f"{x:.1f},{y_of(y):.1f}")
        if len(run) > 1:
            body.append(f'<polyline class="line" points="{" ".join(run)}"/>')
    for x, y, text, colour, when in zip(positions, ys, texts, colours, xs, strict=True):
        if y is None:
            continue
        tip = f"{text} · " if text is not None else ""
        body.append(f'<circle cx="{x:.1f}" cy="{y_of(y):.1f}" r="4"{_fill(colour)}>'
                    f"<title>{_text(tip)}{_text(when[:16].replace('T', ' '))}: {_number(y)}{_text(suffix)}</title></circle>")
    if axis_title := _title(layout, "yaxis"):
        body.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
                    f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">{_text(axis_title)}</text>')
    if axis_title := _title(layout, "xaxis"):
        body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 6:g}" text-anchor="middle">{_text(axis_title)}</text>')
    return _svg(WIDTH, height, label, body)


def svg_chart(figure: dict[str, Any], label: str) -> str:
    """The figure as one `<svg>` element (markup, every text escaped)."""
    trace = figure["data"][0]
    if trace.get("type") == "bar":
        if trace.get("orientation") == "h":
            return _bars_horizontal(figure, label)
        return _bars_vertical(figure, label)
    if trace.get("type") == "scatter":
        return _scatter(figure, label)
    raise ValueError(f"no SVG drawing for a {trace.get('type')!r} trace")
