"""`scorecards new DIR`: a repository ready to push, made only in a missing or empty folder."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
VERSION = PROJECT["version"]
DISTRIBUTION = PROJECT["name"]


def scorecards(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False, env={**os.environ, "HOME": str(cwd)})


def test_new_makes_a_repository_that_pins_the_version_that_made_it(tmp_path: Path) -> None:
    result = scorecards("new", "registry", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    repo = tmp_path / "registry"
    files = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    wheel = f"vendor/{DISTRIBUTION.replace('-', '_')}-{VERSION}-py3-none-any.whl"
    assert files == [".github/dependabot.yml", ".github/workflows/pages.yml", ".gitignore", "README.md",
                     "data/README.md", "requirements.txt", "scorecards.toml", wheel]
    # This checkout is not installed from an index, so the index may not have its version: the one line
    # pip reads is the carried wheel, pinned by the SHA-256 of its bytes.
    digest = hashlib.sha256((repo / wheel).read_bytes()).hexdigest()
    requirements = (repo / "requirements.txt").read_text().splitlines()
    assert [line for line in requirements if line and not line.startswith("#")] == [f"file:./{wheel}#sha256={digest}"]
    settings = tomllib.loads((repo / "scorecards.toml").read_text())
    assert settings == {"title": "MCP Scorecards"}  # every other key documented, commented out
    for path in files:
        if not path.endswith(".whl"):
            assert "@SCORECARDS_" not in (repo / path).read_text(), path
    dependabot = yaml.safe_load((repo / ".github" / "dependabot.yml").read_text())
    assert dependabot["version"] == 2
    assert {(update["package-ecosystem"], update["directory"]) for update in dependabot["updates"]} == {
        ("pip", "/"), ("github-actions", "/")}


def test_with_install_index_the_repository_pins_the_index_version_and_carries_no_wheel(tmp_path: Path) -> None:
    result = scorecards("new", "registry", "--install", "index", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    repo = tmp_path / "registry"
    requirements = (repo / "requirements.txt").read_text().splitlines()
    assert [line for line in requirements if line and not line.startswith("#")] == [f"{DISTRIBUTION}=={VERSION}"]
    assert not (repo / "vendor").exists()


def test_the_carried_wheel_is_the_running_code_and_the_same_bytes_every_time(tmp_path: Path) -> None:
    for name in ("one", "two"):
        assert scorecards("new", name, cwd=tmp_path).returncode == 0
    wheels = [next((tmp_path / name / "vendor").glob("*.whl")) for name in ("one", "two")]
    assert wheels[0].read_bytes() == wheels[1].read_bytes()
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        assert wheel.read("builder/cli.py") == (ROOT / "builder" / "cli.py").read_bytes()
        assert wheel.read("builder/templates/base.html") == (ROOT / "templates" / "base.html").read_bytes()
        assert wheel.read("scorecards_demo/__init__.py") == (ROOT / "scorecards_demo" / "__init__.py").read_bytes()
        info = f"{DISTRIBUTION.replace('-', '_')}-{VERSION}.dist-info"
        assert b"scorecards = builder.cli:main" in wheel.read(f"{info}/entry_points.txt")
        record = wheel.read(f"{info}/RECORD").decode().splitlines()
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)
    # RECORD lists every other file with its SHA-256 (urlsafe base64) and size, as pip checks on install.
    assert sorted(line.split(",")[0] for line in record) == sorted(names)


def workflow_of(repo: Path) -> dict:
    return yaml.safe_load((repo / ".github" / "workflows" / "pages.yml").read_text())


def test_the_workflow_checks_pull_requests_and_only_its_deploy_job_may_publish(tmp_path: Path) -> None:
    assert scorecards("new", "site", cwd=tmp_path).returncode == 0
    repo = tmp_path / "site"
    workflow = workflow_of(repo)
    # pyyaml reads the key `on` as True (YAML 1.1).
    assert set(workflow[True]) == {"push", "pull_request", "workflow_dispatch"}
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    assert {name: job.get("permissions") for name, job in jobs.items()} == {
        "check": None, "build": {"contents": "read", "pages": "read", "id-token": "write", "attestations": "write"},
        "deploy": {"pages": "write", "id-token": "write"}}
    assert jobs["check"]["if"] == "github.event_name == 'pull_request'"
    assert jobs["build"]["if"] == "github.event_name != 'pull_request'" and jobs["deploy"]["needs"] == "build"
    steps = [step for job in jobs.values() for step in job["steps"]]
    for step in steps:
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False
        # Expressions reach a script only through its environment, never spliced into its text.
        assert "${{" not in step.get("run", "")
    check = [step.get("run") for step in jobs["check"]["steps"] if "run" in step]
    assert check[:2] == ["pip install -r requirements.txt", "scorecards check data --strict"]
    # Built with the base URL of the last published build, so that its pages are reused.
    assert check[2].splitlines()[-1] == 'scorecards build data -o "$OUT/artifact.tar" --base-url "$base_url"'
    assert 'base_url="$(cat "$OUT/base-url")"' in check[2]
    # The published build kept before the build replaces it, then compared with the pull request's.
    assert 'ln -f "$OUT/artifact.tar" "$RUNNER_TEMP/published.tar"' in check[2]
    assert 'scorecards diff "$RUNNER_TEMP/published.tar" "$OUT/artifact.tar"' in check[3]
    assert '--summary "$GITHUB_STEP_SUMMARY"' in check[3]
    assert not any(step.get("uses", "").startswith(("actions/upload", "actions/deploy", "actions/cache@"))
                   for step in jobs["check"]["steps"])  # nothing published, no cache written
    build = [step.get("run") for step in jobs["build"]["steps"] if "run" in step]
    assert build == ["pip install -r requirements.txt",
                     'scorecards build data -o "$OUT/artifact.tar" --base-url "$BASE_URL/"\n'
                     'printf \'%s/\\n\' "$BASE_URL" > "$OUT/base-url"\n',
                     'tar -xOf "$OUT/artifact.tar" manifest.jsonl > "$OUT/manifest.jsonl"']
    python = [step for step in steps if step.get("uses", "").startswith("actions/setup-python@")]
    assert len(python) == 2 and all(step["with"]["cache"] == "pip" for step in python)


def test_every_action_is_pinned_by_commit_with_its_release_in_a_comment(tmp_path: Path) -> None:
    assert scorecards("new", "site", cwd=tmp_path).returncode == 0
    text = (tmp_path / "site" / ".github" / "workflows" / "pages.yml").read_text()
    uses = re.findall(r"^\s*(?:- )?uses: (.*)$", text, flags=re.MULTILINE)
    assert len(uses) == 10
    for use in uses:
        assert re.fullmatch(r"actions/[a-z-]+(/restore)?@[0-9a-f]{40} # v\d+\.\d+\.\d+", use), use


def test_the_readme_turns_pages_on_before_the_first_push(tmp_path: Path) -> None:
    assert scorecards("new", "site", cwd=tmp_path).returncode == 0
    readme = (tmp_path / "site" / "README.md").read_text()
    create, pages, push = (readme.index(step) for step in (
        "Create an empty repository", "**Source** to **GitHub Actions**", "git push -u origin main"))
    assert create < pages < push
    assert "pip install -r requirements.txt" in readme and "Dependabot" in readme and f"{DISTRIBUTION}" in readme


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep\n")
    result = scorecards("new", "mine", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.strip() == "scorecards: mine is not empty; choose a new or empty folder"
    assert sorted(os.listdir(tmp_path / "mine")) == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    assert scorecards("new", "file", cwd=tmp_path).returncode == 2
    assert (tmp_path / "file").read_text() == "x"
