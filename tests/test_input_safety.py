"""Input that must never stop a build (issue 21): each case drives the real `scorecards` command
in temporary folders and checks the report entry (file, JSON path, reason) in build-report.json,
and that the rest of the site is built."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from corpus import SHARED, definition, report, scores, tool_score, write_capture


def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, check=False,
                          timeout=timeout)


def build(data: Path, out: Path, *extra: str, timeout: float = 600) -> dict[str, Any]:
    """Builds `data` into `out`; the build must succeed. Returns build-report.json."""
    result = run("build", str(data), "-o", str(out), *extra, timeout=timeout)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads((out / "build-report.json").read_text(encoding="utf-8"))


def problems(report_json: dict[str, Any], file: str) -> list[tuple[str, str]]:
    return [(p["jsonPath"], p["reason"]) for p in report_json["problems"] if p["file"] == file]


def good(data: Path, server: str = "srv", tool: str = "t") -> None:
    write_capture(data, server, report(server, [tool_score(definition(tool), scores(4, 4, 4, 4, 4, 4))]))


def test_an_empty_data_folder_builds_a_site_with_search(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "site"
    built = build(data, out)  # search on: Pagefind refuses an empty index
    assert built["summary"]["filesRead"] == 0 and built["problems"] == []
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "Nothing is scored yet" in home
    assert (out / "problems" / "index.html").is_file()
    assert (out / "search" / "index.html").is_file()
    assert b"export async function search()" in (out / "pagefind" / "pagefind.js").read_bytes()


def test_a_data_folder_whose_every_capture_is_rejected_builds_a_site(tmp_path: Path) -> None:
    data = tmp_path / "data"
    broken = data / "servers" / "broken"
    broken.mkdir(parents=True)
    (broken / "2026-06-01T00-00-00Z.score.json").write_bytes((SHARED / "bad-input" / "not-json-capture.json").read_bytes())
    out = tmp_path / "site"
    built = build(data, out)
    found = problems(built, "servers/broken/2026-06-01T00-00-00Z.score.json")
    assert [where for where, _ in found] == ["$"] and found[0][1].startswith("not valid JSON")
    assert built["summary"]["rejected"] == 1
    listed = (out / "problems" / "index.html").read_text(encoding="utf-8")
    assert "servers/broken/2026-06-01T00-00-00Z.score.json" in listed and "not valid JSON" in listed
    assert "Nothing is scored yet" in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "pagefind" / "pagefind.js").is_file()
