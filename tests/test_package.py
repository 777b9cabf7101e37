"""A real package: the wheel lists every package folder and ships templates/ and the demo vocabulary.

CI (.ci/run) builds the wheel, installs it into a fresh environment outside the checkout and builds
the demo with it; this test keeps the explicit package list in pyproject.toml from falling behind
the folders on disk, which would leave a subpackage out of the wheel.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_and_the_templates_are_in_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("builder", "scorecards_demo") for init in (ROOT / top).rglob("__init__.py")
    }
    assert set(setuptools["packages"]) == on_disk | {"builder.templates"}
    assert setuptools["package-data"]["scorecards_demo"] == ["data/*.toml"]
    assert setuptools["package-dir"] == {"builder.templates": "templates"}
    assert setuptools["package-data"]["builder.templates"] == ["**/*"]
    assert (ROOT / "templates" / "base.html").is_file() and (ROOT / "templates" / "static").is_dir()


def test_a_build_never_imports_the_demo_generator(tmp_path: Path) -> None:
    """The demo generator sits outside the site builder's import graph: a whole build (the CLI
    included) runs without importing it."""
    script = (
        "import sys; from builder.cli import main; "
        f"code = main(['build', {str(ROOT / 'data')!r}, '-o', {str(tmp_path / 'site')!r}, '--no-search']); "
        "assert code == 0, code; "
        "assert not [m for m in sys.modules if m.startswith('scorecards_demo')], 'the build imported the demo'"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
