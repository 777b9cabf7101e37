"""Where the TDQS data directory keeps things, and the timestamps its file names come from.

    <out>/servers/<server-id>/server.json
    <out>/servers/<server-id>/<capture-id>.score.json
    <out>/servers/<server-id>/<capture-id>.tools.json

A capture id is the report's `generatedAt` made filename-safe. The demo stamps whole seconds
(`.000Z`), so the id loses nothing: `2026-05-14T09:30:00.000Z` → `2026-05-14T09-30-00Z`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

BASE_TIME = datetime(2026, 6, 1, tzinfo=UTC)
"""Every demo timestamp is an offset back from this fixed instant, never from the clock."""

MARKER = ".demo-corpus.json"
"""Written at the top of a demo output so a later run knows it may replace the folder."""


def stamp(moment: datetime) -> str:
    """`generatedAt` as tdqs writes it: UTC, milliseconds, `Z`."""
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def before_base(seconds: int) -> datetime:
    return BASE_TIME - timedelta(seconds=seconds)


def capture_id(generated_at: str) -> str:
    moment = datetime.strptime(generated_at, "%Y-%m-%dT%H:%M:%S.%fZ")
    if moment.microsecond:
        return f"{moment:%Y-%m-%dT%H-%M-%S}-{moment.microsecond // 1000:03d}Z"
    return f"{moment:%Y-%m-%dT%H-%M-%S}Z"
