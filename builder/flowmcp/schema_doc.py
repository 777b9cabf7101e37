"""The JSON Schemas of the Scoring Protocol v1 files, exported from the models that read them and
embedded in `docs/data-format-flowmcp.md`.

The protocol publishes no schema of its grade report, so the documented one is the reader's own.
Each block in the document follows a marker line `<!-- schema: <name> -->`;
`python -m builder.flowmcp.schema_doc docs/data-format-flowmcp.md` rewrites the blocks, and
a test fails when the document and the models drift apart.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from builder.flowmcp.report_models import GradeReport, PromptsFile, ScoresFile

SCHEMAS: dict[str, tuple[type[BaseModel], str]] = {
    "scoring-protocol-grade-report": (GradeReport, "Scoring Protocol v1 grade report"),
    "scoring-protocol-scores": (ScoresFile, "Scoring Protocol v1 scores.json"),
    "scoring-protocol-prompts": (PromptsFile, "Scoring Protocol v1 prompts.json"),
}
_BLOCK = re.compile(r"(<!-- schema: (?P<name>[a-z0-9-]+) -->\n```json\n)(?P<body>.*?)(^```$)", re.S | re.M)


def schema(name: str) -> dict[str, Any]:
    model, title = SCHEMAS[name]
    exported = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **exported, "title": title}


def render(name: str) -> str:
    return json.dumps(schema(name), indent=2, ensure_ascii=False)


def embedded(document: str) -> dict[str, str]:
    """The schema blocks of a document, by name."""
    return {match["name"]: match["body"].rstrip("\n") for match in _BLOCK.finditer(document)}


def rewrite(document: str) -> str:
    return _BLOCK.sub(lambda m: m.group(1) + render(m["name"]) + "\n" + m.group(4), document)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m builder.flowmcp.schema_doc docs/data-format-flowmcp.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
