"""How much an author says about each tool: the generator side of the calibration.

Each server has a `care` level (authors differ far more than tools of one author do), and each
tool draws its description plan from its own care, near the server's. The constants were tuned
once, offline, together with the stand-in's rubric constants, until a registry-sized corpus
matched Glama's published tier shares and dimension means (see `generate.py`); they are frozen
because changing any of them changes every demo corpus.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from scorecards_demo.descriptions import DescriptionKind, DescriptionPlan, Sibling

AUTHORS: tuple[tuple[float, float, float], ...] = (
    (0.41, 1.5, 8.0),
    (0.25, 8.0, 12.0),
    (0.34, 7.0, 1.8),
)
"""(share, beta alpha, beta beta) of server care for three kinds of author: those who write one
plain sentence per tool and stop, those who say a little more, and those who write genuinely
helpful definitions."""
TOOL_CARE_SPREAD = 0.12

PART_SPREAD = 0.08
DETAIL_AT = 0.4
CONTRAST_AT = 0.7
USAGE_AT = (0.3, 0.68, 0.95)
BEHAVIOR_AT = (0.28, 0.66, 0.88)
PARAMS_AT = (0.82, 0.95)
RETURNS_AT = 0.8
FILLER_AT = (0.0, 0.12)
"""Compared with the negated care: one filler sentence at care 0 or below, two at -0.12."""

P_MISSING = 0.035
P_TAUTOLOGY = 0.0011
P_MISMATCHED = 0.03
P_TERSE = 0.10
P_VAGUE = 0.10


def server_care(rng: random.Random) -> float:
    """Multimodal, as registries are: many authors write a single sentence per tool, most of
    the rest write genuinely helpful definitions, and fewer are in between."""
    u = rng.random()
    for share, alpha, beta in AUTHORS:
        if u < share:
            return rng.betavariate(alpha, beta)
        u -= share
    return rng.betavariate(AUTHORS[-1][1], AUTHORS[-1][2])


def tool_care(server: float, rng: random.Random) -> float:
    return min(1.0, max(0.0, rng.gauss(server, TOOL_CARE_SPREAD)))


def _kind(care: float, rng: random.Random) -> DescriptionKind:
    low = 1.0 - care
    u = rng.random()
    for kind, share in (
        ("missing", P_MISSING * low**2),
        ("tautology", P_TAUTOLOGY),
        ("mismatched", P_MISMATCHED * low**2),
        ("terse", P_TERSE * low**1.5),
        ("vague", P_VAGUE * low**1.5),
    ):
        if u < share:
            return kind  # type: ignore[return-value]
        u -= share
    return "clear"


def _step(value: float, thresholds: tuple[float, ...]) -> int:
    """How many of the ascending `thresholds` `value` reaches."""
    return sum(value >= threshold for threshold in thresholds)


def draw_plan(*, care: float, has_params: bool, sibling: Sibling | None, rng: random.Random) -> DescriptionPlan:
    """One tool's plan. Each part is said when the tool's care, blurred a little per part,
    clears that part's threshold: careful authors say most things, minimal ones say the purpose
    and stop, and what one author says about one tool is correlated, as it is in registries.
    `sibling` is the related tool a careful author would contrast it with."""
    kind = _kind(care, rng)
    effort = care if kind == "clear" else care * 0.3

    def blurred() -> float:
        return effort + rng.gauss(0.0, PART_SPREAD)

    return DescriptionPlan(
        kind=kind,
        detail=blurred() >= DETAIL_AT,
        contrast=sibling if sibling is not None and blurred() >= CONTRAST_AT else None,
        usage=_step(blurred(), USAGE_AT),
        behavior=_step(blurred(), BEHAVIOR_AT),
        params=_step(blurred(), PARAMS_AT) if has_params else 0,
        returns=blurred() >= RETURNS_AT,
        filler=_step(-blurred(), FILLER_AT),
        variant=rng.getrandbits(32),
    )


def worse(plan: DescriptionPlan, rng: random.Random) -> DescriptionPlan:
    """The same tool, described with less care: what an earlier or regressed capture had. A
    plan with nothing to take away falls to a bare or missing description."""
    if plan.kind in ("missing", "tautology", "mismatched"):
        return plan
    bare = not (plan.detail or plan.contrast or plan.usage or plan.behavior or plan.params or plan.returns)
    if plan.kind in ("terse", "vague") or bare or rng.random() < 0.3:
        kind: DescriptionKind = rng.choice(("missing", "terse", "tautology"))
        return _replace(plan, kind=kind, usage=0, behavior=0, params=0, returns=False)
    return _replace(
        plan,
        kind=rng.choice(("clear", "clear", "vague")),
        detail=False,
        contrast=None,
        usage=max(0, plan.usage - 2),
        behavior=max(0, plan.behavior - 1),
        params=0,
        returns=False,
    )


def better(plan: DescriptionPlan) -> DescriptionPlan:
    """The same tool, described with more care."""
    return _replace(
        plan,
        kind="clear",
        detail=True,
        usage=min(3, plan.usage + 2),
        behavior=min(3, plan.behavior + 1),
        params=max(plan.params, 1),
        returns=True,
        filler=0,
    )


def _replace(plan: DescriptionPlan, **changes: Any) -> DescriptionPlan:
    """A changed plan is reworded too: an author who rewrote a description did not keep it."""
    return dataclasses.replace(plan, **changes, variant=plan.variant ^ 0x5A5A5A5A)
