"""build-report.json: every input file the build read with its status, every problem it noticed
(builder.engine.problems) and, for a site built into a folder or a tar, what the site weighs
(builder.engine.weight). docs/data-format.md describes its fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from builder import urls
from builder.engine.problems import InputFile, ProblemLog
from builder.pages.problems import locations


def build_report_json(log: ProblemLog, size: dict[str, Any] | None = None) -> str:
    """Indented like `json.dumps(indent=2)` down to the records, each file and problem on a line of
    its own: as easy to read and diff, and each record encoded by pydantic's own serializer
    (`json.dumps` with `indent` falls back to pure Python: seconds for a registry's report). A
    file's model is made when its line is (a registry reads tens of thousands of files). `size`:
    what the site weighs (builder.engine.weight), when it was built into a folder or a tar."""
    files = log.file_rows()
    summary = {
        "filesRead": len(files),
        "accepted": sum(1 for f in files if f[2] in ("accepted", "accepted-with-warnings")),
        "partlyRejected": sum(1 for f in files if f[2] == "partly-rejected"),
        "rejected": sum(1 for f in files if f[2] == "rejected"),
        "errors": log.error_count,
        "warnings": len(log) - log.error_count,
    }

    def records(items: Iterable[Any], *, exclude_none: bool = False) -> str:
        lines = ",\n".join("    " + item.model_dump_json(by_alias=True, exclude_none=exclude_none) for item in items)
        return "[\n" + lines + "\n  ]" if lines else "[]"

    places = {file: urls.relative(urls.HOME, page) + "#" + anchor
              for file, place in locations(log).items() for page, anchor in [place.split("#")]}
    file_models = (InputFile(file=file, system=system, status=status, errors=errors, warnings=warnings,
                             problems_page=places.get(file))
                   for file, system, status, errors, warnings in files)
    summary_json = json.dumps(summary, indent=2).replace("\n", "\n  ")
    size_json = "" if size is None else '  "size": ' + json.dumps(size, indent=2).replace("\n", "\n  ") + ",\n"
    return (f'{{\n  "summary": {summary_json},\n{size_json}  "files": {records(file_models, exclude_none=True)},\n'
            f'  "problems": {records(log.problems)}\n}}\n')
