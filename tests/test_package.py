"""A real package: the wheel lists every package folder and ships templates/ and the demo vocabulary,
carries the licence text and the package index's own page; the sdist carries what the tests read.

CI (.ci/run) builds the wheel, installs it into a fresh environment outside the checkout and builds
the demo with it; these tests keep the explicit package list in pyproject.toml from falling behind
the folders on disk, which would leave a subpackage out of the wheel.
"""

from __future__ import annotations

import email
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


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


def test_the_wheel_carries_the_licence_text_and_the_index_page(tmp_path: Path) -> None:
    """Apache-2.0 §4(a): a copy of the licence goes with every copy of the work."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("mcp_scorecard_site-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        info = next(name.split("/")[0] for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        licence = archive.read(f"{info}/licenses/LICENSE")
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
    assert licence == (ROOT / "LICENSE").read_bytes()
    assert licence.split()[:3] == [b"Apache", b"License", b"Version"] and b"END OF TERMS AND CONDITIONS" in licence
    assert metadata["Name"] == "mcp-scorecard-site" and metadata["License-Expression"] == "Apache-2.0"
    classifiers = metadata.get_all("Classifier")
    assert {"Operating System :: POSIX :: Linux", "Operating System :: MacOS"} <= set(classifiers)
    assert not [c for c in classifiers if "Windows" in c or "OS Independent" in c]
    assert metadata.get_payload(decode=True) == (ROOT / "docs" / "pypi.md").read_bytes()


def test_the_index_page_links_only_to_the_repository_and_names_the_platforms() -> None:
    """The package index shows docs/pypi.md without the repository around it: no relative link."""
    repository = PROJECT["urls"]["Repository"]
    tokens = MarkdownIt("commonmark").parse((ROOT / "docs" / "pypi.md").read_text(encoding="utf-8"))
    links = [child.attrs["href"] for token in tokens for child in token.children or () if child.type == "link_open"]
    assert links and all(str(link).startswith(repository) for link in links), links
    assert all(str(url).startswith(repository) for url in PROJECT["urls"].values())
    for page in ("docs/pypi.md", "README.md"):
        assert "Windows is not supported" in (ROOT / page).read_text(encoding="utf-8"), page


def test_the_sdist_carries_every_top_level_file_the_tests_read() -> None:
    read = set()
    for test in (ROOT / "tests").rglob("*.py"):
        read |= set(re.findall(r'(?:ROOT|parents\[1\]|parent\.parent) / "([^"/]+)"', test.read_text(encoding="utf-8")))
    directives = [line.split() for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()]
    shipped = {name for words in directives if words and words[0] in ("graft", "include") for name in words[1:]}
    assert "data" in read and "tests" in shipped and "LICENSE" in PROJECT["license-files"]
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = {package.split(".")[0] for package in setuptools["packages"]}  # shipped as the packages
    assert read - {"test-output"} <= shipped | packages | {"pyproject.toml", "MANIFEST.in", *PROJECT["license-files"]}
