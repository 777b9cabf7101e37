"""The card in a real Chromium (issue 48), of TDQS servers, CLEO sessions and FlowMCP namespaces: an <img> of it has its
declared size and follows light and dark; drawn on its own, every line of text lies inside the card and clear of every other line, long
names included (the widest Latin letters, CJK, emoji), with WCAG AA contrast against what is behind
it, computed here by the WCAG formula from the colours Chromium computed."""

from __future__ import annotations

import itertools
import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from browser import OUTPUT, chromium, served
from corpus import definition, report, scores, tool_score, write_capture

from builder.build import build
from builder.config import SiteConfig

ROOT = Path(__file__).resolve().parents[1]
BASE = "/cards/"
SCHEMES = {"light": (255, 255, 255), "dark": (13, 17, 23)}
"""The colour scheme Chromium is told the system has → GitHub's README background in it."""
LONG = {
    "wide": ("W" * 300, "M" * 100, "m" * 100),
    "cjk": ("漢字" * 150, "日本" * 50, "語" * 100),
    "emoji": ("👩\u200d👩\u200d👧\u200d👦🏳\ufe0f\u200d🌈" * 27, "😀" * 100, "e\u0301" * 100),
    "mixed": ("@%#&" * 75, "iIl1" * 25, "Zz9_" * 25),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[str]]]:
    data, out = tmp_path_factory.mktemp("card-data"), tmp_path_factory.mktemp("card-site") / "site"
    tools = [tool_score(definition(f"t{i}"), scores(4, 3, 3, 3, 4, 3)) for i in range(4)]
    write_capture(data, "plain", report("plain", tools))
    write_capture(data, "partial", report("partial", tools[:2], tool_count=4))  # 50%: not published
    for server_id, (name, owner, repo) in LONG.items():
        # Half of them below the coverage rule, with a long count of tools ("4 of 1234").
        write_capture(data, server_id, report(server_id, tools, tool_count=1234 if server_id in ("cjk", "mixed") else 4))
        meta = {"displayName": name, "repositoryUrl": f"https://github.com/{quote(owner)}/{quote(repo)}"}
        (data / "servers" / server_id / "server.json").write_text(json.dumps(meta), encoding="utf-8")
    # CLEO sessions: a long id, graded; one with no audit entries, not gradable.
    dimensions = {key: {"score": 15, "max": 20, "evidence": []} for key in
                  ("sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")}
    rows = [{"sessionId": "W" * 200, "taskId": "M" * 80, "evaluator": "m" * 80, "totalScore": 75, "maxScore": 100,
             "dimensions": dimensions, "flags": [], "timestamp": "2026-05-04T10:00:00Z", "entryCount": 12345},
            {"sessionId": "quiet", "totalScore": 0, "maxScore": 100, "flags": [], "timestamp": "2026-05-04T10:00:00Z",
             "entryCount": 0, "dimensions": {k: {**v, "score": 0} for k, v in dimensions.items()}}]
    (data / "sessions").mkdir()
    (data / "sessions" / "grades.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    # FlowMCP namespaces: data/'s (graded, rejected, pending).
    shutil.copytree(ROOT / "data" / "grading-data", data / "grading-data")
    build(data, out, SiteConfig(base_url=BASE), search=False)
    sessions = sorted(p.parent.relative_to(out).as_posix() for p in (out / "sessions").glob("*/card.svg"))
    providers = sorted(p.parent.relative_to(out).as_posix() for p in (out / "providers").glob("*/card.svg"))
    assert len(sessions) == 2 and len(providers) == 3
    with served(out, BASE) as url:
        yield url, out, [f"servers/{s}" for s in ("plain", "partial", *LONG)] + sessions + providers


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def declared(out: Path, folder: str) -> tuple[int, int]:
    root = ET.fromstring((out / folder / "card.svg").read_bytes())
    return int(root.get("width") or 0), int(root.get("height") or 0)


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    assert css.startswith("rgb(") and css.endswith(")"), css
    r, g, b = (int(part) for part in css[4:-1].split(","))
    return r, g, b


IN_IMG = """async (src) => {
  const img = document.createElement("img");
  img.src = src;
  document.body.append(img);
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(img, 0, 0);
  const [r, g, b] = context.getImageData(6, img.naturalHeight / 2, 1, 1).data;
  return {width: img.naturalWidth, height: img.naturalHeight, shown: [img.width, img.height], background: [r, g, b]};
}"""

DRAWN = """() => {
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.width, b.height]; };
  const rects = [...document.querySelectorAll("rect")].filter((r) => !r.closest("clipPath"))
    .map((r) => ({box: box(r), fill: getComputedStyle(r).fill}));
  const texts = [...document.querySelectorAll("text")]
    .map((t) => ({text: t.textContent, box: box(t), fill: getComputedStyle(t).fill}));
  return {rects, texts};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_an_img_of_the_card_has_its_declared_size_and_follows_the_scheme(site, browser, scheme: str) -> None:
    base, out, servers = site
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for server in servers:
        page.goto(f"{base}{server}/", wait_until="networkidle")
        shown = page.evaluate("() => { const i = document.querySelector('img.card');"
                              " return [i.complete, i.naturalWidth, i.naturalHeight, i.getAttribute('src')]; }")
        assert shown == [True, *declared(out, server), "card.svg"], server
        if server.startswith("servers/"):
            name = LONG.get(server.removeprefix("servers/"), (server.removeprefix("servers/"),))[0]
            assert page.locator("h1").inner_text().startswith(name), server  # the server's own name, not a fallback
        drawn = page.evaluate(IN_IMG, f"{base}{server}/card.svg")
        assert (drawn["width"], drawn["height"]) == declared(out, server)
        assert drawn["shown"] == list(declared(out, server))
        # The card brings its own background, the one of the scheme the browser says the system has.
        assert tuple(drawn["background"]) == SCHEMES[scheme], (server, drawn["background"])
    context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_line_fits_the_card_clear_of_the_others_and_legible(site, browser, scheme: str) -> None:
    base, out, servers = site
    shots = OUTPUT / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(color_scheme=scheme, viewport={"width": 600, "height": 200})
    page = context.new_page()
    failures: list[str] = []
    for server in servers:
        width, height = declared(out, server)
        page.goto(f"{base}{server}/card.svg", wait_until="load")
        name = server.replace("/", "-")[:40]
        page.screenshot(path=str(shots / f"card-{name}-{scheme}.png"), clip={"x": 0, "y": 0, "width": width,
                                                                            "height": height})
        drawn = page.evaluate(DRAWN)
        texts = drawn["texts"]
        assert len(texts) >= 10, (server, texts)
        for t in texts:
            x, y, w, h = t["box"]
            if not (w > 0 and x >= 1 and y >= 1 and x + w <= width - 1 and y + h <= height - 1):
                failures.append(f"{server}: {t['text'][:30]!r} at {t['box']} leaves the {width}×{height} card")
            # What is behind the text: the last-painted rectangle holding its centre.
            cx, cy = x + w / 2, y + h / 2
            behind = [r for r in drawn["rects"]
                      if r["box"][0] <= cx <= r["box"][0] + r["box"][2] and r["box"][1] <= cy <= r["box"][1] + r["box"][3]]
            assert behind, (server, t)
            ratio = contrast(rgb(t["fill"]), rgb(behind[-1]["fill"]))
            if ratio < 4.5:
                failures.append(f"{server}: {t['text'][:30]!r} {t['fill']} on {behind[-1]['fill']}: {ratio:.2f}:1")
        for a, b in itertools.combinations(texts, 2):
            (ax, ay, aw, ah), (bx, by, bw, bh) = a["box"], b["box"]
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                failures.append(f"{server}: {a['text'][:30]!r} {a['box']} overlaps {b['text'][:30]!r} {b['box']}")
    context.close()
    assert not failures, "\n".join(failures)
