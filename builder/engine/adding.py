"""What `scorecards add` asks of a grading system, and what it gets back: the kinds of file the
system files (`AddKind`), each recognised by its content, planned into `Filing`s and checked by
the system's own reader on a staged copy (`check_staged`). The command (builder.add) knows no
system: it asks every system's kinds (`GradingSystem.adds`) in turn.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.engine.problems import Problem, ProblemLog
from builder.sources.datafolder import read_regular
from builder.sources.jsonfile import MAX_FILE_BYTES, Unreadable
from builder.urls import portable_name

SAFE_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
"""A folder or file name taken from third-party text: no separators, no `..`, no hidden names."""


class AddError(Exception):
    """A file that cannot be filed: one line naming the file, the JSON path and the reason."""

    def __init__(self, file: str | Path, json_path: str, reason: str) -> None:
        super().__init__(f"{file}: {json_path}: {reason}")


@dataclass(frozen=True)
class Filing:
    """One file of the data folder to write (`rows` empty) or to append rows to (CLEO)."""

    source: Path
    """The operator's file, named in the output and in errors."""
    target: str
    """Where it goes, relative to the data folder, with forward slashes."""
    content: bytes
    """The bytes to write; for an append, the rows that are new, each ending in a newline."""
    kind: str
    """What it is, in the operator's words: `tdqs ScoreReport`, `FlowMCP single-test grading` …"""
    system: str
    """Which grading system's reader checks it (its `GradingSystem.key`)."""
    append: bool = False
    rows: int = 0
    """For an append: rows of the source that are new."""
    duplicates: int = 0
    """For an append: rows of the source already present (or repeated in it), skipped."""
    update: bool = False
    """The file may already be there and is rewritten with `content`: a server.json that `add
    --category` adds categories to (keeping everything else it holds)."""


@dataclass
class AddRequest:
    """What the operator asked beside the files, and what one command has planned so far."""

    data: Path
    tools: Path | None = None
    server: str | None = None
    schema: str | None = None
    categories: list[str] = field(default_factory=list)
    rows_planned: set[Any] = field(default_factory=set)
    """Rows earlier files of the same command append (kinds that append rows keep it up to date)."""


@dataclass(frozen=True)
class Detected:
    kind: AddKind
    document: Any
    """The parsed JSON document; None for JSON Lines (read line by line)."""
    raw: bytes


def _nothing(document: dict[str, Any]) -> str | None:
    return None


@dataclass(frozen=True)
class AddKind:
    """One kind of file a grading system files: how it is recognised from its content alone
    (never its name) and where it goes."""

    name: str
    """In the operator's words: `a tdqs ScoreReport`."""
    system: str
    matches: Callable[[dict[str, Any]], bool]
    """The fields this format cannot do without; whether the rest is right is the reader's to say."""
    plan: Callable[[Path, Detected, AddRequest], list[Filing]]
    refuses: Callable[[dict[str, Any]], str | None] = _nothing
    """Why a file that matches is still not one to add (a sibling file of the format), else None."""
    hint: Callable[[dict[str, Any]], str | None] = _nothing
    """For a file no kind matches: what it looks like and how to add it, when this kind can tell."""
    json_lines: bool = False
    """Its rows may also come as JSON Lines, recognised by the first row."""
    options: frozenset[str] = frozenset()
    """The command's options it takes (`tools`, `categories`): given, they need one file of a
    kind that takes them."""
    finish: Callable[[Path, str], list[str]] | None = None
    """Run once after files of this system were written (data folder, how the operator named it):
    brings what is derived from them up to date and says so, a line each."""


def safe_segment(value: object) -> str | None:
    """`value` when it can name a folder or file as it is, on every system (`urls.portable_name`:
    not `nul`, `con`, `lpt9` …, not ending in a dot), else None."""
    return value if isinstance(value, str) and SAFE_SEGMENT.match(value) and portable_name(value) else None


def read_file(path: Path) -> bytes:
    """The operator's file, read once; one over the size limit is refused before it is read."""
    try:
        return read_regular(path.resolve(), MAX_FILE_BYTES)
    except (Unreadable, OSError) as error:
        reason = error.reason if isinstance(error, Unreadable) else f"cannot read the file: {error.strerror or error}"
        raise AddError(path, "$", reason) from None


Staged = tuple[str, bytes, Path]
"""(path relative to the data folder, bytes, the operator's file it came from)."""


def check_staged(reader: Callable[[Path, ProblemLog], object], files: Sequence[Staged]) -> object:
    """Validation by the build's own reader: the files are written into a temporary data folder,
    laid out exactly as they will be filed, and `reader` (the system's, as the build calls it)
    reads that folder with a ProblemLog. What it made of them (its corpus) is returned; AddError on
    its first error. There is no second validator to drift from the first: what `add` accepts, the
    build accepts (warnings are the build's to show, not `add`'s to refuse)."""
    with tempfile.TemporaryDirectory(prefix="scorecards-add-") as folder:
        root = Path(folder)
        for relative, content, _ in files:
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        log = ProblemLog()
        corpus = reader(root, log)
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
