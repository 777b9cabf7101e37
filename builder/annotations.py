"""Data problems as GitHub Actions annotations, so a pull request shows them on the files it changed.

A line `::error file=data/servers/x/a.score.json,title=…::message` on a step's standard output is a
workflow command: GitHub shows it on that file in the pull request and in the run's summary. The
runner sets `GITHUB_ACTIONS=true`; anywhere else nothing is printed. A workflow command is one
line, so its text is escaped as the runner unescapes it (`%`, CR and LF in the message; `:` and `,`
too in a property such as the file name, where they would end the property).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from builder.engine.problems import Problem

_LINE = re.compile(r"line (\d+)")
"""A JSON Lines problem's `json_path` (CLEO): the line the annotation can point at."""


def in_github_actions(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get("GITHUB_ACTIONS") == "true"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(problem: Problem, data: Path, root: Path) -> str:
    """One workflow command for `problem`, its file named relative to the repository root `root`
    (the data folder `data` may be anywhere under it)."""
    path = Path(os.path.relpath(os.path.abspath(data / problem.file), os.path.abspath(root))).as_posix()
    properties = [f"file={escape_property(path)}"]
    if match := _LINE.fullmatch(problem.json_path):
        properties.append(f"line={match.group(1)}")
    properties.append(f"title={escape_property(f'{problem.system}: {problem.json_path}')}")
    code = f" [{problem.code}]" if problem.code else ""
    message = escape_data(f"{problem.file}: {problem.json_path}: {problem.reason}{code}")
    return f"::{problem.severity} {','.join(properties)}::{message}"


def github_annotations(problems: Iterable[Problem], data: Path, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The annotation lines for `problems` when running on GitHub Actions (the repository root is
    `GITHUB_WORKSPACE`, else the current folder); none anywhere else."""
    if not in_github_actions(environ):
        return []
    root = Path(environ.get("GITHUB_WORKSPACE") or os.getcwd())
    return [annotation(problem, data, root) for problem in problems]
