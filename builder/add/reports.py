"""Where a Scoring Protocol v1 grade report goes: `scoring-reports/<schemaIdSlug>/<schemaIdSlug>-<date>.json`,
the name the FlowMCP CLI suggests. A second report of the same schema and day is numbered
(`…-<date>-2.json`) rather than written over the first; the same report again is found by its bytes."""

from __future__ import annotations

from pathlib import Path

from builder.add.detect import Detected
from builder.add.plan import AddError, Filing, safe_segment
from builder.add.stage import check_staged
from builder.flowmcp.reports import REPORTS_DIR, SYSTEM

PLACEHOLDER = "staged"


def plan_report(source: Path, found: Detected, data: Path) -> list[Filing]:
    document = found.document
    slug = safe_segment(document.get("schemaIdSlug"))
    date = document.get("date") if isinstance(document.get("date"), str) else None
    stem = f"{slug or PLACEHOLDER}-{date}" if date and safe_segment(date) else f"{slug or PLACEHOLDER}-{PLACEHOLDER}"
    folder = f"{REPORTS_DIR}/{slug or PLACEHOLDER}"
    check_staged(SYSTEM, [(f"{folder}/{stem}.json", found.raw, source)])
    if slug is None:
        raise AddError(source, "$.schemaIdSlug", f"{document.get('schemaIdSlug')!r} cannot name a folder "
                       "(letters, digits, . _ -)")
    return [Filing(source, f"{folder}/{_free_name(data / folder, stem, found.raw)}", found.raw,
                   "Scoring Protocol v1 report", SYSTEM)]


def _free_name(folder: Path, stem: str, raw: bytes) -> str:
    """The name already holding these bytes among `<stem>.json`, `<stem>-2.json` … (numbered without
    gaps), else the first free one."""
    number = 1
    while True:
        name = f"{stem}.json" if number == 1 else f"{stem}-{number}.json"
        path = folder / name
        if not path.exists() or path.read_bytes() == raw:
            return name
        number += 1
