"""The exported JSON Schemas match the models that validate the data folder."""

from __future__ import annotations

from pathlib import Path

from builder.schemas import render_all

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schemas"


def test_exported_schemas_are_up_to_date() -> None:
    for name, text in render_all().items():
        path = DOCS / name
        assert path.exists(), f"{name} missing: run `python -m builder.schemas docs/schemas`"
        stale = f"{name} is stale: run `python -m builder.schemas docs/schemas`"
        assert path.read_text(encoding="utf-8") == text, stale
