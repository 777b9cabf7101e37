"""docs/data-format-flowmcp.md documents the Scoring Protocol files with the JSON Schemas of the very
models that read them, and the spec's error codes it lists are the ones the reader attaches."""

from __future__ import annotations

import re
from pathlib import Path

from builder.flowmcp import conformance, schema_doc

DOC = Path(__file__).resolve().parents[1] / "docs" / "data-format-flowmcp.md"
FIX = "run `python -m builder.flowmcp.schema_doc docs/data-format-flowmcp.md`"


def test_embedded_schemas_are_the_models_schemas() -> None:
    embedded = schema_doc.embedded(DOC.read_text(encoding="utf-8"))
    assert set(embedded) == set(schema_doc.SCHEMAS), FIX
    for name, text in embedded.items():
        assert text == schema_doc.render(name), f"{name} is stale: {FIX}"


def test_the_documented_codes_are_the_readers() -> None:
    documented = set(re.findall(r"\b(?:NA|GRD|VET)-\d{3}\b", DOC.read_text(encoding="utf-8")))
    assert {conformance.NA_001, conformance.GRD_005, conformance.VET_003} <= documented
    # VET-002 is named only to explain that the site follows the spec text, not the implementation
    assert documented - {conformance.NA_001, conformance.GRD_005, conformance.VET_003} == {"VET-002"}


def test_rewrite_is_idempotent() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert schema_doc.rewrite(text) == text
    emptied = re.sub(r"(```json\n).*?(^```$)", r"\1\2", text, flags=re.S | re.M)
    assert schema_doc.rewrite(emptied) == text
