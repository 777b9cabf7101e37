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


def test_every_grading_system_publishes_its_own_files_schemas() -> None:
    from builder.systems import all_systems

    published = {system.key: sorted(system.schemas()) for system in all_systems()}
    assert all(published.values()), published
    assert sorted(name for names in published.values() for name in names) == sorted(render_all())


def test_the_exported_grading_entry_schema_agrees_with_the_spec_on_its_examples() -> None:
    """Ours accepts what the Grading-Spec's own schema accepts (its two examples), and refuses an
    entry the spec's schema refuses too (no gradingId; an answer outside pass/fail/n/a)."""
    import copy
    import json

    import jsonschema
    from flowmcp_fixtures import shared

    ours = json.loads((DOCS / "flowmcp-grading-entry.schema.json").read_text(encoding="utf-8"))
    spec = shared("08-grading-model.schema.json")
    for name in ("grading-entry-autonomous.json", "grading-entry-rejected-veto.json"):
        example = shared(name)
        jsonschema.validate(example, spec)
        jsonschema.validate(example, ours)
    example = shared("grading-entry-autonomous.json")
    unnamed = copy.deepcopy(example)
    del unnamed["gradingId"]
    wrong = copy.deepcopy(example)
    wrong["gradings"][0]["answer"] = "maybe"
    for broken in (unnamed, wrong):
        for schema in (spec, ours):
            assert not jsonschema.Draft202012Validator(schema).is_valid(broken)
