"""`scorecards new DIR`: a repository ready to push, as `hugo new site` or `mkdocs new` make one.

It holds an empty data folder (or, with `--demo`, the generated demo corpus), `scorecards.toml`
with every key documented, `requirements.txt` pinning the scorecards that made it (which the workflow
installs and setup-python's pip cache keys on): until the package index has that version, the wheel of
the running scorecards carried in `vendor/` and pinned by its SHA-256 (builder.running_wheel), so the
repository installs before the first release and never by a name the index may give someone else;
with `install="index"` (the default when the running scorecards came from an index), the index's
version, which Dependabot upgrades. Then the GitHub Pages
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
from typing import Literal

from builder.engine.assets import TEMPLATES
from builder.running_wheel import DISTRIBUTION, installed_from_index, running_wheel
from builder.sources.data_writes import write_file

SKELETON = TEMPLATES / "new"

Install = Literal["wheel", "index"]
"""How a new repository installs scorecards: the carried wheel, or the package index's version."""

VENDOR = Path("vendor")
"""Where a new repository keeps the carried wheel."""


class NotEmpty(Exception):
    """The target folder exists and holds something."""


def _target_name(relative: Path) -> Path:
    return Path(*(f".{part[4:]}" if part.startswith("dot-") else part for part in relative.parts))


def default_install() -> Install:
    """The index when the running scorecards was installed from one (so the index has its version),
    else the carried wheel (a wheel file, a checkout, an editable install)."""
    return "index" if installed_from_index() else "wheel"


def _requirement(install: Install, wheel_name: str, sha256: str) -> str:
    pinned = f"{DISTRIBUTION}=={version(DISTRIBUTION)}"
    if install == "index":
        return (f"# Installed from the package index; Dependabot proposes each new version as a pull request.\n"
                f"{pinned}")
    return (f"# Until the package index has {DISTRIBUTION} {version(DISTRIBUTION)}, it is installed from the wheel\n"
            f"# `scorecards new` carried into {VENDOR.as_posix()}/ (the code that made this repository), checked against its\n"
            f"# SHA-256: nothing is installed by a name the index may not have. Once the index has the version, replace\n"
            f"# the line below with `{pinned}` and delete {VENDOR.as_posix()}/ (README.md, \"Upgrade scorecards\").\n"
            f"file:./{(VENDOR / wheel_name).as_posix()}#sha256={sha256}")


def skeleton_files(install: Install = "wheel") -> list[tuple[Path, str | bytes]]:
    """(path inside the new repository, text or bytes) for every file of the skeleton, sorted; with the
    carried wheel when `install` is "wheel"."""
    wheel = running_wheel() if install == "wheel" else None
    values = {"@SCORECARDS_DISTRIBUTION@": DISTRIBUTION, "@SCORECARDS_VERSION@": version(DISTRIBUTION),
              "@SCORECARDS_REQUIREMENT@": _requirement(install, wheel.name, wheel.sha256) if wheel
              else _requirement(install, "", "")}
    files: list[tuple[Path, str | bytes]] = [
        (_target_name(path.relative_to(SKELETON)), _fill(path.read_text(encoding="utf-8"), values))
        for path in sorted(SKELETON.rglob("*")) if path.is_file()]
    if wheel is not None:
        files.append((VENDOR / wheel.name, wheel.data))
    return sorted(files, key=lambda item: item[0].as_posix())


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


def write_skeleton(folder: Path, install: Install = "wheel") -> list[Path]:
    """Writes the skeleton into `folder`, never over an existing file; returns the files written."""
    written = []
    for relative, content in skeleton_files(install):
        # The data folder's one write rule (no link followed below `folder`, whole or not at all).
        write_file(folder, relative.as_posix(), content.encode("utf-8") if isinstance(content, str) else content,
                   replace=False)
        written.append(folder / relative)
    return written
