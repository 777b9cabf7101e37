"""A mid-size demo corpus lands near Glama's published registry figures. The shares are computed
here from the files, current captures only; the tolerances are looser than the ±2 points the
generator is calibrated to at registry scale, because 400 servers are a small, clustered sample."""

from __future__ import annotations

from collections import Counter

import pytest
from tdqs import ScoreReport

from scorecards_demo.generate import generate_demo

PUBLISHED_TIERS = {"A": 54.1, "B": 19.4, "C": 23.8, "D": 2.7}
PUBLISHED_MEANS = {
    "purpose_clarity": 4.47,
    "conciseness_structure": 4.47,
    "contextual_completeness": 3.23,
    "parameter_semantics": 3.19,
    "usage_guidelines": 3.03,
    "behavioral_transparency": 2.90,
}
PUBLISHED_SMELL_SHARE = 56.0


@pytest.fixture(scope="module")
def current_tools(tmp_path_factory: pytest.TempPathFactory) -> list:
    out = tmp_path_factory.mktemp("distribution") / "corpus"
    generate_demo(out, servers=400, tools=6000, seed=0, workers=2)
    tools = []
    for folder in sorted((out / "servers").iterdir()):
        latest = sorted(folder.glob("*.score.json"))[-1]
        tools.extend(ScoreReport.model_validate_json(latest.read_text(encoding="utf-8")).tools)
    assert len(tools) == 6000
    return tools


def _percent(count: int, total: int) -> float:
    return 100 * count / total


def test_tier_shares_are_near_the_published_ones(current_tools: list) -> None:
    tiers = Counter(tool.tier for tool in current_tools)
    for tier, published in PUBLISHED_TIERS.items():
        assert _percent(tiers[tier], len(current_tools)) == pytest.approx(published, abs=5 if tier != "D" else 2)


def test_dimension_means_are_near_the_published_ones(current_tools: list) -> None:
    for dimension, published in PUBLISHED_MEANS.items():
        mean = sum(tool.scores[dimension] for tool in current_tools) / len(current_tools)
        assert mean == pytest.approx(published, abs=0.2), dimension


def test_the_share_of_tools_with_a_smell_is_near_the_published_one(current_tools: list) -> None:
    # Recomputed from the scores rather than read from `smells`: any dimension below 3.
    smelly = sum(any(score < 3 for score in tool.scores.values()) for tool in current_tools)
    assert _percent(smelly, len(current_tools)) == pytest.approx(PUBLISHED_SMELL_SHARE, abs=6)


def test_flags_are_rare_but_present(current_tools: list) -> None:
    flags = Counter(flag for tool in current_tools for flag in tool.flags)
    assert 0.4 < _percent(flags["No Description"], len(current_tools)) < 3.0
    assert 0.05 < _percent(flags["Annotation Contradiction"], len(current_tools)) < 1.5
    assert _percent(flags["Tautological Description"], len(current_tools)) < 0.6
