"""A checklist action's gain, summed in hundredths of a point and divided once
(builder.tdqs.checklist.weighted_hundredths), is the float of the exact weighted sum, for every
tool score and every step the checklist can propose."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from tdqs import TOOL_DIMENSIONS

from builder.tdqs.checklist import VIABLE, raised, weighted_hundredths


def test_every_step_from_every_score() -> None:
    keys = tuple(d.key for d in TOOL_DIMENSIONS)
    weights = {d.key: Fraction(d.weight, 100) for d in TOOL_DIMENSIONS}
    checked = 0
    for values in product(range(1, 6), repeat=len(keys)):
        before = dict(zip(keys, values, strict=True))
        steps = [raised(before, keys, VIABLE)]
        steps += [raised(before, (key,), max(before[key] + 1, VIABLE)) for key in keys if before[key] < 5]
        for after in steps:
            exact = sum((weights[key] * (after[key] - before[key]) for key in keys), Fraction(0))
            hundredths = weighted_hundredths(before, after)
            assert hundredths == exact * 100
            assert hundredths / 100 == float(exact)
            checked += 1
    assert checked > 50_000
