"""JSON Schemas of the data directory's files, each grading system's own (`GradingSystem.schemas`),
exported from the models that validate them.

`python -m builder.schemas docs/schemas` rewrites them; a test fails when they drift from the
models, so the data-format docs can never describe a shape the reader no longer accepts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from builder.systems import all_systems


def render_all() -> dict[str, str]:
    """Every system's schemas, by file name; two systems may not publish one name."""
    found: dict[str, str] = {}
    for system in all_systems():
        for name, schema in system.schemas().items():
            if name in found:
                raise ValueError(f"two grading systems publish the schema {name}")
            found[name] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return dict(sorted(found.items()))


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/schemas")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in render_all().items():
        (out / name).write_text(text, encoding="utf-8")
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
