"""Every workflow the project ships (its own, the one `scorecards new` writes) and the action: read-only
at the top, write scopes only on the job that needs them, checkout without its credentials, every
action pinned by commit with its release in a comment, the same commit for the same action
everywhere. zizmor and actionlint review the same files in .ci/run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted([*(ROOT / ".github" / "workflows").glob("*.yml"),
                    *(ROOT / "templates" / "new" / "dot-github" / "workflows").glob("*.yml")])
PINNED = re.compile(r"(?P<action>[\w.-]+/[\w.-]+(?:/[\w.-]+)?)@(?P<commit>[0-9a-f]{40}) # (?P<release>v\d+\.\d+\.\d+)")


def load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_this_repository_has_dependabot_for_its_own_pins() -> None:
    dependabot = load(ROOT / ".github" / "dependabot.yml")
    assert {(update["package-ecosystem"], update["directory"]) for update in dependabot["updates"]} == {
        ("github-actions", "/"), ("pip", "/")}


def test_the_shipped_files_are_the_four_workflows_and_the_action() -> None:
    assert [path.relative_to(ROOT).as_posix() for path in WORKFLOWS] == [
        ".github/workflows/pages.yml", ".github/workflows/release.yml", ".github/workflows/test.yml",
        "templates/new/dot-github/workflows/pages.yml"]
    assert not (ROOT / "docs" / "workflows").exists()  # one workflow serves a small site and a registry


def test_every_action_is_pinned_by_commit_and_the_same_everywhere() -> None:
    pins: dict[str, set[tuple[str, str]]] = {}
    for path in [*WORKFLOWS, ROOT / "action.yml"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if (use := re.match(r"\s*(?:- )?uses: (.*)$", line)) is None or use.group(1) == "./":
                continue
            pinned = PINNED.fullmatch(use.group(1))
            assert pinned, f"{path.name}: {use.group(1)}"
            base = pinned["action"].split("/")[0] + "/" + pinned["action"].split("/")[1]
            pins.setdefault(base, set()).add((pinned["commit"], pinned["release"]))
    assert {action: len(found) for action, found in pins.items()} == dict.fromkeys(pins, 1), pins
    assert set(pins) == {"actions/checkout", "actions/setup-python", "actions/configure-pages", "actions/cache",
                         "actions/upload-artifact", "actions/download-artifact", "actions/deploy-pages",
                         "actions/attest", "pypa/gh-action-pypi-publish"}


def test_read_only_at_the_top_and_write_scopes_only_where_needed() -> None:
    granted = {}
    for path in WORKFLOWS:
        workflow = load(path)
        assert workflow["permissions"] == {"contents": "read"}, path
        for name, job in workflow["jobs"].items():
            if "permissions" in job:
                granted[f"{path.relative_to(ROOT).as_posix()}:{name}"] = job["permissions"]
            for step in job["steps"]:
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, (path, name)
    assert granted == {  # tests/test_permissions.py checks each against what its steps need
        ".github/workflows/pages.yml:build": {"contents": "read", "pages": "read"},
        ".github/workflows/pages.yml:deploy": {"pages": "write", "id-token": "write"},
        ".github/workflows/release.yml:publish": {"id-token": "write", "attestations": "write"},
        ".github/workflows/release.yml:github-release": {"contents": "write"},
        "templates/new/dot-github/workflows/pages.yml:build": {"contents": "read", "pages": "read", "id-token": "write",
                                                               "attestations": "write"},
        "templates/new/dot-github/workflows/pages.yml:deploy": {"pages": "write", "id-token": "write"},
    }


def test_this_repository_publishes_with_its_own_action() -> None:
    build = load(ROOT / ".github" / "workflows" / "pages.yml")["jobs"]["build"]
    assert [step.get("uses", "").split("@")[0] for step in build["steps"]] == ["actions/checkout", "./"]


def test_a_tag_releases_a_checked_and_tested_distribution_by_trusted_publishing() -> None:
    release = load(ROOT / ".github" / "workflows" / "release.yml")
    assert release[True] == {"push": {"tags": ["v*"]}}  # pyyaml reads the key `on` as True
    jobs = release["jobs"]
    runs = "\n".join(step.get("run", "") for step in jobs["build"]["steps"])
    assert "python -m build" in runs and "twine check --strict dist/*" in runs and "/venv/bin/pip\" install dist/*.whl" in runs
    assert jobs["publish"]["needs"] == "build" and jobs["publish"]["environment"] == {"name": "pypi"}
    assert jobs["publish"]["steps"][-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert "with" not in jobs["publish"]["steps"][-1]  # no password: the OIDC token is the credential
    assert jobs["github-release"]["needs"] == "publish"
    # No cache in a release: what is published is built from nothing.
    assert not any("cache" in str(step) for job in jobs.values() for step in job["steps"])


def test_the_tests_run_on_every_python_the_package_claims_with_types_and_lint() -> None:
    """The workflow's matrix is the package's classifiers (3.11, 3.12, 3.13): a version claimed is a
    version tested, each with the suite (the template contract among it), mypy and ruff."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = [c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    job = load(ROOT / ".github" / "workflows" / "test.yml")["jobs"]["test"]
    assert job["strategy"]["matrix"]["python"] == claimed == ["3.11", "3.12", "3.13"]
    assert job["strategy"]["fail-fast"] is False
    python = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/setup-python@"))
    assert python["with"]["python-version"] == "${{ matrix.python }}"
    runs = [step.get("run", "") for step in job["steps"]]
    assert "pip install -e '.[test]' && pytest" in runs and "mypy" in runs
    assert any(run.startswith("ruff check") for run in runs)
