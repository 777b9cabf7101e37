"""`scorecards new DIR`: a repository ready to push, as `hugo new site` or `mkdocs new` make one.

It holds an empty data folder (or, with `--demo`, the generated demo corpus), `scorecards.toml`
with every key documented, the GitHub Pages workflow pinned to the scorecards version that made it,
a README that says how to add results and publish, and a `.gitignore` for the build's output. The
files are package data (`templates/new/`, dotfiles stored as `dot-…`); the version goes in for
`@SCORECARDS_VERSION@`. A folder that is not empty is refused: `new` never mixes with what is there.
"""

from __future__ import annotations

import os
from importlib.metadata import version
from pathlib import Path

from builder.engine.assets import TEMPLATES
from builder.sources.data_writes import write_file

SKELETON = TEMPLATES / "new"
PLACEHOLDER = "@SCORECARDS_VERSION@"


class NotEmpty(Exception):
    """The target folder exists and holds something."""


def _target_name(relative: Path) -> Path:
    return Path(*(f".{part[4:]}" if part.startswith("dot-") else part for part in relative.parts))


def skeleton_files() -> list[tuple[Path, str]]:
    """(path inside the new repository, text) for every file of the skeleton, sorted."""
    current = version("scorecards")
    return [
        (_target_name(path.relative_to(SKELETON)), path.read_text(encoding="utf-8").replace(PLACEHOLDER, current))
        for path in sorted(SKELETON.rglob("*")) if path.is_file()
    ]


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
