"""A real package: the wheel lists every package folder of builder/ and ships templates/ inside it.

CI (.ci/run) builds the wheel, installs it into a fresh environment outside the checkout and builds
the demo with it; this test keeps the explicit package list in pyproject.toml from falling behind
the folders on disk, which would leave a subpackage out of the wheel.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_and_the_templates_are_in_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "builder").rglob("__init__.py")
    }
    assert set(setuptools["packages"]) == on_disk | {"builder.templates"}
    assert setuptools["package-dir"] == {"builder.templates": "templates"}
    assert setuptools["package-data"]["builder.templates"] == ["**/*"]
    assert (ROOT / "templates" / "base.html").is_file() and (ROOT / "templates" / "static").is_dir()
