"""The changes page links each tool that moved and shows the net deltas, checked against figures
worked out by hand from the rubric's formulas."""

from __future__ import annotations

from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory


def test_changes_link_each_tool_and_show_net_deltas(tmp_path: Path) -> None:
    a, b, c = definition("alpha"), definition("beta"), definition("gamma")
    first = [tool_score(a, scores(4, 4, 4, 4, 4, 4)), tool_score(b, scores(3, 3, 3, 3, 3, 3))]
    write_capture(tmp_path, "srv", report("srv", first, generated_at="2026-06-01T00:00:00.000Z"))
    second = [tool_score(a, scores(5, 5, 5, 5, 5, 5)), tool_score(c, scores(4, 4, 4, 4, 4, 4))]
    write_capture(tmp_path, "srv", report("srv", second, generated_at="2026-07-01T00:00:00.000Z"))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("changes/index.html")
    page = Page(html)
    # First capture: TDQS 4.0 and 3.0; description quality 0.6 × 3.5 + 0.4 × 3.0 = 3.3; coherence
    # (4+5+5+4)/4 = 4.5; overall 0.7 × 3.3 + 0.3 × 4.5 = 3.66 → 3.7.
    # Second: 5.0 and 4.0; 0.6 × 4.5 + 0.4 × 4.0 = 4.3; 0.7 × 4.3 + 0.3 × 4.5 = 4.36 → 4.4; net +0.7.
    assert "3.7 → 4.4 (+0.7)" in page.text
    assert "alpha TDQS 4.0 → 5.0 (+1.0)" in page.text
    assert "beta: tool removed" in page.text and "gamma : tool added" in page.text
    # The tools still on the server are links to their pages; the removed one has none.
    assert "../servers/srv/tools/alpha/" in page.links and "../servers/srv/tools/gamma/" in page.links
    assert not any("tools/beta" in link for link in page.links)
    assert "servers/srv/tools/alpha/index.html" in writer.files
