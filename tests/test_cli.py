"""The command line: clear messages and exit codes, never a traceback for a user's mistake."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file

from builder.cli import main


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd, check=False)


def good(data: Path) -> None:
    write_capture(data, "srv", report("srv", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))


def test_a_missing_data_folder_is_one_clear_line(tmp_path: Path) -> None:
    result = run("build", str(tmp_path / "nope"), "-o", str(tmp_path / "site"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"scorecards: data folder not found: {tmp_path / 'nope'}"
    assert "Traceback" not in result.stderr


def test_index_then_check_then_build(tmp_path: Path) -> None:
    good(tmp_path)
    assert run("index", str(tmp_path)).returncode == 0
    assert json.loads((tmp_path / "index.json").read_text())["servers"][0]["id"] == "srv"
    checked = run("check", str(tmp_path))
    assert checked.returncode == 0 and "0 errors, 0 warnings" in checked.stdout
    built = run("build", str(tmp_path), "-o", str(tmp_path.parent / "site-out"), "--no-search")
    assert built.returncode == 0 and "0 errors, 0 warnings" in built.stdout
    assert (tmp_path.parent / "site-out" / "servers" / "srv" / "index.html").is_file()


def test_errors_fail_check_and_strict_builds_but_not_plain_builds(tmp_path: Path) -> None:
    good(tmp_path)
    run("index", str(tmp_path))
    broken = tmp_path / "servers" / "broken"
    broken.mkdir()
    (broken / "2026-06-01T00-00-00Z.score.json").write_bytes(shared_file("bad-input/not-json-capture.json").read_bytes())
    checked = run("check", str(tmp_path))
    assert checked.returncode == 1
    assert "error: servers/broken/2026-06-01T00-00-00Z.score.json: $: not valid JSON" in checked.stdout
    out = tmp_path.parent / "strict-site"
    assert run("build", str(tmp_path), "-o", str(out), "--no-search").returncode == 0
    assert run("build", str(tmp_path), "-o", str(out), "--no-search", "--strict").returncode == 1
    assert (out / "servers" / "srv" / "index.html").is_file()  # the rest of the site is still built


def test_the_output_may_not_be_the_data_folder(tmp_path: Path) -> None:
    good(tmp_path)
    result = run("build", str(tmp_path), "-o", str(tmp_path / "site"))
    assert result.returncode == 2 and "is inside the data folder" in result.stderr


def test_the_number_of_workers_is_the_only_knob_and_changes_no_byte(tmp_path: Path) -> None:
    good(tmp_path / "data")
    sites = {}
    for workers in ("1", "2", "3"):
        out = tmp_path / f"site-{workers}.tar"
        built = run("build", str(tmp_path / "data"), "-o", str(out), "--workers", workers)
        assert built.returncode == 0, built.stderr
        sites[workers] = out.read_bytes()
    assert sites["1"] == sites["2"] == sites["3"]
    refused = run("build", str(tmp_path / "data"), "-o", str(tmp_path / "site-0"), "--workers", "0")
    assert refused.returncode == 2 and "'0' is not a positive whole number of workers" in refused.stderr
    assert not (tmp_path / "site-0").exists()


def test_every_argument_of_every_command_has_help_with_its_default() -> None:
    from builder.cli import parser

    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(commands.choices) == ["add", "build", "check", "demo", "diff", "index", "new", "serve", "try", "verify"]
    for name, command in commands.choices.items():
        assert command.description, name
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            where = f"{name} {'/'.join(action.option_strings) or action.dest}"
            assert action.help and action.help.strip(), where
            if isinstance(action, argparse._StoreConstAction):  # -q, -v
                continue
            if action.option_strings or action.nargs == "?":
                assert "(default: " in action.help, where
            if action.default is not None and not isinstance(action.default, bool):
                assert f"(default: {action.default}" in action.help, where
        usage = command.format_usage()
        assert "[-q | -v]" in usage, name


def quietly(*args: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_quiet_prints_only_errors_and_verbose_adds_detail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = shared_file("real-tools/server-memory.json")
    assert quietly("new", tmp_path / "repo", "-q", capsys=capsys) == (0, "", "")
    data = tmp_path / "repo" / "data"
    good(data)
    assert quietly("index", data, "-q", capsys=capsys) == (0, "", "")
    assert quietly("check", data, "-q", capsys=capsys) == (0, "", "")
    assert quietly("build", data, "-o", tmp_path / "site", "--no-search", "--workers", "1", "-q",
                   capsys=capsys) == (0, "", "")
    assert quietly("try", tools, "--data", tmp_path / "tried", "-o", tmp_path / "tried-site", "-q",
                   capsys=capsys) == (0, "", "")
    assert quietly("demo", tmp_path / "demo", "--servers", "2", "--tools", "4", "-q", capsys=capsys) == (0, "", "")
    broken = data / "servers" / "broken"
    broken.mkdir()
    (broken / "2026-06-01T00-00-00Z.score.json").write_bytes(b"{")
    score = next((data / "servers" / "srv").glob("*.score.json"))
    other = {"tools": [{"name": "other", "description": "Another server's tool.", "inputSchema": {"type": "object"}}]}
    score.with_name(score.name.replace(".score.", ".tools.")).write_text(json.dumps(other))  # a warning
    code, out, err = quietly("check", data, "-q", capsys=capsys)
    lines = out.splitlines()
    assert code == 1 and err == "" and all(line.startswith("error: ") for line in lines)
    assert "error: servers/broken/2026-06-01T00-00-00Z.score.json: $: not valid JSON" in out
    code, out, _ = quietly("check", data, capsys=capsys)
    warnings = sum(line.startswith("warning: ") for line in out.splitlines())
    assert "warning: servers/srv/" in out and out.splitlines()[-1].endswith(f" 2 errors, {warnings} warnings")
    code, out, _ = quietly("check", data, "-v", capsys=capsys)
    assert f"read servers/srv/{score.name} (tdqs, accepted)" in out.splitlines()
    code, out, err = quietly("build", data, "-o", tmp_path / "site", "--no-search", "--workers", "1", "-v",
                             capsys=capsys)
    assert code == 0 and out.startswith("built ")
    assert any(line.startswith("error: servers/broken/2026-06-01T00-00-00Z.score.json: $: not valid JSON")
               for line in err.splitlines())
    assert any(line.startswith("render: ") and line.endswith("s") for line in err.splitlines())
    assert quietly("add", data, tmp_path / "nope.json", "-q", capsys=capsys) == (
        2, "", f"scorecards: file not found: {tmp_path / 'nope.json'}\n")  # errors still show


def test_try_scores_ones_own_tools_list_with_the_labelled_stand_in_in_one_command(tmp_path: Path) -> None:
    tools = shared_file("real-tools/server-memory.json")
    source = json.loads(tools.read_text(encoding="utf-8"))
    result = run("try", str(tools), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "stand-in" / "data" / "servers" / "server-memory"  # the file's server.name
    [score] = folder.glob("*.score.json")
    assert score.with_name(score.name.replace(".score.", ".tools.")).read_bytes() == tools.read_bytes()
    report_ = json.loads(score.read_text(encoding="utf-8"))
    assert report_["model"] == "stand-in/deterministic-v1"
    assert sorted(t["name"] for t in report_["tools"]) == sorted(t["name"] for t in source["tools"])
    page = (tmp_path / "stand-in" / "site" / "servers" / "server-memory" / "index.html").read_text(encoding="utf-8")
    assert "<strong>Stand-in scores</strong> (stand-in/deterministic-v1), not from a real model." in page
    assert result.stdout.splitlines()[-1] == ("stand-in scores, not from a model, for server-memory: see them with "
                                              "`scorecards serve stand-in/site`")
    (tmp_path / "notes.json").write_text('{"notes": []}')
    refused = run("try", "notes.json", "--data", "other", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == "" and refused.stderr == (
        'scorecards: notes.json: Expected a tools/list result ({ "tools": [...] }), an array of tool definitions, '
        "or a single tool definition\n")
    assert not (tmp_path / "other").exists()
