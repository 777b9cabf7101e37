"""The command line: clear messages and exit codes, never a traceback for a user's mistake."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file


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
    assert refused.returncode == 2 and "0 is not a positive number of workers" in refused.stderr
    assert not (tmp_path / "site-0").exists()
