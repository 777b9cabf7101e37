"""What an operator is told when something is off (issue 44, "Smaller"), each through the real
command on a small data folder made here: the line names the file or the flag that is wrong, says
what is wrong with it, and says what to do.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from corpus import capture_id, definition, report, scores, tool_score, write_capture
from tdqs import ToolDefinition, lint_server, stringify_json

from builder.cli import main

GENERATED = "2026-06-01T00:00:00.000Z"
CAPTURE = capture_id(GENERATED)


def run(*args: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def scored(names: list[str]) -> dict[str, object]:
    """A ScoreReport of server `srv` scoring the tools `names`, as `tdqs score --format json` writes it."""
    return report("srv", [tool_score(definition(name), scores(4, 4, 4, 4, 4, 4)) for name in names],
                  generated_at=GENERATED).model_dump(mode="json")


def save(path: Path, document: object) -> Path:
    path.write_text(stringify_json(document, indent=2) + "\n", encoding="utf-8")
    return path


REPORTED = [f"tool_{number:02}" for number in range(27)]
"""The 27 tools the report scored."""


def test_a_tools_list_that_lacks_most_of_the_reports_tools_is_refused_by_add_and_a_problem_for_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tools/list beside a report is the one it scored, and tdqs scores every tool of the list
    it is given: a list that lacks a tool the report scored is not that list. Sharing one tool of
    27 is as wrong as sharing none (which add and check already caught)."""
    report_file = save(tmp_path / "report.json", scored(REPORTED))
    # 27 tools, one of them (tool_00) the report's: another version of another server, say.
    others = [definition("tool_00"), *(definition(f"other_{number:02}") for number in range(26))]
    tools_file = save(tmp_path / "tools.json", {"tools": others})
    data = tmp_path / "data"
    data.mkdir()
    code, out, err = run("add", data, report_file, "--tools", tools_file, capsys=capsys)
    assert (code, out) == (2, "")
    assert err == (
        f"scorecards: {tools_file}: $.tools: only 1 of the 27 tools that {report_file} scored is in this tools/list "
        "(missing: tool_01, tool_02, tool_03 and 23 more): the tools/list beside a report must be the one it "
        "scored, which names every tool the report scored; give that one; nothing was written\n")
    assert list(data.iterdir()) == []

    # The same pair already in a data folder, filed by hand before add checked: a warning, so
    # `check --strict` fails.
    write_capture(data, "srv", scored(REPORTED), others)
    assert run("index", data, capsys=capsys)[0] == 0
    code, out, _ = run("check", data, "--strict", capsys=capsys)
    assert code == 1
    assert out.splitlines() == [
        f"warning: servers/srv/{CAPTURE}.tools.json: $.tools: only 1 of the 27 tools that "
        f"servers/srv/{CAPTURE}.score.json scored is in this tools/list (missing: tool_01, tool_02, tool_03 and "
        "23 more): it is not the tools/list the report scored, which names every tool the report scored",
        "3 files read, 0 errors, 1 warnings",
    ]


def test_a_newer_tools_list_with_more_tools_than_the_report_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_file = save(tmp_path / "report.json", scored(REPORTED))
    more = [*(definition(name) for name in REPORTED), *(definition(f"new_{number}") for number in range(5))]
    tools_file = save(tmp_path / "tools.json", {"tools": more})
    data = tmp_path / "data"
    data.mkdir()
    code, _, err = run("add", data, report_file, "--tools", tools_file, capsys=capsys)
    assert (code, err) == (0, "")
    code, out, _ = run("check", data, "--strict", capsys=capsys)
    assert (code, out.splitlines()) == (0, ["3 files read, 0 errors, 0 warnings"])


LINT_ADVICE = ("this is a `tdqs lint` report (findings, no scores), not a tdqs ScoreReport: run `tdqs score "
               "--format json` on the same tools/list and add its output instead")


def lint_report(path: Path) -> Path:
    """What `tdqs lint --format json` writes (tdqs's run_cli: stringify_json of the dump, indented 2)."""
    tools = [ToolDefinition.model_validate(definition(name)) for name in ("get_weather", "get_forecast")]
    linted = lint_server(server_name="srv", tools=tools).model_copy(update={"generated_at": GENERATED})
    return save(path, linted.model_dump(mode="json"))


def test_a_tdqs_lint_report_is_named_as_one_with_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lint = lint_report(tmp_path / "lint.json")
    data = tmp_path / "data"
    data.mkdir()
    code, out, err = run("add", data, lint, capsys=capsys)
    assert (code, out, err) == (2, "", f"scorecards: {lint}: $: {LINT_ADVICE}; nothing was written\n")
    assert list(data.iterdir()) == []

    filed = data / "servers" / "srv" / f"{CAPTURE}.score.json"  # put there by hand
    filed.parent.mkdir(parents=True)
    filed.write_bytes(lint.read_bytes())
    code, out, _ = run("check", data, capsys=capsys)
    assert code == 1
    assert f"error: servers/srv/{CAPTURE}.score.json: $: {LINT_ADVICE}" in out.splitlines()
    assert "Field required" not in out


def test_a_bad_flag_value_is_blamed_on_the_flag_not_the_settings_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_capture(tmp_path / "data", "srv", scored(["t"]))
    settings = tmp_path / "scorecards.toml"
    settings.write_text('title = "Acme registry"\n')
    site = tmp_path / "site"
    code, out, err = run("build", tmp_path / "data", "-o", site, "--site-url", "example.org", capsys=capsys)
    assert (code, out) == (2, "")
    assert err == ("scorecards: --site-url: 'example.org' is not an http(s) URL with a host "
                   "(e.g. https://owner.github.io)\n")
    code, _, err = run("build", tmp_path / "data", "-o", site, "--base-url", "/a b/", capsys=capsys)
    assert (code, err) == (2, "scorecards: --base-url: a path cannot hold white space or control characters\n")
    # A flag that does not fit the file: both named.
    settings.write_text('site_url = "https://owner.github.io/acme/"\n')
    code, _, err = run("build", tmp_path / "data", "-o", site, "--base-url", "/other/", capsys=capsys)
    assert (code, err) == (2, f"scorecards: {settings} with --base-url: site_url https://owner.github.io/acme/ ends "
                              "in the path /acme/ but base_url is /other/: give site_url as the origin "
                              "(https://owner.github.io) and the path as base_url\n")
    # The file's own bad value is still the file's.
    settings.write_text('site_url = "example.org"\n')
    code, _, err = run("build", tmp_path / "data", "-o", site, capsys=capsys)
    assert (code, err) == (2, f"scorecards: {settings}: site_url: 'example.org' is not an http(s) URL with a host "
                              "(e.g. https://owner.github.io)\n")
    assert not site.exists()


@pytest.mark.parametrize("value", ["abc", "0"])
def test_a_bad_number_of_workers_names_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["build", str(tmp_path), "-o", str(tmp_path / "site"), "--workers", value])
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.splitlines()[-1] == (f"scorecards build: error: argument --workers: {value!r} is not a positive "
                                    "whole number of workers")


def test_a_stale_index_json_says_to_run_scorecards_index_on_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    write_capture(data, "srv", scored(["t"]))
    assert run("index", data, capsys=capsys)[0] == 0
    index = json.loads((data / "index.json").read_text(encoding="utf-8"))
    index["servers"][0]["scores"]["meanTdqs"] = 1.0
    (data / "index.json").write_text(json.dumps(index), encoding="utf-8")
    write_capture(data, "newcomer", report("newcomer", [tool_score(definition("n"), scores(3, 3, 3, 3, 3, 3))]))
    code, out, _ = run("check", data, capsys=capsys)
    mean = json.loads(Path(data / "index.json").read_text())["servers"][0]["scores"]["meanTdqs"]
    rebuild = f"run `scorecards index {data}` to rebuild it from the captures"
    assert code == 0
    assert out.splitlines()[:2] == [
        f"warning: index.json: $.servers: server 'newcomer' has captures but is not in index.json; {rebuild}",
        f"warning: index.json: $.servers[0].scores.meanTdqs: index.json says {mean} but the captures say 4.0; "
        f"{rebuild}",
    ]
    assert run("index", data, capsys=capsys)[0] == 0
    assert run("check", data, "--strict", capsys=capsys)[:2] == (0, "3 files read, 0 errors, 0 warnings\n")


def test_verbose_prints_the_reused_outputs_as_a_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    write_capture(data, "srv", scored(["t"]))
    assert run("index", data, capsys=capsys)[0] == 0
    site, timings = tmp_path / "site", tmp_path / "timings.json"
    flags = ["--no-search", "--workers", "1", "-v", "--timings", timings]
    assert run("build", data, "-o", site, *flags, capsys=capsys)[0] == 0
    code, _, err = run("build", data, "-o", site, *flags, capsys=capsys)
    reused = json.loads(timings.read_text(encoding="utf-8"))["reused"]
    assert code == 0 and reused > 0
    said = [line for line in err.splitlines() if line.startswith("reused: ")]
    assert said == [f"reused: {int(reused)} outputs from the previous build"]
    assert any(re.fullmatch(r"render: \d+\.\d\ds", line) for line in err.splitlines())  # seconds stay seconds
