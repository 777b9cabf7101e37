"""Validation by the build's own readers: the files are written into a temporary data folder,
laid out exactly as they will be filed, and the system's reader reads that folder with a
ProblemLog. Any error it records refuses the file. There is no second validator to drift from
the first: what `add` accepts, the build accepts (warnings, such as a stored score the rubric's
arithmetic does not reproduce, are the build's to show, not `add`'s to refuse).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from builder import cleo
from builder.add.plan import AddError
from builder.engine.problems import Problem, ProblemLog
from builder.flowmcp.reader import read as read_flowmcp
from builder.tdqs.reader import read_tdqs

Staged = tuple[str, bytes, Path]
"""(path relative to the data folder, bytes, the operator's file it came from)."""

READERS: dict[str, Callable[[Path, ProblemLog], object]] = {
    "tdqs": read_tdqs,
    "flowmcp": read_flowmcp,
    "scoring-protocol": read_flowmcp,
    "cleo": cleo.read,
}
"""Every system's reader as the build calls it (builder.systems); Scoring Protocol reports are
read by the FlowMCP section's reader, as in the build."""


def check_staged(system: str, files: Sequence[Staged]) -> object:
    """What the reader made of the staged files (its corpus); AddError on the first error."""
    with tempfile.TemporaryDirectory(prefix="scorecards-add-") as folder:
        root = Path(folder)
        for relative, content, _ in files:
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        log = ProblemLog()
        corpus = READERS[system](root, log)
    errors = [problem for problem in log.problems if problem.severity == "error"]
    if errors:
        sources = {relative: source for relative, _, source in files}
        first = _first(errors, sources)
        raise AddError(sources.get(first.file, first.file), first.json_path, _reason(first))
    return corpus


def _first(errors: list[Problem], sources: dict[str, Path]) -> Problem:
    """An error about one of the files themselves before one about their folder (which follows)."""
    return next((problem for problem in errors if problem.file in sources), errors[0])


def _reason(problem: Problem) -> str:
    return problem.reason + (f" [{problem.code}]" if problem.code else "")
