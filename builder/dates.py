"""Dates in words for people: `2026-11-12T09:30:00.000Z` → `12 Nov 2026`.

Written out here rather than with `strftime`, whose month names follow the machine's locale: the
same data must build the same bytes anywhere. The relative part ("13 days ago") is never computed
at build time (that would read the clock); static/time.js adds it in the browser.
"""

from __future__ import annotations

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
