"""`scorecards new DIR`: a repository ready to push, as `hugo new site` or `mkdocs new` make one.

It holds an empty data folder (or, with `--demo`, the generated demo corpus), `scorecards.toml`
with every key documented, `requirements.txt` pinning the scorecards version that made it (which the
workflow installs, setup-python's pip cache keys on, and Dependabot upgrades), the GitHub Pages
workflow (a pull request checked, a push to main published), Dependabot's settings, a README that
says how to publish the first time and add results, and a `.gitignore` for the build's output. The
files are package data (`templates/new/`, dotfiles stored as `dot-…`); the distribution's name and
version go in for `@SCORECARDS_DISTRIBUTION@` and `@SCORECARDS_VERSION@`. A folder that is not
empty is refused: `new` never mixes with what is there.
"""

from __future__ import annotations

import os
from importlib.metadata import version
from pathlib import Path

from builder.engine.assets import TEMPLATES
from builder.sources.data_writes import write_file

SKELETON = TEMPLATES / "new"

DISTRIBUTION = "mcp-scorecard-site"
"""This package's name on the package index (pyproject.toml's `project.name`): what a new
repository's requirements.txt pins."""


class NotEmpty(Exception):
    """The target folder exists and holds something."""


def _target_name(relative: Path) -> Path:
    return Path(*(f".{part[4:]}" if part.startswith("dot-") else part for part in relative.parts))


def skeleton_files() -> list[tuple[Path, str]]:
    """(path inside the new repository, text) for every file of the skeleton, sorted."""
    values = {"@SCORECARDS_DISTRIBUTION@": DISTRIBUTION, "@SCORECARDS_VERSION@": version(DISTRIBUTION)}
    return [(_target_name(path.relative_to(SKELETON)), _fill(path.read_text(encoding="utf-8"), values))
            for path in sorted(SKELETON.rglob("*")) if path.is_file()]


def _fill(text: str, values: dict[str, str]) -> str:
    for placeholder, value in values.items():
        text = text.replace(placeholder, value)
    return text


def check_new_folder(folder: Path) -> None:
    """Raises NotEmpty unless `folder` is missing or an empty folder."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise NotEmpty(f"{folder} exists and is not a folder; choose a new folder")
    if folder.is_dir():
        with os.scandir(folder) as entries:
            if next(entries, None) is not None:
                raise NotEmpty(f"{folder} is not empty; choose a new or empty folder")


def write_skeleton(folder: Path) -> list[Path]:
    """Writes the skeleton into `folder`, never over an existing file; returns the files written."""
    written = []
    for relative, text in skeleton_files():
        # The data folder's one write rule (no link followed below `folder`, whole or not at all).
        write_file(folder, relative.as_posix(), text.encode("utf-8"), replace=False)
        written.append(folder / relative)
    return written
