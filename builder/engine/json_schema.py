"""A data file's JSON Schema, exported from the pydantic model that validates it: each grading
system names its files' schemas (`GradingSystem.schemas`), and `python -m builder.schemas` writes
them all, so the docs never describe a shape the reader no longer accepts."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def model_schema(model: type[BaseModel], title: str) -> dict[str, Any]:
    """What `model` accepts when it validates a file (aliases as the file spells them)."""
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": DIALECT, **schema, "title": title}
