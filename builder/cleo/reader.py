"""Reads `sessions/*.jsonl` under the data directory: CLEO's GRADES.jsonl files, line by line.

GRADES.jsonl is appended to by a best-effort writer, so a torn or hand-edited line is expected,
not exceptional. Each line is judged on its own: a line that is not UTF-8, not JSON or not a
GradeResult becomes a Problem naming the file and the line number (and the field, where there is
one) and is skipped; every other line is kept. Lines are split on `\\n` only, as JSON Lines says,
so a U+2028 inside a string does not cut a line in two. Blank lines are not rows and are passed
over silently.

A kept line may still disagree with itself: a totalScore that is not the sum of its dimension
scores, a maxScore that is not the sum of their maxima, or a run with no audit entries (nothing
was graded) that still carries points. Such a line is kept with a warning. totalScore is the sum
of the dimension scores by definition, so a run is graded from the sum and its page shows the
stated total beside it; the grade keeps CLEO's maxScore.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from builder.cleo.models import GradeResult
from builder.cleo.rubric import is_gradable
from builder.engine.problems import ProblemLog, describe_validation_error
from builder.sources.datafolder import Unreadable, entries, read_regular
from builder.sources.jsonfile import MAX_FILE_BYTES, parse_json, relative_name

SYSTEM = "cleo"
FOLDER = "sessions"
MAX_PROBLEMS_PER_LINE = 10
"""A line that is wrong everywhere is reported by its first few faults, not by hundreds."""


@dataclass(frozen=True)
class GradeLine:
    """A valid GradeResult and where it came from."""

    file: str
    line: int
    result: GradeResult


class _LineError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def grade_files(data_dir: Path, skipped: list[Path] | None = None) -> list[Path] | None:
    """The section's JSON Lines files, sorted by name; None when there is no sessions folder.
    Links and special files (the folder itself or a `.jsonl` in it) are added to `skipped`, never
    followed or opened (builder.sources.datafolder)."""
    folder = data_dir / FOLDER
    skipped = [] if skipped is None else skipped
    return entries(folder, "file", lambda name: name.endswith(".jsonl"), skipped)


def read_grade_file(path: Path, data_dir: Path, log: ProblemLog) -> list[GradeLine]:
    """Every valid line of one GRADES.jsonl file, in file order; problems go to `log`."""
    name = relative_name(path, data_dir)
    raw = _read_bytes(path, name, log)
    if raw is None:
        return []
    log.read(name, SYSTEM)
    kept: list[GradeLine] = []
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        if number == 1 and chunk.startswith(b"\xef\xbb\xbf"):
            chunk = chunk[3:]
        if not chunk.strip():
            continue
        where = f"line {number}"
        try:
            document = _parse_line(chunk)
        except _LineError as error:
            log.add(name, SYSTEM, where, f"{error.reason}; the line is skipped")
            continue
        try:
            result = GradeResult.model_validate(document)
        except ValidationError as error:
            for path_in_line, reason in describe_validation_error(error)[:MAX_PROBLEMS_PER_LINE]:
                log.add(name, SYSTEM, f"{where}, {path_in_line}",
                        f"not a CLEO GradeResult: {reason}; the line is skipped")
            continue
        for path_in_line, reason in disagreements(result):
            log.add(name, SYSTEM, f"{where}, {path_in_line}", reason, severity="warning")
        kept.append(GradeLine(name, number, result))
    return kept


def disagreements(result: GradeResult) -> list[tuple[str, str]]:
    """Stored totals that the row's own dimensions do not reproduce: (json path, reason)."""
    found = []
    score_sum = result.dimensions.score_total
    if score_sum != result.total_score:
        found.append(("$.totalScore", (
            f"totalScore is {result.total_score:g} but the dimension scores add up to "
            f"{score_sum:g}; the site grades from the sum and shows the stated total beside it"
        )))
    max_sum = result.dimensions.max_total
    if max_sum != result.max_score:
        found.append(("$.maxScore", (
            f"maxScore is {result.max_score:g} but the dimension maxima add up to {max_sum:g}; "
            "the grade uses CLEO's maxScore"
        )))
    if not is_gradable(result.entry_count, result.flags) and (result.total_score or score_sum):
        found.append(("$.totalScore", (
            f"the run has no audit entries, so nothing was graded, but it carries "
            f"{max(result.total_score, score_sum):g} points; the site shows it as not gradable"
        )))
    return found


def _read_bytes(path: Path, name: str, log: ProblemLog) -> bytes | None:
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except Unreadable as error:
        log.reject(name, SYSTEM, error.json_path, error.reason)
        return None


def _parse_line(chunk: bytes) -> dict[str, Any]:
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _LineError(f"not UTF-8 text (byte {error.start + 1} of the line)") from None
    try:
        document = parse_json(text, one_line=True)
    except Unreadable as error:
        raise _LineError(error.reason if error.json_path == "$" else f"{error.json_path}: {error.reason}") from None
    if not isinstance(document, dict):
        raise _LineError(
            f"not a CLEO GradeResult: a line must be a JSON object, not {_kind(document)}"
        )
    return document


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"
