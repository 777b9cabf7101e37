"""The changes page links each tool that moved and shows the net deltas, checked against figures
worked out by hand from the rubric's formulas."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from site_helpers import Page, build_in_memory

ATOM = "{http://www.w3.org/2005/Atom}"


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


def _rows(html: str) -> list[tuple[str, str, str, str]]:
    """Each row of the changes table: (when, server link, overall cell, what changed), as text."""
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    found = []
    for row in body.split("</tr>")[:-1]:
        when = re.search(r'<time datetime="([^"]+)"', row)
        link = re.search(r'<a href="([^"]+)"', row)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert when and link and len(cells) == 4
        text = [" ".join(Page(cell).text.split()) for cell in cells[2:]]
        found.append((when.group(1), link.group(1), text[0], text[1]))
    return found


def test_every_change_and_every_new_server_newest_first(tmp_path: Path) -> None:
    """Worked out by hand from the rubric's formulas: description quality = round1(0.6 × mean TDQS +
    0.4 × min TDQS), overall = round1(0.7 × description quality + 0.3 × coherence); tiers A ≥ 3.5,
    B ≥ 3.0, C ≥ 2.0."""
    a, b, x, y = definition("a"), definition("b"), definition("x"), definition("y")
    # alpha, coherence 4.5: TDQS 4.0 and 3.0 → 0.6 × 3.5 + 0.4 × 3.0 = 3.3 → 0.7 × 3.3 + 1.35 = 3.66 → A 3.7.
    write_capture(tmp_path, "alpha", report("alpha", [tool_score(a, scores(4, 4, 4, 4, 4, 4)),
                                                       tool_score(b, scores(3, 3, 3, 3, 3, 3))],
                                            generated_at="2026-06-01T00:00:00.000Z"))
    # Then 5.0 and 4.0 → 0.6 × 4.5 + 0.4 × 4.0 = 4.3 → 3.01 + 1.35 = 4.36 → A 4.4 (+0.7).
    later = [tool_score(a, scores(5, 5, 5, 5, 5, 5)), tool_score(b, scores(4, 4, 4, 4, 4, 4))]
    write_capture(tmp_path, "alpha", report("alpha", later, generated_at="2026-07-01T00:00:00.000Z"))
    # Scored again with nothing moved: no change.
    write_capture(tmp_path, "alpha", report("alpha", later, generated_at="2026-08-01T00:00:00.000Z"))
    # beta, coherence 4.0: TDQS 3.0 → 3.0 → 2.1 + 1.2 = 3.3 → B 3.3.
    write_capture(tmp_path, "beta", report("beta", [tool_score(x, scores(3, 3, 3, 3, 3, 3))], coherence=(4, 4, 4, 4),
                                           generated_at="2026-06-15T00:00:00.000Z"))
    # gamma, coherence 3.0: TDQS 2.0 → 2.0 → 1.4 + 0.9 = 2.3 → C 2.3.
    write_capture(tmp_path, "gamma", report("gamma", [tool_score(x, scores(2, 2, 2, 2, 2, 2))], coherence=(3, 3, 3, 3),
                                            generated_at="2026-05-01T00:00:00.000Z"))
    # Then y added at 4.0: mean 3.0, min 2.0 → 1.8 + 0.8 = 2.6 → 1.82 + 0.9 = 2.72 → C 2.7 (+0.4).
    write_capture(tmp_path, "gamma", report("gamma", [tool_score(x, scores(2, 2, 2, 2, 2, 2)),
                                                       tool_score(y, scores(4, 4, 4, 4, 4, 4))],
                                            coherence=(3, 3, 3, 3), generated_at="2026-06-20T00:00:00.000Z"))
    writer, _ = build_in_memory(tmp_path)
    html = writer.text("changes/index.html")
    assert _rows(html) == [
        ("2026-07-01T00:00:00.000Z", "../servers/alpha/", "3.7 → 4.4 (+0.7)",
         "overall A 3.7 → A 4.4 a TDQS 4.0 → 5.0 (+1.0) : " + _moved(4, 5)
         + " b TDQS 3.0 → 4.0 (+1.0) : " + _moved(3, 4) + ", tier B → A"),
        ("2026-06-20T00:00:00.000Z", "../servers/gamma/", "2.3 → 2.7 (+0.4)", "overall C 2.3 → C 2.7 y : tool added"),
        ("2026-06-15T00:00:00.000Z", "../servers/beta/", "3.3", "New: first scored, overall B 3.3"),
        ("2026-06-01T00:00:00.000Z", "../servers/alpha/", "3.7", "New: first scored, overall A 3.7"),
        ("2026-05-01T00:00:00.000Z", "../servers/gamma/", "2.3", "New: first scored, overall C 2.3"),
    ]
    assert "5 changes: 3 new servers and 2 rescores." in Page(html).text
    assert "changes/2/index.html" not in writer.paths and 'class="pager"' not in html
    # The site feed lists the same changes in the same order, and says the same of them.
    feed = ET.fromstring(writer.text("feed.xml"))
    entries = [(e.findtext(f"{ATOM}updated"), e.findtext(f"{ATOM}title")) for e in feed.iter(f"{ATOM}entry")]
    assert [(when, title.split(" (")[0], title.split(": ", 1)[1]) for when, title in entries] == [
        ("2026-07-01T00:00:00.000Z", "alpha", "rescored, overall A 4.4"),
        ("2026-06-20T00:00:00.000Z", "gamma", "rescored, overall C 2.7"),
        ("2026-06-15T00:00:00.000Z", "beta", "first scored, overall B 3.3"),
        ("2026-06-01T00:00:00.000Z", "alpha", "first scored, overall A 3.7"),
        ("2026-05-01T00:00:00.000Z", "gamma", "first scored, overall C 2.3"),
    ]
    # The home page's newest changes are the first of them.
    home = Page(writer.text("index.html")).text
    assert "overall 3.7 → 4.4, 2 tools changed" in home and "new, overall B 3.3" in home


def _moved(before: int, after: int) -> str:
    """Every dimension of a tool moved from `before` to `after`."""
    names = ("Purpose Clarity", "Usage Guidelines", "Behavioral Transparency", "Parameter Semantics",
             "Conciseness & Structure", "Contextual Completeness")
    return ", ".join(f"{name} {before} → {after}" for name in names)


def test_every_change_is_on_a_page_of_fifty(tmp_path: Path) -> None:
    """26 servers, each new on 1–26 January and rescored with one tool better on 1–26 March: 52
    changes, the rescores first (26 March first), then the new servers (26 January first)."""
    for day in range(1, 27):
        server = f"s{day:02d}"
        write_capture(tmp_path, server, report(server, [tool_score(definition("t"), scores(3, 3, 3, 3, 3, 3))],
                                               generated_at=f"2026-01-{day:02d}T00:00:00.000Z"))
        write_capture(tmp_path, server, report(server, [tool_score(definition("t"), scores(4, 3, 3, 3, 3, 3))],
                                               generated_at=f"2026-03-{day:02d}T00:00:00.000Z"))
    expected = ([(f"2026-03-{day:02d}T00:00:00.000Z", f"s{day:02d}") for day in range(26, 0, -1)]
                + [(f"2026-01-{day:02d}T00:00:00.000Z", f"s{day:02d}") for day in range(26, 0, -1)])
    writer, _ = build_in_memory(tmp_path)
    first, second = writer.text("changes/index.html"), writer.text("changes/2/index.html")
    assert "changes/3/index.html" not in writer.paths
    shown = [(when, link.split("/")[-2]) for when, link, _, _ in _rows(first) + _rows(second)]
    assert shown == expected
    assert "52 changes: 26 new servers and 26 rescores; these are 1–50." in Page(first).text
    assert "52 changes: 26 new servers and 26 rescores; these are 51–52." in Page(second).text
    assert 'href="2/" rel="next"' in first and 'href="../" rel="prev"' in second
