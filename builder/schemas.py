"""JSON Schemas of the data directory's files, exported from the models that validate them.

`python -m builder.schemas docs/schemas` rewrites them; a test fails when they drift from the
models, so docs/data-format.md can never describe a shape the reader no longer accepts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from tdqs import ScoreReport, ToolDefinition

from builder.cleo.models import GradeResult
from builder.tdqs.models import RegistryIndex, ServerMeta


def _schema(model: type[BaseModel], title: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": title}


SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "tdqs-score-report.schema.json": lambda: _schema(ScoreReport, "TDQS capture (tdqs ScoreReport)"),
    "tdqs-tool-definition.schema.json": lambda: _schema(ToolDefinition, "One tools/list definition"),
    "tdqs-server.schema.json": lambda: _schema(ServerMeta, "servers/<id>/server.json"),
    "tdqs-index.schema.json": lambda: _schema(RegistryIndex, "index.json (registry rollup)"),
    "cleo-grade-result.schema.json": lambda: _schema(GradeResult, "sessions/*.jsonl: one line, a CLEO GradeResult"),
}


def register(name: str, make: Callable[[], dict[str, Any]]) -> None:
    """Other grading systems add their files' schemas here."""
    SCHEMAS[name] = make


def render_all() -> dict[str, str]:
    return {name: json.dumps(make(), indent=2, ensure_ascii=False) + "\n" for name, make in sorted(SCHEMAS.items())}


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/schemas")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in render_all().items():
        (out / name).write_text(text, encoding="utf-8")
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
