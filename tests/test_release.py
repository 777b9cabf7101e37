"""The release can publish: the sdist and the wheel, built from this checkout as release.yml builds them
(`python -m build`), pass the check the pinned publish action runs before it uploads (`twine check`,
with the twine that action pins), and strictly so, as release.yml's own check asks.

pypa/gh-action-pypi-publish v1.8.14, pinned here until this test, runs twine 5.0.0 with pkginfo 1.10.0,
which reject the Metadata-Version 2.4 that setuptools >= 77 writes ("Metadata is missing required
fields: Name, Version"): no version could reach the index. The action is pinned by commit in
release.yml; the twine version it runs is written here beside that commit, so an upgrade of the action
is an upgrade of this test's twine too (pyproject.toml's test extra)."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PUBLISH_ACTION = "pypa/gh-action-pypi-publish@dc37677b2e1c63e2034f94d8a5b11f265b73ba33"
"""v1.14.2, whose requirements/runtime.txt pins twine 7.0.0 (pypa/gh-action-pypi-publish#416)."""
ITS_TWINE = "7.0.0"


def _sources(target: Path) -> Path:
    """What the distributions are built from (the sdist's MANIFEST.in names the rest), outside the checkout
    so the build writes nothing into it."""
    for name in ("pyproject.toml", "README.md", "MANIFEST.in", "LICENSE", "action.yml"):
        shutil.copy2(ROOT / name, target / name)
    for name in ("builder", "templates", "scorecards_demo", "docs", "data", "tests", "bench", ".github"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "out"))
    return target


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("release")
    (work / "sources").mkdir()
    sources = _sources(work / "sources")
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(work / "dist"),
                            str(sources)], capture_output=True, text=True, check=False, timeout=600)
    if built.returncode != 0 and "Could not find a version that satisfies" in built.stdout + built.stderr:
        pytest.skip("the build backend (setuptools >= 77) cannot be installed: no package index here")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return work / "dist"


def test_the_release_workflow_pins_the_publish_action_whose_check_this_test_runs() -> None:
    release = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    uses = [step.get("uses", "") for step in release["jobs"]["publish"]["steps"]]
    assert uses[-1] == PUBLISH_ACTION
    assert importlib.metadata.version("twine") == ITS_TWINE


def test_the_distributions_are_metadata_2_4_and_pass_the_publish_actions_check(dist: Path) -> None:
    names = sorted(path.name for path in dist.iterdir())
    version = importlib.metadata.version("mcp-scorecard-site")
    assert names == [f"mcp_scorecard_site-{version}-py3-none-any.whl", f"mcp_scorecard_site-{version}.tar.gz"]
    with zipfile.ZipFile(dist / names[0]) as wheel:
        metadata = wheel.read(f"mcp_scorecard_site-{version}.dist-info/METADATA").decode("utf-8")
    assert metadata.startswith("Metadata-Version: 2.4\n")  # what the old action's twine could not read
    # The action's check, then release.yml's stricter one (warnings fail it too).
    for strict in ([], ["--strict"]):
        checked = subprocess.run([sys.executable, "-m", "twine", "check", *strict, *map(str, sorted(dist.iterdir()))],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert checked.stdout.count("PASSED") == 2 and "WARNING" not in checked.stdout, checked.stdout
