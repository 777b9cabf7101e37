"""CLEO: grades of AI coding agents' sessions, read from CLEO's own GRADES.jsonl files.

`read(data_dir, log)` is the section's reader: every `sessions/*.jsonl` file, line by line
(`reader`), grouped into sessions of grading runs (`corpus`). The rubric behind the flags lives in
`rubric`, the line's shape in `models`. Its tables are `store`, its SQL `queries`, its page kinds
`pages`.
"""

from __future__ import annotations

from pathlib import Path

from builder.cleo.corpus import CleoCorpus, Run, Session, build_corpus
from builder.cleo.reader import SYSTEM, grade_files, read_grade_file
from builder.engine.problems import ProblemLog
from builder.sources.datafolder import report_skipped
from builder.sources.jsonfile import relative_name

__all__ = ["SYSTEM", "CleoCorpus", "Run", "Session", "read", "read_files"]


def read(data_dir: Path, log: ProblemLog) -> CleoCorpus | None:
    """The section's corpus; None when the data directory has no `sessions/*.jsonl` file."""
    skipped: list[Path] = []
    files = grade_files(data_dir, skipped)
    report_skipped(skipped, data_dir, SYSTEM, log)
    if not files:
        return None
    return read_files(files, data_dir, log)


def read_files(paths: list[Path], data_dir: Path, log: ProblemLog) -> CleoCorpus:
    lines = [line for path in paths for line in read_grade_file(path, data_dir, log)]
    return build_corpus(lines, (relative_name(path, data_dir) for path in paths))
