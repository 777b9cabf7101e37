"""Issue 45 slimmed the tool pages: what a maintainer reads there must all still be there, in a real browser.

Over a generated registry, every tool page of its newest captures carries: its checklist, each priced step with
the TDQS it leads to (recomputed here with `fractions` from the capture's own scores: the step's dimension raised,
Σ weight × score rounded half-up to one decimal); each dimension's score and justification as the capture states
them; the definition's description and parameters, and the raw input schema, which parses back to the tools/list's
own; at most six other tools. What moved off the page is one click away and there: the rubric's questions (tdqs's
own metadata) behind the dimension table's link, and "where each figure comes from" behind the provenance line.
Expected values come from the corpus's files and the tdqs package, never from the builder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from browser import chromium, served
from tdqs import TOOL_DIMENSIONS

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

CAMEL = {d.key: re.sub(r"_(\w)", lambda m: m.group(1).upper(), d.key) for d in TOOL_DIMENSIONS}
STEP = re.compile(r"\((?P<dimension>[A-Z][\w &]+) (?P<now>\d) → (?P<target>\d)\)")
GAIN = re.compile(r"^\+(?P<gain>\d\.\d\d): TDQS (?P<before>\d\.\d) → (?P<after>\d\.\d)")


def _exact_round1(value: Fraction) -> Fraction:
    """Half-up to one decimal, exactly."""
    tenths = value * 10
    whole = tenths.numerator // tenths.denominator
    return Fraction(whole + (1 if tenths - whole >= Fraction(1, 2) else 0), 10)


def _tdqs(scores: dict[str, int]) -> Fraction:
    """Σ weight × score, the weights being whole percentages, rounded half-up to one decimal."""
    return _exact_round1(sum((Fraction(d.weight, 100) * scores[d.key] for d in TOOL_DIMENSIONS), Fraction(0)))


def _newest(folder: Path, suffix: str) -> Path | None:
    files = sorted(folder.glob(f"*{suffix}"))
    return files[-1] if files else None


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    root = tmp_path_factory.mktemp("tool-pages")
    data, out = root / "data", root / "site"
    generate_demo(data, servers=6, tools=60, seed=11, history_share=0.3, workers=1)
    build(data, out, SiteConfig(), search=False)
    with served(out) as url:
        yield url, data, out


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def _expected_tools(data: Path) -> dict[tuple[str, str], tuple[dict, dict | None]]:
    """(server id, tool name) → (its score in the newest capture, its definition in the newest tools/list)."""
    found = {}
    for folder in sorted((data / "servers").iterdir()):
        score = _newest(folder, ".score.json")
        if score is None:
            continue
        tools = _newest(folder, ".tools.json")
        definitions = {t["name"]: t for t in json.loads(tools.read_text())["tools"]} if tools else {}
        for tool in json.loads(score.read_text())["tools"]:
            found[(folder.name, tool["name"])] = (tool, definitions.get(tool["name"]))
    return found


def test_every_tool_page_keeps_its_checklist_scores_definition_and_schema(registry, browser) -> None:
    url, data, out = registry
    expected = _expected_tools(data)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    checked = priced_steps = 0
    for index in sorted(out.glob("servers/*/tools/*/index.html")):
        server, slug = index.parts[-4], index.parts[-2]
        page.goto(f"{url}servers/{server}/tools/{slug}/")
        name = page.locator("h1 code").inner_text()
        if (server, name) not in expected:
            continue  # a tool of an older capture, or one not scored yet
        score, definition = expected[(server, name)]
        checked += 1
        scores = {d.key: score["scores"][CAMEL[d.key]] for d in TOOL_DIMENSIONS}
        before = _tdqs(scores)
        # The checklist: each priced step leads to the TDQS the rubric's arithmetic gives.
        items = page.locator("ol.checklist > li")
        if min(scores.values()) < 5:
            assert items.count() + page.locator("ul.checklist > li").count() >= 1, (server, name)
        for i in range(items.count()):
            text = items.nth(i).inner_text()
            gain = GAIN.match(items.nth(i).locator("strong.gain").inner_text())
            assert gain, text
            assert Fraction(gain["before"]) == before, (server, name, text)
            step = STEP.search(text)
            if step is None:
                continue  # the parameter step, priced to a baseline it states ("assuming …")
            dimension = next(d for d in TOOL_DIMENSIONS if d.name == step["dimension"])
            assert scores[dimension.key] == int(step["now"])
            raised = {**scores, dimension.key: int(step["target"])}
            assert Fraction(gain["after"]) == _tdqs(raised), (server, name, text)
            exact = Fraction(dimension.weight, 100) * (int(step["target"]) - int(step["now"]))
            assert Fraction(gain["gain"]) == exact, (server, name, text)
            priced_steps += 1
        # Each dimension's score and justification, as the capture states them.
        rows = page.locator("h2:text('Dimensions') + table tbody tr")
        assert rows.count() == len(TOOL_DIMENSIONS)
        for i, d in enumerate(TOOL_DIMENSIONS):
            cells = rows.nth(i).locator("td")
            assert cells.nth(0).inner_text().startswith(d.name)
            assert cells.nth(1).inner_text().split()[0] == str(score["justifications"][CAMEL[d.key]]["score"])
            assert score["justifications"][CAMEL[d.key]]["justification"] in cells.nth(2).inner_text()
        # The definition and the raw schema, which parses back to the tools/list's own.
        if definition is not None:
            words = re.sub(r"\W+", " ", definition.get("description") or "").split()[:4]
            quote = re.sub(r"\W+", " ", page.locator("h2:text('Definition') ~ blockquote").first.inner_text())
            assert " ".join(words) in quote, (server, name)
            params = page.locator("ul.params > li > code:first-child").all_inner_texts()
            assert params == list(definition["inputSchema"].get("properties") or {})
            schema = page.locator("details.schema pre code").text_content()
            assert json.loads(schema) == definition["inputSchema"]
        assert page.locator("ul.other-tools > li").count() <= 6
    assert checked >= 40 and priced_steps >= 40, (checked, priced_steps)

    # One click away: the rubric's questions, from tdqs's metadata, and where each figure comes from.
    page.locator("h2:text('Dimensions') + table thead a").click()
    page.wait_for_load_state()
    assert page.url.endswith("rubric/#tool-dimensions")
    table = page.locator("#tool-dimensions + table").inner_text()
    for d in TOOL_DIMENSIONS:
        assert d.question in table
    page.go_back()
    page.locator("p.provenance a").click()
    page.wait_for_load_state()
    assert page.url.endswith("rubric/#where-each-figure-comes-from")
    assert "recomputed by this site" in page.locator("#where-each-figure-comes-from + p").inner_text()
