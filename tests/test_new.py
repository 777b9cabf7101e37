"""`scorecards new DIR`: a repository ready to push, made only in a missing or empty folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def scorecards(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False, env={**os.environ, "HOME": str(cwd)})


def test_new_makes_a_repository_with_a_pinned_workflow(tmp_path: Path) -> None:
    result = scorecards("new", "registry", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    repo = tmp_path / "registry"
    files = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    assert files == [".github/workflows/pages.yml", ".gitignore", "README.md", "data/README.md", "scorecards.toml"]
    workflow = yaml.safe_load((repo / ".github" / "workflows" / "pages.yml").read_text())
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses and all(re.fullmatch(r"actions/[a-z-]+@v\d+", use) for use in uses), uses
    runs = " ".join(step.get("run", "") for step in steps)
    assert f'pip install "scorecards=={VERSION}"' in runs and "scorecards build data -o site" in runs
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    settings = tomllib.loads((repo / "scorecards.toml").read_text())
    assert settings == {"title": "MCP Scorecards"}  # every other key documented, commented out
    readme = (repo / "README.md").read_text()
    assert "scorecards add" in readme and f"scorecards=={VERSION}" in readme and "@SCORECARDS_VERSION@" not in readme


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep\n")
    result = scorecards("new", "mine", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.strip() == "scorecards: mine is not empty; choose a new or empty folder"
    assert sorted(os.listdir(tmp_path / "mine")) == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    assert scorecards("new", "file", cwd=tmp_path).returncode == 2
    assert (tmp_path / "file").read_text() == "x"
