"""action.yml, the composite action an operator's workflow names in one line: official actions only,
each pinned by commit with its release in a comment; scorecards installed from the action's own folder; the output folder
kept by actions/cache when asked; the artifact tar built with the Pages base URL and uploaded as
`github-pages`, which is what actions/deploy-pages deploys."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def action() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_the_action_is_composite_and_names_only_official_actions_pinned_by_commit() -> None:
    document = action()
    assert document["runs"]["using"] == "composite"
    steps = document["runs"]["steps"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses and all(re.fullmatch(r"actions/[a-z-]+@[0-9a-f]{40}", use) for use in uses), uses
    # The release each commit is, in a comment on the same line (what Dependabot updates with it).
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    assert all(re.search(re.escape(use) + r" # v\d+\.\d+\.\d+\n", text) for use in uses), uses
    assert {use.split("@")[0] for use in uses} == {
        "actions/setup-python", "actions/configure-pages", "actions/cache", "actions/upload-artifact"}
    assert all(step.get("shell") == "bash" for step in steps if "run" in step)  # composite steps must say


def test_the_inputs_are_the_data_folder_the_python_version_and_the_cache() -> None:
    inputs = action()["inputs"]
    assert {name: spec["default"] for name, spec in inputs.items()} == {
        "data": "data", "python-version": "3.11", "cache": "true"}
    steps = action()["runs"]["steps"]
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python@"))
    assert python["with"]["python-version"] == "${{ inputs.python-version }}"
    # An input is never spliced into a script's text (a data folder named `x"; rm -rf ~` stays a name).
    assert not any("inputs." in step.get("run", "") for step in steps)


def test_it_installs_itself_restores_the_build_builds_the_tar_and_uploads_it() -> None:
    steps = action()["runs"]["steps"]
    order = [s.get("uses", s.get("name", "")) for s in steps]
    install = next(s for s in steps if "pip install" in s.get("run", ""))
    assert install["run"] == 'pip install "$GITHUB_ACTION_PATH"'  # the runner's name for the action's folder
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert cache["if"] == "inputs.cache == 'true'"
    assert cache["with"]["restore-keys"] and cache["with"]["key"].startswith(cache["with"]["restore-keys"])
    build = next(s for s in steps if "scorecards build" in s.get("run", ""))
    assert build["run"] == 'scorecards build "$DATA" -o "$OUT/artifact.tar" --base-url "$BASE_URL/"'
    assert build["env"] == {"DATA": "${{ inputs.data }}", "OUT": cache["with"]["path"],
                            "BASE_URL": "${{ steps.pages.outputs.base_url }}"}
    pages = next(s for s in steps if s.get("uses", "").startswith("actions/configure-pages@"))
    assert pages["id"] == "pages"
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "github-pages"
    assert upload["with"]["path"] == cache["with"]["path"] + "/artifact.tar"
    assert order.index(install["name"]) < order.index(cache["uses"]) < order.index(build["name"]) \
        < order.index(upload["uses"])
    assert order.index(pages["uses"]) < order.index(build["name"])
