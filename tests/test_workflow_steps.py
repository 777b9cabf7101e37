"""The workflow `scorecards new` writes, run step by step as the runner would, in a repository `new` made.

Every `run:` step of a job runs in order, in the repository's folder, as GitHub's runner runs it
(`bash --noprofile --norc -eo pipefail`), with the variables the runner sets (`GITHUB_ACTIONS`,
`GITHUB_WORKSPACE`, `RUNNER_TEMP` …) and each `${{ … }}` of a step's `env:` given the value the
runner or the action before it would give (the Pages URL as configure-pages reports it). The `uses:`
steps stand for what they do here: checkout is the folder itself, setup-python is a fresh virtual
environment on PATH, the caches start empty (a first run), and the upload step is checked: the file
its `path:` names must be the Pages artifact tar; the attest step likewise: its `subject-path` must
name that tar and the site's manifest beside it, the manifest the tar holds. An action or an expression this test does not know
fails it, so a change to the workflow is a change to this test too.

Scorecards is installed the way the workflow installs it, `pip install -r requirements.txt`: the wheel
`scorecards new` carried into the repository's vendor/ (this checkout, packed), and no index
(`PIP_NO_INDEX`). Its dependencies (DuckDB,
tdqs, Pagefind's binary …) cannot come from an index either, and a wheel of each cannot be made
without one, so the virtual environment sees the ones installed here: a `.pth` file names a folder
of links to this environment's site-packages, less this project's own files (its dist-info and
editable-install hooks), so pip finds every dependency already satisfied and installs only the wheel.
The test checks that `builder` is then imported from the virtual environment, not the checkout.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
BASE_URL = "https://owner.github.io/repo"
"""What actions/configure-pages reports as `base_url` for the project page of owner/repo."""


def _site_packages() -> list[str]:
    return list(dict.fromkeys((sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])))


def _project_entries() -> set[str]:
    """This project's top-level entries in site-packages: its dist-info, its editable-install hooks, or
    its packages when installed from a wheel. Read from site-packages itself: with the checkout on
    sys.path, importlib.metadata would find the checkout's own `*.egg-info` (which an editable
    install writes there) first, and its file list names none of these."""
    name = DISTRIBUTION.replace("-", "_")
    found = [d for d in importlib.metadata.distributions(path=_site_packages())
             if (d.metadata["Name"] or "").replace("-", "_").lower() == name]
    entries = {file.parts[0] for d in found for file in d.files or [] if not file.parts[0].startswith("..")}
    return entries | {"builder", "scorecards_demo"}


def _runner_python(work: Path) -> Path:
    """A virtual environment standing for setup-python's interpreter; returns its bin folder."""
    venv = work / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    deps = work / "dependencies"
    deps.mkdir()
    skip = _project_entries()
    name = DISTRIBUTION.replace("-", "_")
    for folder in _site_packages():
        for entry in Path(folder).iterdir():
            if entry.name in skip or entry.name.startswith(("pip", "_distutils_hack", "__editable__", name)) \
                    or entry.suffix == ".pth" or (deps / entry.name).exists():
                continue
            (deps / entry.name).symlink_to(entry)
    site_packages = next((venv / "lib").glob("python*/site-packages"))
    (site_packages / "test-environment-dependencies.pth").write_text(f"{deps}\n")
    return venv / "bin"


@dataclass
class Runner:
    """What a GitHub-hosted runner gives a job: the variables, the interpreter, the temporary folder."""

    work: Path
    bin: Path

    def environment(self, repo: Path, event: str) -> dict[str, str]:
        temp = self.work / "runner-temp"
        temp.mkdir(exist_ok=True)
        keep = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "TMPDIR", "SCORECARDS_CHROMIUM")
                if key in os.environ}
        return {
            **keep,
            "PATH": f"{self.bin}{os.pathsep}{keep.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(self.work / "home"),
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event,
            "GITHUB_WORKSPACE": str(repo), "GITHUB_REPOSITORY": "owner/repo", "GITHUB_REF": "refs/heads/main",
            "GITHUB_SHA": "0" * 40, "RUNNER_OS": "Linux", "RUNNER_TEMP": str(temp),
            "GITHUB_OUTPUT": str(temp / "output"), "GITHUB_ENV": str(temp / "env"),
            "GITHUB_STEP_SUMMARY": str(temp / "summary"),
            # pip as the workflow runs it, but never from an index: the carried wheel is a file.
            "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_CACHE_DIR": str(self.work / "pip-cache"),
        }


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runner]:
    work = tmp_path_factory.mktemp("runner")
    yield Runner(work=work, bin=_runner_python(work))


def _expression(text: str, values: dict[str, str]) -> str:
    """`${{ name }}` replaced by its value; an expression this test gives no value fails it."""
    def value(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        assert name in values, f"the test gives no value to ${{{{ {name} }}}}"
        return values[name]
    return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))


@dataclass
class Ran:
    steps: list[subprocess.CompletedProcess[str]]
    uploaded: list[Path]
    cached: list[Path]
    attested: list[list[Path]] = field(default_factory=list)


def run_job(runner: Runner, repo: Path, job: dict[str, Any], event: str) -> Ran:
    """The job's steps in order, stopping at the first that fails, as the runner does."""
    env = runner.environment(repo, event)
    values = {"runner.temp": env["RUNNER_TEMP"], "github.workspace": str(repo), "github.sha": env["GITHUB_SHA"],
              "steps.pages.outputs.base_url": BASE_URL}
    ran = Ran(steps=[], uploaded=[], cached=[])
    assert "env" not in job and "defaults" not in job
    for step in job["steps"]:
        assert "if" not in step, f"a step condition this test does not evaluate: {step}"
        if "run" in step:
            script = runner.work / "step.sh"
            script.write_text(step["run"])
            step_env = {**env, **{key: _expression(value, values) for key, value in step.get("env", {}).items()}}
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=repo,
                                    env=step_env, capture_output=True, text=True, check=False, timeout=600)
            ran.steps.append(result)
            if result.returncode != 0:
                break
            continue
        action, _, _ = step["uses"].partition("@")
        for name in re.findall(r"hashFiles\('([^']+)'\)", " ".join(map(str, step.get("with", {}).values()))):
            # The runner hashes the files; a key on a file that is not there would never change.
            assert (repo / name).is_file(), f"hashFiles('{name}'): no such file in the repository"
            values[f"hashFiles('{name}')"] = hashlib.sha256((repo / name).read_bytes()).hexdigest()
        given = {key: _expression(value, values) for key, value in step.get("with", {}).items()}
        if action == "actions/checkout":
            assert given == {"persist-credentials": "False"}  # the repository folder is the checkout
        elif action == "actions/setup-python":
            # Its pip cache is keyed on requirements.txt, which must be there (else the step fails).
            assert given["cache"] == "pip" and "cache-dependency-path" not in given
            assert (repo / "requirements.txt").is_file()
        elif action == "actions/configure-pages":
            assert step["id"] == "pages"  # its base_url output is BASE_URL
        elif action in {"actions/cache", "actions/cache/restore"}:
            ran.cached.append(Path(given["path"]))  # a first run: nothing to restore
            assert given["key"].startswith(given["restore-keys"])  # a new entry each run, the newest restored
        elif action == "actions/upload-artifact":
            assert given["name"] == "github-pages" and given["if-no-files-found"] == "error"
            ran.uploaded.append(Path(given["path"]))
        elif action == "actions/attest":
            # It signs what subject-path names (one path a line): those files must be there, now.
            subjects = [Path(line) for line in given["subject-path"].splitlines() if line.strip()]
            assert set(given) == {"subject-path"} and all(path.is_file() for path in subjects), given
            ran.attested.append(subjects)
        elif action == "actions/deploy-pages":
            pass  # publishes the github-pages artifact uploaded by the job it needs
        else:
            raise AssertionError(f"an action this test does not stand in for: {step['uses']}")
    return ran


def jobs_for(workflow: dict[str, Any], event: str) -> list[tuple[str, dict[str, Any]]]:
    """The jobs an event runs, in the order of `needs`: a job runs when its condition holds and every
    job it needs ran (a skipped job skips those that need it)."""
    conditions = {None: True, "github.event_name == 'pull_request'": event == "pull_request",
                  "github.event_name != 'pull_request'": event != "pull_request"}
    ran: dict[str, dict[str, Any]] = {}
    for name, job in workflow["jobs"].items():  # written in the order they run
        assert job.get("if") in conditions, f"a job condition this test does not evaluate: {job['if']}"
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        assert all(need in workflow["jobs"] and list(workflow["jobs"]).index(need) < list(workflow["jobs"]).index(name)
                   for need in needs)
        if conditions[job.get("if")] and all(need in ran for need in needs):
            ran[name] = job
    return list(ran.items())


def scorecards(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "builder.cli", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository made by `scorecards new`, with a small demo corpus in data/."""
    parent = tmp_path_factory.mktemp("operator")
    scorecards("new", "site", cwd=parent)
    scorecards("demo", "corpus", "--servers", "2", "--tools", "4", cwd=parent)
    shutil.copytree(parent / "corpus", parent / "site" / "data", dirs_exist_ok=True)
    return parent / "site"


def workflow(repo: Path) -> dict[str, Any]:
    return yaml.safe_load((repo / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))


def assert_pages_artifact(tar: Path, base_url: str | None) -> None:
    assert tarfile.is_tarfile(tar), tar
    with tarfile.open(tar) as archive:
        names = {name.removeprefix("./") for name in archive.getnames()}
        assert "index.html" in names and "404.html" in names
        member = archive.extractfile(next(m for m in archive.getmembers() if m.name.removeprefix("./") == "index.html"))
        assert member is not None
        page = member.read().decode("utf-8")
    if base_url:
        assert f'href="{base_url}/"' in page  # the canonical link: the Pages URL reached the build


def test_a_push_to_main_installs_the_pinned_wheel_builds_and_uploads_the_pages_artifact(
        runner: Runner, repository: Path) -> None:
    jobs = jobs_for(workflow(repository), "push")
    assert [name for name, _ in jobs] == ["build", "deploy"]
    build = run_job(runner, repository, jobs[0][1], "push")
    assert [step.returncode for step in build.steps] == [0, 0, 0], [step.stderr for step in build.steps]
    assert f"Successfully installed {DISTRIBUTION}-" in build.steps[0].stdout
    # The wheel runs, not this checkout.
    where = subprocess.run([runner.bin / "python", "-c", "import builder; print(builder.__file__)"],
                           capture_output=True, text=True, check=True, cwd=repository).stdout
    assert where.startswith(str(runner.work / "python")), where
    assert len(build.uploaded) == 1 and build.cached == [build.uploaded[0].parent]  # the cache keeps the build
    assert_pages_artifact(build.uploaded[0], BASE_URL)
    # The attestation covers the very tar uploaded and the manifest it holds, copied beside it.
    tar = build.uploaded[0]
    assert build.attested == [[tar, tar.parent / "manifest.jsonl"]]
    with tarfile.open(tar) as archive:
        member = archive.extractfile("manifest.jsonl")
        assert member is not None and member.read() == (tar.parent / "manifest.jsonl").read_bytes()
    deploy = run_job(runner, repository, jobs[1][1], "push")
    assert deploy.steps == [] and jobs[1][1]["needs"] == "build"


def test_a_pull_request_is_checked_and_built_and_a_bad_file_is_an_annotation_and_exit_1(
        runner: Runner, repository: Path, tmp_path: Path) -> None:
    jobs = jobs_for(workflow(repository), "pull_request")
    assert [name for name, _ in jobs] == ["check"]
    check = jobs[0][1]
    good = run_job(runner, repository, check, "pull_request")
    assert [step.returncode for step in good.steps] == [0, 0, 0, 0], [step.stdout + step.stderr for step in good.steps]
    assert "::" not in good.steps[1].stdout and good.uploaded == []
    assert len(good.cached) == 1
    assert_pages_artifact(good.cached[0] / "artifact.tar", None)

    contributed = tmp_path / "contributed"
    shutil.copytree(repository, contributed)
    bad = contributed / "data" / "servers" / "contributed" / "2026-06-01T00-00-00Z.score.json"
    bad.parent.mkdir()
    bad.write_text('{"server": "contributed", "tools": [', encoding="utf-8")
    failed = run_job(runner, contributed, check, "pull_request")
    assert [step.returncode for step in failed.steps] == [0, 1]  # the build step never runs
    annotations = [line for line in failed.steps[1].stdout.splitlines() if line.startswith("::error ")]
    assert any(line.startswith(
        "::error file=data/servers/contributed/2026-06-01T00-00-00Z.score.json,title=tdqs%3A $::"
        "servers/contributed/2026-06-01T00-00-00Z.score.json: $: not valid JSON") for line in annotations), annotations


def _reused(step: subprocess.CompletedProcess[str]) -> int:
    found = re.search(r"^built [\d,]+ files(?:, build-report\.json and manifest\.jsonl)? \(([\d,]+) reused from the previous build\)",
                      step.stdout, flags=re.MULTILINE)
    assert found, step.stdout + step.stderr
    return int(found.group(1).replace(",", ""))


def test_a_pull_request_build_reuses_the_published_build_as_a_publish_rebuild_would(
        runner: Runner, repository: Path) -> None:
    """The check job builds with the base URL the last publish used (kept beside its output), so every output
    the pull request does not change is lent from that build: as many as a second publish would lend."""
    push, pull_request = workflow(repository), workflow(repository)
    build = dict(jobs_for(push, "push"))["build"]
    check = dict(jobs_for(pull_request, "pull_request"))["check"]
    published = run_job(runner, repository, build, "push")
    assert [step.returncode for step in published.steps] == [0, 0, 0]
    republished = run_job(runner, repository, build, "push")
    assert [step.returncode for step in republished.steps] == [0, 0, 0]
    checked = run_job(runner, repository, check, "pull_request")
    assert [step.returncode for step in checked.steps] == [0, 0, 0, 0], [step.stderr for step in checked.steps]
    assert _reused(checked.steps[2]) == _reused(republished.steps[1]) > 0
    assert_pages_artifact(checked.cached[0] / "artifact.tar", BASE_URL)


def test_a_pull_request_that_drops_a_tier_is_summarised_and_fails_the_budget_that_forbids_it(
        runner: Runner, repository: Path, tmp_path: Path) -> None:
    """Published: the hand-made base of tests/diff_pair.py; the pull request: its head, where alpha falls from A to
    C. The job summary says so, alpha's new capture gets a warning, and `tier_drop = true` fails the check (exit 6)."""
    from diff_pair import write_base, write_head

    repo = tmp_path / "registry"
    shutil.copytree(repository, repo)
    shutil.rmtree(runner.work / "runner-temp", ignore_errors=True)  # this registry's first publish
    shutil.rmtree(repo / "data")
    write_base(repo / "data")
    scorecards("index", "data", cwd=repo)
    with (repo / "scorecards.toml").open("a", encoding="utf-8") as settings:
        settings.write("\n[budgets]\ntier_drop = true\n")
    published = run_job(runner, repo, dict(jobs_for(workflow(repo), "push"))["build"], "push")
    assert [step.returncode for step in published.steps] == [0, 0, 0], [step.stderr for step in published.steps]

    shutil.rmtree(repo / "data")
    write_head(repo / "data")
    scorecards("index", "data", cwd=repo)
    summary = runner.work / "runner-temp" / "summary"
    checked = run_job(runner, repo, dict(jobs_for(workflow(repo), "pull_request"))["check"], "pull_request")
    assert [step.returncode for step in checked.steps] == [0, 0, 0, 6], [s.stdout + s.stderr for s in checked.steps]
    said = summary.read_text(encoding="utf-8")
    assert "**2 budgets failed**" in said
    assert "Compared the published site (data as of 2026-06-01T00:00:00.000Z) with this pull request (data as of " \
        "2026-06-02T00:00:00.000Z): TDQS." in said
    assert "- tier\\_drop: alpha falls from A to C" in said and "| alpha | A → C (down 2) | 4.0 → 2.9 |" in said
    diff = checked.steps[3]
    assert diff.stderr.splitlines() == ["scorecards diff: budget failed: tier_drop: beta falls from A to no tier",
                                        "scorecards diff: budget failed: tier_drop: alpha falls from A to C"]
    assert "::warning file=data/servers/alpha/2026-06-02T00-00-00Z.score.json,title=Score change%3A alpha::" \
        "alpha (alpha): tier A → C" in diff.stdout
