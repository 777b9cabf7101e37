"""How every number on a page is written: one rounding rule, and never a figure that contradicts
the grade or the formula printed beside it.

The specifications round half up on exact values (tdqs's `round1`: `floor((20p + q) / (2q))`).
Python's `round()` sends ties to the even neighbour and printf's `%.2f` rounds the binary float,
so `3.525` would print `3.52` and `6.25%` would print `6.2%`. Here every value is first taken
exactly — a float at its shortest decimal spelling, the one its JSON shows — and then rounded
half up in integer arithmetic: `3.525 → 3.53`, `6.25% → 6.3%`.

A rounded figure can still cross a grade boundary: a FlowMCP mean of 3.4999 bands to C but reads
`3.50` at two decimals, a CLEO share of 89.99% is a B but reads `90.0%`. A figure printed next to
a grade is therefore written by `banded`, which adds decimals until the written value bands where
the value does, and otherwise truncates toward the band. The JSON API keeps exact values; only
the text is rounded.

A share is computed from its counts as a fraction (`share_of`, kept in a model as `Exact`) and
rounded once, half up, when it is printed: never first to six places and then again.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Annotated

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

Number = int | float | Fraction | Decimal

MORE_DIGITS = 6
"""How many decimals `banded` and `reproducing` may add before they truncate instead."""


def exact(value: Number) -> Fraction:
    """The value as a fraction; a float as the decimal it is written as (`repr`), so 0.1 is 1/10."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        return Fraction(repr(value))
    return Fraction(value)


def _scaled(value: Number, digits: int) -> Fraction:
    return exact(value) * 10**digits


def _write(units: int, digits: int) -> str:
    """`units` of 10^-digits as a decimal string: (-5, 2) → `-0.05`."""
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10**digits)
    return f"{sign}{whole}.{part:0{digits}d}" if digits > 0 else f"{sign}{whole}"


def half_up_units(value: Number, digits: int) -> int:
    """`value` in units of 10^-digits, rounded half up: `floor(x + 1/2)`, as `round1` does."""
    return math.floor(_scaled(value, digits) + Fraction(1, 2))


def half_up(value: Number, digits: int) -> Fraction:
    return Fraction(half_up_units(value, digits), 10**digits)


def fixed(value: Number | None, digits: int = 1) -> str:
    """`3.525` → `3.53` at two decimals; None → `—`."""
    if value is None:
        return "—"
    if type(value) in (float, int):  # not bool, whose True would share 1's cache entry
        return _fixed_plain(value, digits)  # type: ignore[arg-type]
    return _write(half_up_units(value, digits), digits)


@functools.lru_cache(maxsize=1 << 16)
def _fixed_plain(value: float | int, digits: int) -> str:
    """`fixed` of a float or an int, remembered: exact arithmetic costs some 20 µs a figure, and a
    registry's pages print the same few thousand scores millions of times."""
    return _write(half_up_units(value, digits), digits)


def percent(share: Number | None, digits: int = 1) -> str:
    """A share of one as a percentage: `0.0625` → `6.3%`."""
    return "—" if share is None else fixed(exact(share) * 100, digits) + "%"


def signed(value: Number | None, digits: int = 1) -> str:
    if value is None:
        return "—"
    text = fixed(value, digits)
    return text if text.startswith("-") else "+" + text


def shortest(value: Number) -> str:
    """The value with as few decimals as write it exactly (a terminating decimal): `3.4999`,
    `15`, `12.5`. A repeating decimal is written with 12 decimals, rounded half up."""
    fraction = exact(value)
    for digits in range(13):
        if (fraction * 10**digits).denominator == 1:
            return _write(int(fraction * 10**digits), digits)
    return fixed(fraction, 12)


def exact_sum(values: Sequence[Number]) -> float:
    """The sum of values as written (0.1 + 0.2 is 0.3, not 0.30000000000000004), as a float."""
    return float(sum((exact(value) for value in values), Fraction(0)))


def band_of(minima: Sequence[Number]) -> Callable[[Fraction], int]:
    """The band of a value on a scale given by its lower bounds, best first (`A ≥ 4.5, B ≥ 3.5 …`):
    how many bounds it reaches, so two values band alike exactly when they share a grade."""
    bounds = [exact(bound) for bound in minima]
    return lambda value: sum(1 for bound in bounds if value >= bound)


def reproducing(value: Number, digits: int, keeps: Callable[[Fraction], bool]) -> str:
    """`value` at `digits` decimals, or with more where fewer would break `keeps` (the written
    number must band like the value, or reproduce a printed result); failing that, truncated to
    the side that keeps it. `keeps(exact(value))` must hold."""
    fraction = exact(value)
    for more in range(digits, digits + MORE_DIGITS + 1):
        units = half_up_units(fraction, more)
        if keeps(Fraction(units, 10**more)):
            return _write(units, more)
    more = digits + MORE_DIGITS
    scaled = fraction * 10**more
    for units in (math.floor(scaled), math.ceil(scaled)):
        if keeps(Fraction(units, 10**more)):
            return _write(units, more)
    return shortest(fraction)


def share_of(count: int, total: int) -> Fraction | None:
    """`count` of `total` as an exact share of one; None of nothing. A share is rounded once, when it
    is printed (`percent`, half up): 655 of 1,749 is 37.44997…%, which reads `37.4%`. Rounded first
    to six places (0.3745) and then to one, it read `37.5%`."""
    return None if total == 0 else Fraction(count, total)


def _exact_or_none(value: object) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return exact(value)
    raise ValueError(f"{value!r} is not an exact number")


Exact = Annotated[
    Fraction,
    PlainValidator(_exact_or_none),
    PlainSerializer(float, return_type=float),
    WithJsonSchema({"type": "number"}),
]
"""A model field that holds an exact value (a share from its counts, a mean from its sum): pages
print it from the fraction, rounded once; the JSON API gives the nearest float."""


def banded(value: Number | None, minima: Sequence[Number], digits: int = 1) -> str:
    """`value` written so that it bands to the grade it has: 3.4999 on FlowMCP's scale is `3.4999`
    at two decimals, not `3.50` (a B) next to its C."""
    if value is None:
        return "—"
    band = band_of(minima)
    target = band(exact(value))
    return reproducing(value, digits, lambda written: band(written) == target)


def banded_percent(share: Number | None, minima: Sequence[Number], digits: int = 1) -> str:
    """A share of one, as a percentage that bands like the share: 0.8999 with B ≥ 0.8 and
    A ≥ 0.9 is `89.99%`, never `90.0%` next to its B."""
    if share is None:
        return "—"
    return banded(exact(share) * 100, [exact(bound) * 100 for bound in minima], digits) + "%"
