"""On GitHub Actions, `scorecards check` and `build` print each data problem as a workflow command
(`::error file=…::…`), so a pull request shows it on the file; elsewhere their output is unchanged.
The expected lines are written out by hand from GitHub's escaping rules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file

from builder.annotations import annotation
from builder.engine.problems import Problem


def run(*args: str, cwd: Path, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GITHUB_")}
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False, env={**env, **environ})


def test_the_message_and_the_properties_are_escaped_as_the_runner_reads_them(tmp_path: Path) -> None:
    problem = Problem(file="sessions/a,b:c%.jsonl", json_path="line 17", reason="100% wrong\r\nsecond: line, too",
                      severity="warning", system="cleo", code="NA-001")
    line = annotation(problem, tmp_path / "data", tmp_path)
    assert line == (
        "::warning file=data/sessions/a%2Cb%3Ac%25.jsonl,line=17,title=cleo%3A line 17"
        "::sessions/a,b:c%25.jsonl: line 17: 100%25 wrong%0D%0Asecond: line, too [NA-001]"
    )


def test_a_problem_outside_a_line_names_the_file_and_no_line(tmp_path: Path) -> None:
    problem = Problem(file="servers/x/a.score.json", json_path="$.tools[3].tdqs", reason="bad", system="tdqs")
    assert annotation(problem, tmp_path / "repo" / "data", tmp_path / "repo") == (
        "::error file=data/servers/x/a.score.json,title=tdqs%3A $.tools[3].tdqs::servers/x/a.score.json: "
        "$.tools[3].tdqs: bad")


def broken_repository(root: Path) -> Path:
    data = root / "data"
    write_capture(data, "srv", report("srv", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))
    broken = data / "servers" / "broken"
    broken.mkdir()
    (broken / "2026-06-01T00-00-00Z.score.json").write_bytes(shared_file("bad-input/not-json-capture.json").read_bytes())
    return data


EXPECTED = [  # (the command and its properties, how the message starts); the readers word the reasons
    ("::warning file=data/index.json,title=tdqs%3A $", "index.json: $: index.json is missing"),
    ("::error file=data/servers/broken,title=tdqs%3A $", "servers/broken: $: no usable score"),
    ("::error file=data/servers/broken/2026-06-01T00-00-00Z.score.json,title=tdqs%3A $",
     "servers/broken/2026-06-01T00-00-00Z.score.json: $: not valid JSON"),
]


def commands(stdout: str) -> list[tuple[str, str]]:
    """Each workflow command as (command and properties, message), the message cut to EXPECTED's length."""
    found = [line.split("::", 2)[1:] for line in stdout.splitlines() if line.startswith("::")]
    return [(f"::{head}", message[:len(expected)]) for (head, message), (_, expected) in zip(found, EXPECTED, strict=False)] \
        + [("extra", message) for _, message in found[len(EXPECTED):]]


def test_check_on_github_actions_prints_one_annotation_per_problem_relative_to_the_workspace(tmp_path: Path) -> None:
    data = broken_repository(tmp_path / "repo")
    # Run from elsewhere: the file is named from GITHUB_WORKSPACE, the repository root.
    result = run("check", str(data), cwd=tmp_path, environ={"GITHUB_ACTIONS": "true",
                                                            "GITHUB_WORKSPACE": str(tmp_path / "repo")})
    assert result.returncode == 1
    assert commands(result.stdout) == EXPECTED
    assert "error: servers/broken/2026-06-01T00-00-00Z.score.json: $: not valid JSON" in result.stdout

    built = run("build", "data", "-o", str(tmp_path / "site"), "--no-search", cwd=tmp_path / "repo",
                environ={"GITHUB_ACTIONS": "true"})
    assert built.returncode == 0, built.stderr
    assert commands(built.stdout) == EXPECTED


def test_anywhere_else_no_workflow_command_is_printed(tmp_path: Path) -> None:
    data = broken_repository(tmp_path / "repo")
    result = run("check", str(data), cwd=tmp_path, environ={})
    assert result.returncode == 1 and "::" not in result.stdout
