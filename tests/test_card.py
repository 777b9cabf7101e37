"""The embeddable card (issue 48): its figures are the server's, computed here by hand with exact
fractions; its text is XML-escaped and shown literally whatever the name, owner or repository
(every string of the Big List of Naughty Strings); the same data gives the same bytes; the server
page gives its Markdown and HTML snippets next to the badge."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file
from site_helpers import Page, build_in_memory

from builder.config import SiteConfig

SVG = "{http://www.w3.org/2000/svg}"
WEIGHTS = {"purpose_clarity": 25, "usage_guidelines": 20, "behavioral_transparency": 20,
           "parameter_semantics": 15, "conciseness_structure": 10, "contextual_completeness": 10}
TIERS = ((Fraction("3.5"), "A"), (Fraction(3), "B"), (Fraction(2), "C"), (Fraction(1), "D"))
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What XML 1.0 cannot hold: the card shows U+FFFD in its place."""


def half_up(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def tier(value: Fraction) -> str:
    return next((letter for bound, letter in TIERS if value >= bound), "F")


def tdqs(dims: dict[str, int]) -> Fraction:
    return half_up(sum(Fraction(WEIGHTS[k] * v, 100) for k, v in dims.items()))


def texts(svg: bytes) -> list[str]:
    """Every <text>'s content in document order."""
    root = ET.fromstring(svg)
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def title(svg: bytes) -> str:
    node = ET.fromstring(svg).find(f"{SVG}title")
    assert node is not None
    return node.text or ""


DIMS = [scores(5, 4, 4, 3, 4, 4), scores(3, 2, 2, 3, 3, 2), scores(4, 3, 3, 3, 4, 3), scores(2, 2, 2, 2, 2, 2)]
COHERENCE = (3, 4, 3, 3)


def hand_made(data: Path, server_id: str, dims: list[dict[str, int]], tool_count: int, *, model: str | None) -> None:
    tools = [tool_score(definition(f"tool_{i}"), d) for i, d in enumerate(dims)]
    write_capture(data, server_id, report(server_id, tools, coherence=COHERENCE, tool_count=tool_count, model=model,
                                          generated_at="2026-06-01T09:30:00.000Z"))
    meta = {"displayName": "Hand Made <Server> & Co", "repositoryUrl": f"https://github.com/jdoe/{server_id}"}
    (data / "servers" / server_id / "server.json").write_text(json.dumps(meta), encoding="utf-8")


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    data = tmp_path_factory.mktemp("card-data")
    hand_made(data, "hand", DIMS, 5, model="stand-in/test")  # 4 of 5 scored: 80%, published
    hand_made(data, "real", DIMS, 5, model="a-real-model")
    hand_made(data, "partial", DIMS[:3], 5, model="a-real-model")  # 3 of 5: 60%, not published
    writer, _ = build_in_memory(data, SiteConfig(site_url="https://example.github.io", base_url="/scorecards/"))
    again, _ = build_in_memory(data, SiteConfig(site_url="https://example.github.io", base_url="/scorecards/"))
    found = {}
    for server in ("hand", "real", "partial"):
        path = f"servers/{server}/card.svg"
        assert again.files[path] == writer.files[path], "the same data must give the same bytes"
        found[server] = writer.files[path] if isinstance(writer.files[path], bytes) else writer.files[path].encode()
        found[f"{server}/index.html"] = writer.text(f"servers/{server}/index.html").encode()
    return found


def test_the_figures_on_the_card_are_those_computed_by_hand(cards) -> None:
    each = [tdqs(d) for d in DIMS]
    assert each == [Fraction("4.1"), Fraction("2.5"), Fraction("3.4"), Fraction(2)]
    mean, low = sum(each) / len(each), min(each)
    description = half_up(Fraction(6, 10) * mean + Fraction(4, 10) * low)
    coherence = half_up(Fraction(sum(COHERENCE), len(COHERENCE)))
    overall = half_up(Fraction(7, 10) * description + Fraction(3, 10) * coherence)
    assert (description, coherence, overall) == (Fraction("2.6"), Fraction("3.3"), Fraction("2.8"))

    def shown(value: Fraction) -> str:
        return f"{tier(value)} {float(value):.1f}"

    svg = cards["hand"]
    assert texts(svg) == [
        "TDQS", "stand-in", tier(overall), f"{float(overall):.1f}",
        "Hand Made <Server> & Co", "jdoe/hand",
        "Tool definitions", shown(description), "Coherence", shown(coherence), "Tools scored", "4 of 5",
        f"Overall {shown(overall)} · scored 1 Jun 2026",
    ]
    assert title(svg) == (f"TDQS (stand-in) scorecard of Hand Made <Server> & Co (jdoe/hand): overall "
                          f"{shown(overall)}, tool definitions {shown(description)}, coherence {shown(coherence)}, "
                          "tools scored 4 of 5; scored 1 Jun 2026")
    # The chip is the overall tier's colour (C), as on the site's tier chips.
    root = ET.fromstring(svg)
    assert [r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("fill")] == ["#9a6700"]
    assert b"&lt;Server&gt; &amp; Co" in svg
    # A real model's card does not say stand-in.
    assert "stand-in" not in texts(cards["real"]) and "stand-in" not in title(cards["real"])


def test_below_the_coverage_rule_the_card_says_not_published(cards) -> None:
    each = [tdqs(d) for d in DIMS[:3]]
    coherence = half_up(Fraction(sum(COHERENCE), len(COHERENCE)))
    assert 3 * 100 < 80 * 5 and each  # 3 of 5 tools is below 80%
    assert texts(cards["partial"]) == [
        "TDQS", "–", "Hand Made <Server> & Co", "jdoe/partial",
        "Tool definitions", "not published", "Coherence", f"{tier(coherence)} {float(coherence):.1f}",
        "Tools scored", "3 of 5", "Not published: coverage below 80% · scored 1 Jun 2026",
    ]
    root = ET.fromstring(cards["partial"])
    assert [r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("fill")] == ["#6e7781"]  # no tier's colour


def test_the_card_is_declared_titled_and_small(cards) -> None:
    for server in ("hand", "real", "partial"):
        svg = cards[server]
        root = ET.fromstring(svg)
        assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("500", "140", "0 0 500 140")
        assert root.get("role") == "img"
        label = root.get("aria-labelledby")
        assert label and root.find(f"{SVG}title[@id='{label}']") is not None
        assert len(svg) < 3000, len(svg)
        assert b"prefers-color-scheme:dark" in svg


def test_the_server_page_gives_the_card_and_its_snippets(cards) -> None:
    html = cards["hand/index.html"].decode()
    page = Page(html)
    images = [attrs for tag, attrs in page.tags if tag == "img" and "card" in (attrs.get("class") or "")]
    assert len(images) == 1
    assert images[0]["src"] == "card.svg" and (images[0]["width"], images[0]["height"]) == ("500", "140")
    site = "https://example.github.io/scorecards/"
    alt = "TDQS (stand-in) scorecard of Hand Made <Server> & Co"
    assert images[0]["alt"] == alt
    markdown = f"[![{alt}]({site}servers/hand/card.svg)]({site}servers/hand/)"
    snippet = (f'<a href="{site}servers/hand/"><img src="{site}servers/hand/card.svg" width="500" height="140" '
               'alt="TDQS (stand-in) scorecard of Hand Made &lt;Server&gt; &amp; Co"></a>')
    assert markdown in page.text and snippet in page.text
    # Next to the badge: the card's section follows the badge's.
    assert html.index('id="h-badge"') < html.index('id="h-card"')


def test_without_a_site_url_the_snippets_use_the_base_path(tmp_path: Path) -> None:
    hand_made(tmp_path, "hand", DIMS, 4, model=None)
    writer, _ = build_in_memory(tmp_path)
    text = Page(writer.text("servers/hand/index.html")).text
    assert "[![TDQS scorecard of Hand Made <Server> & Co](/servers/hand/card.svg)](/servers/hand/)" in text


# ---- naughty strings ---------------------------------------------------------------------------------


def naughty() -> list[str]:
    return json.loads(shared_file("bad-input/naughty-strings.json").read_text(encoding="utf-8"))


def _path_safe(text: str) -> bool:
    """A string that can stand as an owner or repository in a URL and come back as itself."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(text.strip()) and not text.endswith(".git")


def literal(shown: str, full: str) -> bool:
    """`shown` is `full` (as XML can hold it), or its start followed by an ellipsis."""
    full = NOT_XML.sub("\ufffd", full)
    return shown == full or (shown.endswith("…") and full.startswith(shown[:-1]))


def test_a_card_of_naughty_strings_is_well_formed_and_shows_them_literally(tmp_path: Path) -> None:
    strings = naughty()
    names = [s[:300] for s in strings if s.strip()]
    parts = [s[:100] for s in strings if _path_safe(s[:100])]
    count = max(len(names), len(parts))
    data = tmp_path / "data"
    servers = {}
    for i in range(count):
        server_id = f"n{i:03d}"
        name, owner, repo = names[i % len(names)], parts[i % len(parts)], parts[(i * 7 + 3) % len(parts)]
        write_capture(data, server_id, report(server_id, [tool_score(definition("t"), scores(4, 3, 3, 3, 4, 3))]))
        meta = {"displayName": name,
                "repositoryUrl": f"https://github.com/{quote(owner, safe='')}/{quote(repo, safe='')}"}
        (data / "servers" / server_id / "server.json").write_text(json.dumps(meta), encoding="utf-8")
        servers[server_id] = (name, owner, repo)
    writer, _ = build_in_memory(data)
    assert {n for n, _, _ in servers.values()} == set(names)
    for server_id, (name, owner, repo) in servers.items():
        svg = writer.files[f"servers/{server_id}/card.svg"]
        raw = svg if isinstance(svg, bytes) else svg.encode("utf-8")
        root = ET.fromstring(raw)  # well-formed XML, whatever the strings
        assert root.tag == f"{SVG}svg"
        who = f"{owner}/{repo}"
        lines = {node.get("clip-path"): "".join(node.itertext()) for node in root.iter(f"{SVG}text")}
        name_line, who_line = lines["url(#card-name)"], lines["url(#card-who)"]
        assert literal(name_line, name), (server_id, name, name_line)
        assert literal(who_line, who) or literal(who_line, f"{who} · {server_id}"), (server_id, who, who_line)
        whole = title(raw)
        assert NOT_XML.sub("\ufffd", name) in whole and NOT_XML.sub("\ufffd", who) in whole, server_id
        # Nothing from the data became markup: the only elements are the card's own.
        assert {node.tag.removeprefix(SVG) for node in root.iter()} <= {"svg", "title", "style", "clipPath", "rect",
                                                                        "g", "text"}


def test_a_carriage_return_stays_one_and_what_xml_cannot_hold_shows_as_a_replacement() -> None:
    from builder.publish.cards import Card

    card = Card(system="TDQS", name="a\rb\x01c\ud800", identity="o\r\n/r", tier="A", score="4.0", figures=(),
                scored="1 Jun 2026")
    root = ET.fromstring(card.svg().encode("utf-8", "strict"))
    lines = {node.get("clip-path"): "".join(node.itertext()) for node in root.iter(f"{SVG}text")}
    assert lines["url(#card-name)"] == "a\rb\ufffdc\ufffd" and lines["url(#card-who)"] == "o\r\n/r"


# ---- CLEO: a session's card ------------------------------------------------------------------------

CLEO_KEYS = ("sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")
CLEO_SCALE = ((Fraction(90, 100), "A"), (Fraction(75, 100), "B"), (Fraction(60, 100), "C"), (Fraction(45, 100), "D"))
"""CLEO's grade specification's scale, the site's default."""


def session_row(session_id: str, dims: tuple[int, ...], *, entries: int, evaluator: str | None = "cleo-grader",
                task: str | None = "T42", when: str = "2026-05-04T10:00:00Z") -> str:
    dimensions = {key: {"score": value, "max": 20, "evidence": []} for key, value in zip(CLEO_KEYS, dims, strict=True)}
    row = {"sessionId": session_id, "totalScore": sum(dims), "maxScore": 100, "dimensions": dimensions, "flags": [],
           "timestamp": when, "entryCount": entries}
    if task:
        row["taskId"] = task
    if evaluator:
        row["evaluator"] = evaluator
    return json.dumps(row)


def test_a_cleo_session_card_shows_its_grade_computed_by_hand(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir(parents=True)
    graded = (17, 15, 20, 12, 14)
    rows = [
        session_row("s-one", (5, 5, 5, 5, 5), entries=3, when="2026-05-01T10:00:00Z"),
        session_row("s-one", graded, entries=41),  # the newer run is the current one
        session_row("s-none", (0, 0, 0, 0, 0), entries=0, evaluator=None, task=None),
        session_row("s-demo", graded, entries=7, evaluator="synthetic-demo"),
    ]
    (sessions / "grades.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    writer, _ = build_in_memory(tmp_path, SiteConfig(site_url="https://example.github.io"))
    share = Fraction(sum(graded), 100)
    letter = next((grade for bound, grade in CLEO_SCALE if share >= bound), "F")
    assert (share, letter) == (Fraction(78, 100), "B")
    one = writer.files["sessions/s-one/card.svg"]
    one = one if isinstance(one, bytes) else one.encode()
    assert texts(one) == [
        "CLEO", letter, f"{float(share * 100):.1f}%", "s-one", "task T42 · evaluator cleo-grader",
        "Score", f"{sum(graded)} of 100", "Audit entries", "41", "Runs", "2",
        f"Overall {letter} {float(share * 100):.1f}% · graded 4 May 2026",
    ]
    none = writer.files["sessions/s-none/card.svg"]
    none = none if isinstance(none, bytes) else none.encode()
    assert texts(none) == ["CLEO", "–", "s-none", "an agent session graded by CLEO", "Score", "—", "Audit entries",
                           "0", "Runs", "1", "Not gradable: no audit entries · graded 4 May 2026"]
    demo = writer.files["sessions/s-demo/card.svg"]
    assert "synthetic" in texts(demo if isinstance(demo, bytes) else demo.encode())
    page = Page(writer.text("sessions/s-one/index.html"))
    assert ("[![CLEO scorecard of session s-one](https://example.github.io/sessions/s-one/card.svg)]"
            "(https://example.github.io/sessions/s-one/)") in page.text
    assert "[![CLEO (synthetic) scorecard of session s-demo]" in Page(writer.text("sessions/s-demo/index.html")).text


def test_a_cleo_card_of_naughty_session_ids_is_well_formed_and_shows_them_literally(tmp_path: Path) -> None:
    strings = [s for s in naughty() if s.strip()]
    sessions = tmp_path / "sessions"
    sessions.mkdir(parents=True)
    rows = [session_row(s, (10, 10, 10, 10, 10), entries=5, task=s[::-1] or None, evaluator=s) for s in strings]
    (sessions / "naughty.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    writer, _ = build_in_memory(tmp_path)
    shown = []
    for path, data in writer.files.items():
        if path.startswith("sessions/") and path.endswith("/card.svg"):
            raw = data if isinstance(data, bytes) else data.encode()
            root = ET.fromstring(raw)  # well-formed XML, whatever the id
            assert {node.tag.removeprefix(SVG) for node in root.iter()} <= {"svg", "title", "style", "clipPath", "rect",
                                                                            "g", "text"}
            lines = {node.get("clip-path"): "".join(node.itertext()) for node in root.iter(f"{SVG}text")}
            shown.append((title(raw), lines["url(#card-name)"]))
    missing = [s for s in strings
               if not any(whole.startswith(f"CLEO scorecard of {NOT_XML.sub(chr(0xFFFD), s)} (") and literal(line, s)
                          for whole, line in shown)]
    assert len(shown) == len(set(strings))  # a card per session; the list repeats a few strings
    assert not missing, missing


# ---- FlowMCP: a namespace's card -------------------------------------------------------------------

DATA = Path(__file__).resolve().parents[1] / "data"


def test_a_flowmcp_namespace_card_counts_its_tree(tmp_path: Path) -> None:
    """data/'s acme-weather: its tools and schemas counted here from its folders, its date from its
    index.json, its grade the one its page shows."""
    import shutil

    shutil.copytree(DATA / "grading-data", tmp_path / "grading-data")
    writer, _ = build_in_memory(tmp_path, SiteConfig(site_url="https://example.github.io"))
    tree = tmp_path / "grading-data" / "providers" / "acme-weather"
    tools = sorted(p for p in tree.glob("*/tools/*") if p.is_dir())
    schemas = sorted({p.parent.parent for p in tools})
    assert (len(tools), len(schemas)) == (2, 1)
    index = json.loads((tree / "index.json").read_text(encoding="utf-8"))
    assert index["updatedAt"].startswith("2026-05-19")
    page = Page(writer.text("providers/acme-weather/index.html"))
    assert "Grade C" in page.text and "Rollup status partial" in page.text
    svg = writer.files["providers/acme-weather/card.svg"]
    shown = texts(svg if isinstance(svg, bytes) else svg.encode())
    # Its grades are a stand-in's (the page says "Stand-in scores"): the chip says so.
    assert "Stand-in scores" in page.text
    stable = shown[shown.index("Tools stable") + 1]
    assert shown == ["FlowMCP", "stand-in", "C", "acme-weather", "namespace", "Status", "partial", "Tools stable",
                     stable, "Schemas", str(len(schemas)), "Overall C · updated 19 May 2026"]
    assert stable.endswith(f" of {len(tools)}")
    assert ("[![FlowMCP (stand-in) scorecard of namespace acme-weather](https://example.github.io/providers/"
            "acme-weather/card.svg)](https://example.github.io/providers/acme-weather/)") in page.text
    # A rejected namespace has no letter on its card, and says so.
    rejected = writer.files["providers/example-payments/card.svg"]
    rejected_text = texts(rejected if isinstance(rejected, bytes) else rejected.encode())
    assert "–" in rejected_text and rejected_text[-1] == "Rejected"
    assert "card" not in json.loads(writer.text("api/flowmcp/providers/acme-weather.json"))  # the API is unchanged
