"""Charts drawn as SVG at build time: bars in proportion from the axis, text escaped once, a tooltip
on every mark, and the figure dicts they draw from still valid Plotly figures."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import plotly.graph_objects as go

from builder import charts
from builder.chart_svg import svg_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)  # well-formed XML, or this raises


def test_horizontal_bars_start_at_the_axis_in_proportion() -> None:
    names = ["one", "three", "five"]
    figure = charts.bar("Scores", names, [1.0, 3.0, 5.0], horizontal=True, range_=(1, 5), x_title="TDQS")
    go.Figure(figure)
    root = parse(svg_chart(figure, "Scores of three tools"))
    widths = [Fraction(rect.get("width")) for rect in root.iter(f"{SVG}rect")]
    assert len(widths) == 3
    # From 0, not from the range's 1: the 1.0 bar is a fifth of the 5.0 bar (to the drawing's 0.1 px).
    assert abs(widths[0] / widths[2] - Fraction(1, 5)) < Fraction(1, 100)
    assert abs(widths[1] / widths[2] - Fraction(3, 5)) < Fraction(1, 100)
    tips = [rect.find(f"{SVG}title").text for rect in root.iter(f"{SVG}rect")]
    assert tips == ["one: 1", "three: 3", "five: 5"]
    assert root.get("role") == "img" and root.get("aria-label") == "Scores of three tools"


def test_third_party_text_is_escaped_once() -> None:
    hostile = '<a href="https://evil.example">x</a> & <b>bold</b>'
    figure = charts.bar("T", [hostile, "plain"], [2.0, 4.0], horizontal=True, range_=(1, 5))
    markup = svg_chart(figure, hostile)
    root = parse(markup)
    assert not [e for e in root.iter() if e.tag in (f"{SVG}a", "a", f"{SVG}b", "b")]
    assert "<a " not in markup and "<b>" not in markup
    assert "&lt;a href=&quot;https://evil.example&quot;&gt;" in markup
    # charts.bar escapes its labels for Plotly (`a &lt; b`); the SVG shows them as Plotly would,
    # not as "&amp;lt;".
    pre_escaped = charts.bar("T", ["a < b"], [3.0], horizontal=True, range_=(1, 5))
    assert pre_escaped["data"][0]["y"] == ["a &lt; b"]
    assert "a &lt; b" in svg_chart(pre_escaped, "t") and "&amp;lt;" not in svg_chart(pre_escaped, "t")


def test_vertical_bars_and_lines_with_gaps() -> None:
    bars = charts.bar("Tiers", ["A", "B", "C"], [10, 5, 0], y_title="tools", text=["50%", "25%", "0%"])
    heights = [Fraction(r.get("height")) for r in parse(svg_chart(bars, "tiers")).iter(f"{SVG}rect")]
    assert abs(heights[1] / heights[0] - Fraction(1, 2)) < Fraction(1, 100) and heights[2] == 0
    line = charts.line("History", ["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"], [2.0, None, 3.0, 4.0],
                       y_title="TDQS", range_=(1, 5))
    go.Figure(line)
    root = parse(svg_chart(line, "history"))
    assert len(list(root.iter(f"{SVG}circle"))) == 3  # the gap has no point
    polylines = [p.get("points") for p in root.iter(f"{SVG}polyline")]
    assert len(polylines) == 1 and len(polylines[0].split()) == 2  # the line stops at the gap
    assert re.search(r"2026-03-01: 3</title>", svg_chart(line, "history"))


def test_a_histogram_keeps_empty_bins_on_a_numeric_axis_with_the_pass_line() -> None:
    # Bins at 1.0, 1.1 and 4.0: nothing between 1.1 and 4.0, which must stay as empty space.
    figure = charts.histogram("TDQS", [1.0, 1.1, 4.0], [2, 1, 3], x_title="TDQS", y_title="tools",
                              range_=(1, 5), pass_line=(3.0, "passing bar (B)"))
    go.Figure(figure)
    root = parse(svg_chart(figure, "histogram"))
    rects = list(root.iter(f"{SVG}rect"))
    starts = [Fraction(r.get("x")) for r in rects]
    # On a numeric axis the gap from 1.1 to 4.0 is 29 bins wide: 29 times the step from 1.0 to 1.1.
    step = starts[1] - starts[0]
    assert abs((starts[2] - starts[1]) / step - 29) < Fraction(1, 10)
    heights = [Fraction(r.get("height")) for r in rects]
    assert abs(heights[1] / heights[2] - Fraction(1, 3)) < Fraction(1, 100)
    assert [r.find(f"{SVG}title").text for r in rects] == ["1: 2", "1.1: 1", "4: 3"]
    # The pass line stands at 3.0: two thirds of the way from the 1.0 bar's centre to the 4.0 bar's.
    line = next(e for e in root.iter(f"{SVG}line") if e.get("class") == "threshold")
    centre = [s + Fraction(r.get("width")) / 2 for s, r in zip(starts, rects, strict=True)]
    assert line.get("x1") == line.get("x2")
    assert abs(Fraction(line.get("x1")) - (centre[0] + (centre[2] - centre[0]) * Fraction(2, 3))) < 1
    assert any(t.text == "passing bar (B)" for t in root.iter(f"{SVG}text"))
    # Ticks are the round values of the axis, not the bins.
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle"]
    assert {"1", "2", "3", "4", "5"} <= set(ticks)


def test_a_history_places_captures_by_their_dates_and_keeps_its_last_label_inside() -> None:
    """Issue 49: captures a day apart and a month apart were drawn evenly spaced, and the last date ran past
    the chart's right edge. 1 May → 2 May → 31 May: the second point is 1/30 of the way to the third."""
    moments = ["2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z", "2026-05-31T00:00:00+00:00"]
    line = charts.line("History", moments, [2.0, 3.0, 4.0], y_title="TDQS", range_=(1, 5), dates=True)
    go.Figure(line)  # still a valid Plotly figure: a date axis
    root = parse(svg_chart(line, "history"))
    xs = [Fraction(c.get("cx")) for c in root.iter(f"{SVG}circle")]
    assert abs((xs[1] - xs[0]) / (xs[2] - xs[0]) - Fraction(1, 30)) < Fraction(1, 200)
    width = Fraction(root.get("viewBox").split()[2])
    labels = {t.text: t for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("2026-")}
    last = labels["2026-05-31"]
    # Anchored at its end under its point: the label ends inside the chart.
    assert last.get("text-anchor") == "end" and Fraction(last.get("x")) <= width
    assert labels["2026-05-01"].get("text-anchor") == "middle"
