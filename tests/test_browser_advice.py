"""A server page's advice as a visitor reads it in Chromium: the tier the tools alone can reach, the
fewest tools for each tier, the shared defect, the coherence actions with the names that break the
pattern (each a link to its tool), and apart what has no effect. The numbers are worked out here
with `fractions`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

import pytest
from browser import chromium, served
from corpus import definition, report, scores, tool_score, write_capture

from builder.build import build
from builder.config import SiteConfig

BASE = "/scorecards/"
WEIGHTS = (25, 20, 20, 15, 10, 10)
GOOD, WEAK, NONE = (5, 5, 3, 3, 5, 5), (2, 1, 1, 1, 2, 1), (1, 1, 1, 1, 1, 1)
WITH_OUTPUT = {"outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
TOOLS = [
    (definition("list_items", "Lists items.", **WITH_OUTPUT), GOOD, ()),
    (definition("get_item", "Gets an item.", **WITH_OUTPUT), GOOD, ()),
    (definition("create_item", "Creates an item."), GOOD, ()),
    (definition("deleteItem", "Deletes an item."), GOOD, ()),
    (definition("item_update", None), NONE, ("No Description",)),
    (definition("archive_item", None), NONE, ("No Description",)),
    (definition("search_items", "Searches."), WEAK, ()),
]
COHERENCE = (4, 2, 3, 4)
"""Disambiguation, naming consistency, tool count, completeness: two below 4."""


def half_up(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def tdqs(dims: tuple[int, ...]) -> Fraction:
    return half_up(Fraction(sum(w * d for w, d in zip(WEIGHTS, dims, strict=True)), 100))


def overall(values: list[Fraction], coherence: tuple[int, ...]) -> Fraction:
    quality = half_up(Fraction(6, 10) * sum(values) / len(values) + Fraction(4, 10) * min(values))
    return half_up(Fraction(7, 10) * quality + Fraction(3, 10) * half_up(Fraction(sum(coherence), 4)))


def one(value: Fraction) -> str:
    return f"{float(value):.1f}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("advice-data")
    scored = [tool_score(defn, scores(*dims), flags=flags) for defn, dims, flags in TOOLS]
    write_capture(data, "shop", report("shop", scored, coherence=COHERENCE), [defn for defn, _, _ in TOOLS])
    out = tmp_path_factory.mktemp("advice-site") / "site"
    build(data, out, SiteConfig(base_url=BASE))
    with served(out, BASE) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as instance:
        yield instance


def test_the_advice_reads_right_in_a_browser(site, browser) -> None:
    values = [tdqs(dims) for _, dims, _ in TOOLS]
    now = overall(values, COHERENCE)
    best = overall([Fraction(5)] * len(values), COHERENCE)
    assert (one(now), one(best)) == ("2.5", "4.5")
    page = browser.new_page()
    page.goto(site + "servers/shop/", wait_until="networkidle")
    reach = page.locator("p.reach").inner_text()
    assert f"can lift the overall tier from C to A: with every tool at 5.0 the overall score would be {one(best)}" in reach

    steps = page.locator("#advice-steps > li")
    kinds = [steps.nth(i).get_attribute("data-step") for i in range(steps.count())]
    texts = [steps.nth(i).inner_text() for i in range(steps.count())]
    assert kinds == ["tools", "tools", "pattern", "coherence", "coherence"], texts
    # The three worst (1.0, 1.0, 1.4) at 3.5 reach A; two reach B; one is not enough for either.
    worst = sorted(values)
    to_a = overall([Fraction(7, 2)] * 3 + worst[3:], COHERENCE)
    to_b = overall([Fraction(7, 2)] * 2 + worst[2:], COHERENCE)
    assert (one(to_a), one(to_b), one(overall([Fraction(7, 2), *worst[1:]], COHERENCE))) == ("3.7", "3.0", "2.7")
    assert texts[0].startswith(f"Fix the 3 worst tools → overall {one(to_a)} (tier A).")
    assert texts[1].startswith(f"Fix the 2 worst tools → overall {one(to_b)} (tier B).")
    assert "fewer tools at 3.5 would not reach tier B" in texts[1]
    # Writing the two missing descriptions: each at 3 on every dimension.
    described = [*values[:4], tdqs((3,) * 6), tdqs((3,) * 6), values[6]]
    assert texts[2].startswith("2 of 7 tools have no description.")
    assert f"the overall score from {one(now)} to {one(overall(described, COHERENCE))}" in texts[2]
    # Naming 2 → 4 and tool count 3 → 4.
    naming = overall(values, (4, 4, 3, 4))
    count = overall(values, (4, 2, 4, 4))
    assert texts[3].startswith("Naming Consistency is 2 of 5")
    assert f"Raising it to 4 would move coherence from 3.3 to 3.8 and the overall score from {one(now)} to {one(naming)}" \
        in texts[3]
    assert texts[4].startswith("Tool Count Appropriateness is 3 of 5") and "The server has 7 tools." in texts[4]
    assert f"the overall score from {one(now)} to {one(count)}" in texts[4]
    gains = [Fraction(b) - Fraction(a) for a, b in (re.search(r"the overall score from (\d\.\d) to (\d\.\d)", t).groups()
                                                   for t in texts)]
    assert all(g > 0 for g in gains) and gains == sorted(gains, reverse=True), gains

    # What moves nothing is said apart, with the score it leaves.
    assert page.get_by_text("No effect on the overall score on its own:").count() == 1
    apart = page.locator("#advice-no-effect > li").all_inner_texts()
    assert len(apart) == 2 and all(f"would leave the overall score at {one(now)}" in t for t in apart), apart

    # The names that break the pattern are links to their tools.
    offenders = page.locator("#advice-steps li[data-step=coherence] .offenders a")
    assert offenders.all_inner_texts() == ["deleteItem", "item_update"]
    assert "deleteItem (camelCase), item_update (verb last)" in texts[3]
    offenders.first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").inner_text() == "deleteItem"
    assert page.locator("h2", has_text="Improvement checklist").count() == 1
    page.close()
