"""Dates in words for people: `2026-11-12T09:30:00.000Z` → `12 Nov 2026`.

Written out here rather than with `strftime`, whose month names follow the machine's locale: the
same data must build the same bytes anywhere. The relative part ("13 days ago") is never computed
at build time (that would read the clock); static/time.js adds it in the browser.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_words(timestamp: str | None) -> str:
    """The calendar day of an RFC 3339 timestamp as written (its own offset, never converted);
    anything that does not start with a `YYYY-MM-DD` date is returned as it is."""
    if not timestamp:
        return "—"
    year, month, day = timestamp[:4], timestamp[5:7], timestamp[8:10]
    if not (year.isdigit() and month.isdigit() and day.isdigit() and timestamp[4:5] == "-" == timestamp[7:8]):
        return timestamp
    if not 1 <= int(month) <= 12:
        return timestamp
    return f"{int(day)} {MONTHS[int(month) - 1]} {year}"


_RFC3339 = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$", re.IGNORECASE)


def instant_key(timestamp: str) -> str:
    """The instant an RFC 3339 timestamp names, as text that sorts in time order: converted to UTC,
    with nine fraction digits (`2026-06-01T10:00:00+05:00` → `2026-06-01T05:00:00.000000000Z`).

    Captures are ordered by when they were made. Their own text does not sort that way: an offset
    (`10:00+05:00` is before `06:00Z`) or a fraction (`00.5Z` sorts before `00Z`, since `.` is before
    `Z`) would put an older capture last. A timestamp that is not RFC 3339 is returned as it is."""
    found = _RFC3339.match(timestamp)
    if found is None:
        return timestamp
    whole, fraction, offset = found.groups()
    try:
        utc = datetime.fromisoformat(whole + ("+00:00" if offset.upper() == "Z" else offset)).astimezone(UTC)
    except (ValueError, OverflowError):  # no such date, or an offset that leaves year 1 or 9999
        return timestamp
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{(fraction or '').ljust(9, '0')}Z"


def days_before(made: str | None, as_of: str | None) -> int | None:
    """Whole days from the calendar day of `made` to that of `as_of` (RFC 3339 timestamps, each day
    as written, as `day_words` writes it): how old an input is on the data's as-of date, never the
    clock's. None when either is unknown or no date."""
    first, last = _day(made), _day(as_of)
    return None if first is None or last is None else (last - first).days


def _day(stamp: str | None) -> date | None:
    try:
        return date.fromisoformat(stamp[:10]) if stamp else None
    except ValueError:
        return None
