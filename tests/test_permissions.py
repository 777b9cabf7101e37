"""Every job's token has what its steps need and nothing more: the repository's own workflows, the
action (through the jobs that use it), the workflow `scorecards new` writes, and the workflows the
README shows an operator.

What each action and API call needs is written out here from the actions' own documentation and
sources, not read from the workflows under test: a job's permissions must equal the union of its
steps' needs (a `write` covers a `read`). A job without `permissions:` has the workflow's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from builder.scaffold import skeleton_files

ROOT = Path(__file__).resolve().parents[1]

ACTION_NEEDS: dict[str, dict[str, str]] = {
    "actions/checkout": {"contents": "read"},  # clones the repository with the job's token
    "actions/setup-python": {},
    # Reads the Pages site (GET /repos/{owner}/{repo}/pages) for its base_url: `pages: read`
    # (actions/configure-pages#188: "Get Pages site failed ... Resource not accessible by integration").
    "actions/configure-pages": {"pages": "read"},
    # The cache and artifact services take the runner's own token, not the job's GITHUB_TOKEN.
    "actions/cache": {}, "actions/cache/restore": {}, "actions/cache/save": {},
    "actions/upload-artifact": {}, "actions/download-artifact": {}, "actions/upload-pages-artifact": {},
    "actions/deploy-pages": {"pages": "write", "id-token": "write"},  # creates the deployment, proves its origin
    "actions/attest": {"id-token": "write", "attestations": "write"},  # signing certificate; stores the attestation
    "pypa/gh-action-pypi-publish": {"id-token": "write"},  # trusted publishing
}
RUN_NEEDS: dict[str, dict[str, str]] = {
    "gh release create": {"contents": "write"},  # POST /repos/{owner}/{repo}/releases
}
LEVEL = {"none": 0, "read": 1, "write": 2}


def _add(needs: dict[str, str], more: dict[str, str]) -> None:
    for scope, level in more.items():
        if LEVEL[level] > LEVEL[needs.get(scope, "none")]:
            needs[scope] = level


def _action_needs(uses: str) -> dict[str, str]:
    """What one `uses:` needs: a listed action, or this repository's own action (`./`, or
    `<owner>/scorecards@…` as the README writes it), whose composite steps are read from action.yml."""
    if uses == "./" or re.fullmatch(r"<owner>/scorecards@.*", uses):
        needs: dict[str, str] = {}
        for step in yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]:
            _add(needs, _step_needs(step))
        return needs
    action = uses.split("@")[0]
    assert action in ACTION_NEEDS, f"this test does not know what {action} needs: add it to ACTION_NEEDS"
    return ACTION_NEEDS[action]


def _step_needs(step: dict[str, Any]) -> dict[str, str]:
    if "uses" in step:
        return _action_needs(step["uses"])
    needs: dict[str, str] = {}
    for command, more in RUN_NEEDS.items():
        if command in step.get("run", ""):
            _add(needs, more)
    # A script that reaches the API some other way would need a listed command.
    assert "api.github.com" not in step.get("run", "") and "gh api" not in step.get("run", ""), step
    return needs


def _mismatches(name: str, workflow: dict[str, Any]) -> list[str]:
    found = []
    top = workflow.get("permissions", {})
    assert isinstance(top, dict), f"{name}: permissions must be listed scope by scope"
    for job_name, job in workflow["jobs"].items():
        needs: dict[str, str] = {}
        for step in job.get("steps", []):
            _add(needs, _step_needs(step))
        granted = job.get("permissions", top)
        if granted != needs:
            found.append(f"{name}:{job_name} has {granted}, its steps need {needs}")
    return found


def _shipped() -> list[tuple[str, dict[str, Any]]]:
    workflows = [(path.relative_to(ROOT).as_posix(), yaml.safe_load(path.read_text(encoding="utf-8")))
                 for path in sorted((ROOT / ".github" / "workflows").glob("*.yml"))]
    generated = [(f"new:{path.as_posix()}", yaml.safe_load(text)) for path, text in skeleton_files("index")
                 if path.parts[:2] == (".github", "workflows")]
    return workflows + generated


def _readme_workflows() -> list[tuple[str, dict[str, Any]]]:
    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.DOTALL)
    return [(f"README.md block {number}", yaml.safe_load(block)) for number, block in enumerate(blocks, 1)
            if "jobs:" in block]


def test_the_readme_shows_a_workflow() -> None:
    assert len(_readme_workflows()) >= 1


@pytest.mark.parametrize(("name", "workflow"), [*_shipped(), *_readme_workflows()],
                         ids=lambda value: value if isinstance(value, str) else "")
def test_each_job_has_exactly_what_its_steps_need(name: str, workflow: dict[str, Any]) -> None:
    assert _mismatches(name, workflow) == []


def test_a_build_job_without_pages_read_is_found() -> None:
    """The check this module makes finds the failure that stopped a first push: configure-pages in a job
    that may only read the repository."""
    job = {"steps": [{"uses": "actions/checkout@x"}, {"uses": "actions/configure-pages@x"}]}
    assert _mismatches("w", {"permissions": {"contents": "read"}, "jobs": {"build": job}}) == [
        "w:build has {'contents': 'read'}, its steps need {'contents': 'read', 'pages': 'read'}"]
    assert _mismatches("w", {"permissions": {"contents": "read"}, "jobs": {"build": {
        **job, "permissions": {"contents": "read", "pages": "write"}}}}) != []  # more than needed
