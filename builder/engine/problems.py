"""Everything the build noticed about its input, in one log.

Bad input must never take the build down: a reader that meets a broken file records a Problem
naming the file, the JSON path and the reason, skips what it cannot use and carries on. The same
log becomes `build-report.json` and the "data problems" page, so what a reader rejected is never
silently lost, and `--strict` / `scorecards check` can turn it into an exit code.

Two severities, because they mean different things to an operator:
- `error`: input was rejected (a file, an entry or a line did not make it into the site);
- `warning`: input was accepted but disagrees with itself (a stored grade that the rubric's own
  arithmetic does not reproduce, an index.json that lags its captures); the site shows both values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel

Severity = Literal["error", "warning"]
FileStatus = Literal["accepted", "accepted-with-warnings", "partly-rejected", "rejected"]


class ReportModel(BaseModel):
    """camelCase JSON, like every other machine-readable file the site publishes."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class Problem(ReportModel):
    file: str
    """Path of the input file, relative to the data directory, with forward slashes."""
    json_path: str
    """Where in the file: a JSONPath such as `$.tools[3].tdqs`, or `line 17` for JSON Lines."""
    reason: str
    severity: Severity = "error"
    system: str
    """Which grading system's reader raised it: tdqs, flowmcp, scoring-protocol, cleo."""
    code: str | None = None
    """The specification's own error code where it names one (NA-001, VET-003 …)."""


class InputFile(ReportModel):
    file: str
    system: str
    status: FileStatus
    errors: int
    warnings: int
    problems_page: str | None = None
    """In the build report, for a file with a problem: where the site lists its problems, from the
    site's root (`problems/5/#f-…`)."""


class FileOwner(NamedTuple):
    """Whose input a file is, as a grading system knows it: the name and output path of the page
    that shows what was read of it (a server's page), for the data problems pages to link back to."""

    name: str
    page: str


def json_path(location: Sequence[str | int]) -> str:
    """`("tools", 3, "tdqs")` → `$.tools[3].tdqs`: the path a person can follow in an editor."""
    path = "$"
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.isidentifier():
            path += f".{part}"
        else:
            path += "[" + _quote(part) + "]"
    return path


def _quote(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def describe_validation_error(
    error: ValidationError, *, prefix: Sequence[str | int] = ()
) -> list[tuple[str, str]]:
    """One (json_path, reason) per pydantic error, so a broken file names every broken field."""
    found: list[tuple[str, str]] = []
    for detail in error.errors(include_url=False):
        location = [*prefix, *(part for part in detail["loc"] if not _is_union_tag(part))]
        found.append((json_path(location), _short(detail["msg"], detail.get("input"))))
    return found


def _is_union_tag(part: object) -> bool:
    # pydantic inserts the union member's type name ("function-after[...]", "int") into `loc`;
    # it is not a key of the document and would send the reader to a path that does not exist.
    return isinstance(part, str) and ("[" in part or part in {"int", "float", "str", "bool"})


def _short(message: str, value: object) -> str:
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    if isinstance(value, dict | list):
        return message
    return f"{message} (got {shown})"


class ProblemLog:
    """Collects problems and the list of files read. Readers call `read()` once per input file
    and `add()` for each problem; the file's status is derived from what was added."""

    def __init__(self) -> None:
        self._problems: list[Problem] = []
        self._files: dict[str, tuple[str, bool]] = {}
        self._listed: list[tuple[str, str, FileStatus, int, int]] | None = None
        """`files` as last computed, as tuples: the build report and the problems page both ask,
        and a registry has tens of thousands of files (as models, held to the end of the build,
        they were a tenth of its memory). Every change clears it."""

    def read(self, file: str, system: str, *, rejected: bool = False) -> None:
        """Record that `file` was read; `rejected` marks the whole file as unusable."""
        previous = self._files.get(file)
        self._listed = None
        self._files[file] = (system, rejected or (previous is not None and previous[1]))

    def reject(self, file: str, system: str, json_path: str, reason: str, code: str | None = None) -> None:
        """The whole file is unusable."""
        self.read(file, system, rejected=True)
        self.add(file, system, json_path, reason, code=code)

    def add(
        self,
        file: str,
        system: str,
        json_path: str,
        reason: str,
        *,
        severity: Severity = "error",
        code: str | None = None,
    ) -> None:
        if file not in self._files:
            self.read(file, system)
        self._listed = None
        self._problems.append(
            Problem(
                file=file, json_path=json_path, reason=reason, severity=severity, system=system, code=code
            )
        )

    def merge(self, other: ProblemLog) -> None:
        """Takes in what another log (a worker's) recorded."""
        for file, (system, rejected) in other._files.items():
            self.read(file, system, rejected=rejected)
        self._listed = None
        self._problems.extend(other._problems)

    @property
    def problems(self) -> list[Problem]:
        """Sorted by file, then by where in the file, so the report is the same on every build."""
        return sorted(self._problems, key=lambda p: (p.file, _natural(p.json_path), p.reason))

    @property
    def files(self) -> list[InputFile]:
        return [InputFile(file=file, system=system, status=status, errors=errors, warnings=warnings)
                for file, system, status, errors, warnings in self.file_rows()]

    def file_rows(self) -> list[tuple[str, str, FileStatus, int, int]]:
        """Every file read, sorted, as (file, system, status, errors, warnings): what `files` holds,
        without a model per file (a registry reads tens of thousands)."""
        if self._listed is None:
            self._listed = self._list_files()
        return self._listed

    def _list_files(self) -> list[tuple[str, str, FileStatus, int, int]]:
        counts: dict[str, list[int]] = {name: [0, 0] for name in self._files}
        for problem in self._problems:
            counts[problem.file][0 if problem.severity == "error" else 1] += 1
        result = []
        for name in sorted(self._files):
            system, rejected = self._files[name]
            errors, warnings = counts[name]
            status: FileStatus
            if rejected:
                status = "rejected"
            elif errors:
                status = "partly-rejected"
            elif warnings:
                status = "accepted-with-warnings"
            else:
                status = "accepted"
            result.append((name, system, status, errors, warnings))
        return result

    @property
    def error_count(self) -> int:
        return sum(1 for problem in self._problems if problem.severity == "error")

    def __len__(self) -> int:
        return len(self._problems)


def _natural(text: str) -> tuple[object, ...]:
    """`line 9` before `line 10`, `[2]` before `[10]`."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))
