"""Every claim of every server page's advice in a demo corpus, checked against the rules worked out
here with `fractions`: the tools' TDQS values and dimension scores and the coherence scores are read
from the server's published JSON, the advice from its HTML, and each projection is recomputed by
hand (description quality = round1(0.6 × mean + 0.4 × min), overall = round1(0.7 × description
quality + 0.3 × coherence), half up), never with the builder's or tdqs's arithmetic. Only the
rubric's published constants (dimension names and weights, tier minima) come from tdqs.

What is checked on each server:
- the tier the tools alone can reach: every tool at 5.0;
- each "fix the N worst tools" step: N is the fewest at its level (3.5 where that can reach the
  tier, else 5.0), by a search of every set of N − 1 tools where that is small, and the named tools
  are the worst; every tier between the current one and the reachable one is covered;
- each shared-defect step: its projection, from the named tools' dimension scores;
- each coherence dimension below 4 has an action, projected at 4, or at 5 where 4 gains nothing;
- every step raises the overall score, biggest gain first; what is said to have no effect has none;
  no "from X to X" anywhere.
"""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser
from itertools import combinations
from math import comb
from typing import Any

import pytest
from site_helpers import api, build_in_memory
from tdqs import COHERENCE_DIMENSIONS, TIERS, TOOL_DIMENSIONS

from scorecards_demo.generate import generate_demo

WEIGHTS = {d.key: d.weight for d in TOOL_DIMENSIONS}
DIMENSION_KEYS = {d.name: d.key for d in TOOL_DIMENSIONS}
COHERENCE_KEYS = {d.name: d.key for d in COHERENCE_DIMENSIONS}
MINIMA = [(Fraction(str(t.minimum)), t.tier) for t in TIERS if t.minimum is not None]
TIER_A = Fraction(7, 2)
SEARCH_LIMIT = 4000
"""Sets of tools tried one by one to show that fewer tools do not reach a tier."""


def half_up(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def tier(value: Fraction) -> str:
    return next((letter for minimum, letter in MINIMA if value >= minimum), "F")


def quality(tdqs: list[Fraction]) -> Fraction:
    return half_up(Fraction(6, 10) * sum(tdqs) / len(tdqs) + Fraction(4, 10) * min(tdqs))


def coherence(scores: dict[str, int]) -> Fraction:
    return half_up(Fraction(sum(scores.values()), 4))


def overall(tdqs: list[Fraction], scores: dict[str, int]) -> Fraction:
    return half_up(Fraction(7, 10) * quality(tdqs) + Fraction(3, 10) * coherence(scores))


def tool_tdqs(scores: dict[str, int]) -> Fraction:
    return half_up(Fraction(sum(WEIGHTS[key] * value for key, value in scores.items()), 100))


class Advice(HTMLParser):
    """The text of each advice item (`li[data-step]`) and of the reach paragraph."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, str, str]] = []
        """(list id, kind, text)."""
        self.reach = ""
        self._list = ""
        self._item: tuple[str, list[str]] | None = None
        self._in_reach = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag in ("ol", "ul") and (attributes.get("id") or "").startswith("advice-"):
            self._list = attributes["id"] or ""
        elif tag == "li" and self._list and "data-step" in attributes:
            self._item = (attributes["data-step"] or "", [])
        elif tag == "p" and attributes.get("class") == "reach":
            self._in_reach = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._item is not None:
            self.items.append((self._list, self._item[0], " ".join(" ".join(self._item[1]).split())))
            self._item = None
        elif tag in ("ol", "ul") and self._item is None:
            self._list = ""
        elif tag == "p":
            self._in_reach = False

    def handle_data(self, data: str) -> None:
        if self._item is not None:
            self._item[1].append(data)
        if self._in_reach:
            self.reach += data


def number(text: str) -> Fraction:
    return Fraction(text)


def one(value: Fraction) -> str:
    """A score as pages print it: one decimal (every value here is a whole number of tenths)."""
    assert value * 10 == int(value * 10)
    return f"{float(value):.1f}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict[str, Any], Advice]]:
    data = tmp_path_factory.mktemp("advice") / "demo"
    generate_demo(data, servers=60, tools=600, seed=0, workers=1)
    writer, _ = build_in_memory(data)
    pages = []
    for path in sorted(writer.files):
        found = re.fullmatch(r"servers/([^/]+)/index\.html", path)
        if found and f"api/servers/{found[1]}.json" in writer.files:
            pages.append((found[1], api(writer, f"api/servers/{found[1]}.json"), Advice(writer.text(path))))
    return pages


def fewest(values: list[Fraction], scores: dict[str, int], level: Fraction, letter: str) -> int | None:
    """The fewest of the worst tools raised to `level` that reach `letter` or better."""
    order = sorted(v for v in values if v < level)
    for count in range(1, len(order) + 1):
        rest = sorted(values)[count:]
        if tier(overall([level] * count + rest, scores)) <= letter:
            return count
    return None


def no_set_reaches(values: list[Fraction], scores: dict[str, int], level: Fraction, count: int, letter: str) -> bool:
    """No `count` tools raised to `level` reach `letter`, trying every set when there are few."""
    if count == 0:
        return tier(overall(values, scores)) > letter
    if comb(len(values), count) > SEARCH_LIMIT:
        return True  # too many to try: the worst-first check in `fewest` stands for them
    return all(
        tier(overall([max(level, v) if i in chosen else v for i, v in enumerate(values)], scores)) > letter
        for chosen in combinations(range(len(values)), count)
    )


def test_the_corpus_exercises_every_kind_of_advice(corpus) -> None:
    kinds = {kind for _, _, advice in corpus for _, kind, _ in advice.items}
    assert {"tools", "pattern", "coherence"} <= kinds, kinds
    assert any(items[0] == "advice-no-effect" for _, _, advice in corpus for items in advice.items)
    assert len(corpus) == 60


def test_the_tier_the_tools_alone_can_reach(corpus) -> None:
    checked = 0
    for slug, data, advice in corpus:
        sc, coh = data["scores"], data["coherence"]
        values = [Fraction(str(t["tdqs"])) for t in data["tools"]]
        now = overall(values, coh)
        if not sc["coverageOk"] or tier(now) == "A":
            assert not advice.reach, slug
            continue
        assert now == number(str(sc["overallScore"])), slug
        best = overall([Fraction(5)] * len(values), coh)
        assert f"with every tool at 5.0 the overall score would be {one(best)}" in advice.reach, slug
        if tier(best) < tier(now):
            assert f"can lift the overall tier from {tier(now)} to {tier(best)}" in advice.reach, slug
        else:
            assert f"cannot lift the overall tier above {tier(now)}" in advice.reach, slug
            assert not any(kind == "tools" for _, kind, _ in advice.items), slug
        checked += 1
    assert checked >= 10


MILESTONE = re.compile(
    r"Fix the (?:worst tool|(\d+) worst tools) → overall (\d\.\d) \(tier ([A-D])\)\. Raising (.+) to TDQS (\d\.\d),"
    r".* would move description quality from (\d\.\d) to (\d\.\d) and the overall score from (\d\.\d) to (\d\.\d)"
    r" \(tier ([A-D])\)(; fewer tools at \d\.\d would not reach tier ([A-D]))?(?: \(the (worst one|\d+ worst) at 5\.0 would\))?\."
)


def test_each_fewest_tools_claim_is_exact(corpus) -> None:
    checked = 0
    for slug, data, advice in corpus:
        coh = data["coherence"]
        values = [Fraction(str(t["tdqs"])) for t in data["tools"]]
        now = overall(values, coh)
        best = overall([Fraction(5)] * len(values), coh)
        claims = []
        for _, kind, text in advice.items:
            if kind != "tools":
                continue
            found = MILESTONE.search(text)
            assert found, (slug, text)
            count = int(found[1] or 1)
            after, letter, level = number(found[2]), found[3], number(found[5])
            expected = fewest(values, coh, TIER_A, letter)
            at_best = fewest(values, coh, Fraction(5), letter)
            assert at_best is not None
            assert (level, count) == ((TIER_A, expected) if expected is not None else (Fraction(5), at_best)), slug
            assert no_set_reaches(values, coh, level, count - 1, letter), (slug, text)
            raised = [level] * count + sorted(values)[count:]
            assert after == overall(raised, coh) and tier(after) == letter == found[10], (slug, text)
            assert (number(found[6]), number(found[7])) == (quality(values), quality(raised)), slug
            assert (number(found[8]), number(found[9])) == (now, after), slug
            assert (found[11] is not None) == (count > 1), slug
            said = found[13]
            assert (1 if said == "worst one" else int(said.split()[0]) if said else None) == (
                at_best if at_best < count else None), (slug, text)
            # The named tools are the worst ones, with their TDQS beside each.
            named = [Fraction(v) for v in re.findall(r"\((\d\.\d)\)", found[4])]
            assert named == sorted(values)[: len(named)] and named, (slug, text)
            claims.append((letter, level, count))
            checked += 1
        # Every tier between the current one and the reachable one is covered by a step that reaches
        # it (or a better tier) with the same fewest tools.
        for letter in "ABCD":
            if not tier(best) <= letter < tier(now):
                continue
            expected = fewest(values, coh, TIER_A, letter)
            level, count = (TIER_A, expected) if expected is not None else (Fraction(5), fewest(values, coh, 5, letter))
            assert any(c[1:] == (level, count) and c[0] <= letter for c in claims), (slug, letter, claims)
    assert checked >= 10


PATTERN = re.compile(
    r"^(\d+) of (\d+) tools (.+?)[.:] [Ff]ixing them \((.+?)\) would (?:move the overall score from (\d\.\d) to "
    r"(\d\.\d) \(tier ([A-D])\) and description quality from (\d\.\d) to (\d\.\d)|leave the overall score at "
    r"(\d\.\d)(?: \(description quality (\d\.\d) → (\d\.\d)\))?), assuming (every dimension|.+?) rises to 3"
)


def test_each_shared_defect_projection(corpus) -> None:
    checked = 0
    for slug, data, advice in corpus:
        if not data["scores"]["coverageOk"]:
            continue
        coh = data["coherence"]
        tools = {t["name"]: t for t in data["tools"]}
        values = {name: Fraction(str(t["tdqs"])) for name, t in tools.items()}
        now = overall(list(values.values()), coh)
        for where, kind, text in advice.items:
            if kind != "pattern":
                continue
            found = PATTERN.search(text)
            assert found, (slug, text)
            names = re.findall(r"Which tools (.*)$", text)[0]
            if re.search(r"and \d+ more$", names):
                continue  # not every tool is named: nothing to recompute from
            hit = [name for name in tools if re.search(rf"(?:^|, | and ){re.escape(name)} \(\d\.\d\)", names)]
            assert len(hit) == int(found[1]), (slug, text)
            every = found[13] == "every dimension"
            keys = list(WEIGHTS) if every else [DIMENSION_KEYS[n] for n in found[13].split(" and ")]
            after = dict(values)
            for name in hit:
                if "No Description" in tools[name]["flags"] and not every:
                    continue  # the hard gate holds it at 1
                after[name] = tool_tdqs({k: max(3, v) if k in keys else v for k, v in tools[name]["scores"].items()})
            projected = overall(list(after.values()), coh)
            if where == "advice-steps":
                assert projected > now, (slug, text)
                assert (number(found[5]), number(found[6]), found[7]) == (now, projected, tier(projected)), slug
                assert (number(found[8]), number(found[9])) == (quality(list(values.values())),
                                                               quality(list(after.values()))), slug
            else:
                assert projected == now == number(found[10]), (slug, text)
            checked += 1
    assert checked >= 20


COHERENCE = re.compile(r"^(.+?) is (\d) of 5")
RAISED = re.compile(r"Raising it to (\d) would move coherence from (\d\.\d) to (\d\.\d)(?: and the overall score from "
                    r"(\d\.\d) to (\d\.\d) \(tier ([A-D])\))?")


def test_each_coherence_dimension_below_4_has_an_action_with_its_gain(corpus) -> None:
    checked = 0
    for slug, data, advice in corpus:
        coh = data["coherence"]
        values = [Fraction(str(t["tdqs"])) for t in data["tools"]]
        covered = data["scores"]["coverageOk"]
        said = {}
        for where, kind, text in advice.items:
            if kind == "coherence":
                found = COHERENCE.match(text)
                assert found, (slug, text)
                said[COHERENCE_KEYS[found[1]]] = (where, text)
        assert set(said) == {key for key, score in coh.items() if score < 4}, slug
        for key, (where, text) in said.items():
            at_four = {**coh, key: 4}
            gains_at_four = overall(values, at_four) > overall(values, coh)
            target = 4 if gains_at_four or not covered else 5
            raised = {**coh, key: target}
            assert where == "advice-steps", (slug, text)  # at 4 or 5 a coherence step always gains
            found = RAISED.search(text)
            assert found and int(found[1]) == target, (slug, text)
            assert (number(found[2]), number(found[3])) == (coherence(coh), coherence(raised)), slug
            if covered:
                after = overall(values, raised)
                assert (number(found[4]), number(found[5]), found[6]) == (overall(values, coh), after, tier(after))
                assert after > overall(values, coh)
            else:
                assert found[4] is None and "not published" in text
            checked += 1
    assert checked >= 10


GAIN = re.compile(r"the overall score from (\d\.\d) to (\d\.\d)")


def test_steps_gain_biggest_first_and_nothing_claims_a_gain_it_lacks(corpus) -> None:
    for slug, data, advice in corpus:
        gains = []
        for where, _, text in advice.items:
            assert not re.search(r"from (\d\.\d+) to \1(?!\d)", text), (slug, text)
            if where == "advice-steps" and data["scores"]["coverageOk"]:
                found = GAIN.search(text)
                assert found, (slug, text)
                gains.append(number(found[2]) - number(found[1]))
        assert all(gain > 0 for gain in gains), slug
        assert gains == sorted(gains, reverse=True), (slug, gains)


STYLE_BY_HAND = {
    "snake_case": re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+"),
    "kebab-case": re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+"),
    "camelCase": re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"),
    "PascalCase": re.compile(r"(?:[A-Z][a-z0-9]*)+"),
    "dot.separated": re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)+"),
}


def test_naming_advice_names_real_tools_that_differ_from_the_pattern_it_states(corpus) -> None:
    checked = 0
    for slug, data, advice in corpus:
        names = {t["name"] for t in data["tools"]}
        for _, kind, text in advice.items:
            if kind != "coherence" or not text.startswith("Naming Consistency"):
                continue
            stated = re.search(r"Most names are (\S+) \((\d+) of (\d+)\)", text)
            listed = re.search(r"these break the pattern: (.*?)(?: and (\d+) more)? ?\. The rubric", text)
            assert stated and listed, (slug, text)
            majority = stated[1]
            offenders = re.findall(r"(\S+) \(([^)]*)\)", listed[1])
            assert 0 < len(offenders) <= 12 and int(stated[2]) <= int(stated[3]) <= len(names), (slug, text)
            for name, why in offenders:
                assert name in names, (slug, name)
                style = why.split(", ")[0]
                if style in STYLE_BY_HAND:  # a style named as the offence: the name has it, not the majority's
                    assert STYLE_BY_HAND[style].fullmatch(name), (slug, name, why)
                    assert not STYLE_BY_HAND[majority].fullmatch(name), (slug, name, majority)
                if why.endswith("verb last"):
                    assert "put the verb first" in text, (slug, text)
            checked += 1
    assert checked >= 2
