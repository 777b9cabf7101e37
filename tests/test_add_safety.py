"""`scorecards add` against a hostile or damaged data folder, through the real command.

- A folder below the data folder that is a symbolic link (`servers/`, a server's folder,
  `sessions/`, a FlowMCP provider or `_gradings` folder, `scoring-reports/`) refuses the command
  with one line, exit 2; the link's target is untouched byte for byte, and the data folder too.
- What a killed `add` leaves is repaired and named: a temporary file of an interrupted write, the
  unfinished last row an old append left in `sessions/`, a `.score.json` cut short.
- A file over the size limit is refused before it is read.
- CLEO rows that differ only in how a number is written (`38` against `38.0`) are one row.

The expected paths and lines are written out by hand from docs/data-format*.md.
"""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
from shared_data import shared_file
from test_add import AUTONOMOUS, CAPTURE, ENTRY, GRADES, REPORT, run, save_report, snapshot

SCORE = f"{CAPTURE}.score.json"
FILED_REPORT = "scoring-reports/example-maps_geocode/example-maps_geocode-2026-05-16.json"

LINKED = {
    # case: (the folder below DATA that is a link, the file added, the extra flags)
    "servers": ("servers", "report", []),
    "server-folder": ("servers/server-github", "report", []),
    "sessions": ("sessions", "grades", []),
    "provider": ("grading-data/providers/etherscan", "entry", ["--schema", "account"]),
    "gradings": (str(Path(ENTRY).parent), "entry", ["--schema", "account"]),
    "scoring-reports": ("scoring-reports", "scoring-report", []),
}


@pytest.mark.parametrize("case", sorted(LINKED))
def test_a_linked_folder_in_the_data_folder_refuses_the_command(tmp_path: Path, case: str, capsys) -> None:
    linked, what, flags = LINKED[case]
    data = tmp_path / "data"
    data.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_bytes(b"the operator's own file\n")
    (data / linked).parent.mkdir(parents=True, exist_ok=True)
    (data / linked).symlink_to(elsewhere, target_is_directory=True)
    source = {"grades": shared_file(GRADES), "entry": shared_file(AUTONOMOUS), "scoring-report": REPORT}.get(what, tmp_path / "report.json")
    if what == "report":
        save_report(source)
    outside, inside = snapshot(elsewhere), sorted(p.relative_to(data).as_posix() for p in data.rglob("*"))
    code, said, err = run("add", data, source, *flags, capsys=capsys)
    assert code == 2 and said == []
    assert err == (f"scorecards: {source}: $: {data / linked} is a symbolic link; scorecards never writes through a "
                   "link in the data folder; nothing was written\n")
    assert snapshot(elsewhere) == outside
    assert sorted(p.relative_to(data).as_posix() for p in data.rglob("*")) == inside


def test_a_linked_file_in_the_way_refuses_the_command(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    elsewhere = tmp_path / "rows.jsonl"
    elsewhere.write_bytes(b"")
    (data / "sessions" / "GRADES.jsonl").symlink_to(elsewhere)
    code, said, err = run("add", data, shared_file(GRADES), capsys=capsys)
    assert code == 2 and said == []
    assert err == (f"scorecards: {shared_file(GRADES)}: $: {data}/sessions/GRADES.jsonl is a symbolic link; scorecards never "
                   "writes through a link in the data folder; nothing was written\n")
    assert elsewhere.read_bytes() == b""


def test_a_killed_writes_temporary_file_is_removed_and_named(tmp_path: Path, capsys) -> None:
    """A kill between writing the temporary file and renaming it leaves the old file whole and the
    temporary beside it: the next add removes it (its process is gone) and says so."""
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    dead = _dead_pid()
    leftover = data / "sessions" / f".GRADES.jsonl.{dead}.tmp"
    leftover.write_bytes(shared_file(GRADES).read_bytes()[:1000])
    code, said, _ = run("add", data, shared_file(GRADES), capsys=capsys)
    assert code == 0 and said == [
        f"removed {data}/sessions/.GRADES.jsonl.{dead}.tmp: left by an interrupted add",
        f"appended {shared_file(GRADES)} (CLEO GRADES.jsonl rows) to {data}/sessions/GRADES.jsonl: 35 rows, 0 duplicates skipped"]
    assert sorted(os.listdir(data / "sessions")) == ["GRADES.jsonl"]
    assert (data / "sessions" / "GRADES.jsonl").read_bytes() == shared_file(GRADES).read_bytes().rstrip(b"\n") + b"\n"


def test_an_unfinished_last_row_is_dropped_and_named(tmp_path: Path, capsys) -> None:
    """What an `add` killed in the middle of its append left (before appends were written whole):
    ten rows and half of the eleventh. The half row is dropped, the rows are appended once."""
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    lines = shared_file(GRADES).read_bytes().split(b"\n")
    half = lines[10][: len(lines[10]) // 2]
    (data / "sessions" / "GRADES.jsonl").write_bytes(b"\n".join(lines[:10]) + b"\n" + half)
    code, said, _ = run("add", data, shared_file(GRADES), capsys=capsys)
    assert code == 0 and said == [
        f"appended {shared_file(GRADES)} (CLEO GRADES.jsonl rows) to {data}/sessions/GRADES.jsonl: 25 rows, 10 duplicates skipped; "
        f"dropped an unfinished last row ({len(half):,} bytes) an interrupted add left"]
    assert (data / "sessions" / "GRADES.jsonl").read_bytes() == b"\n".join(lines[:35]) + b"\n"


def test_a_score_file_cut_short_is_written_again(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    report = tmp_path / "report.json"
    save_report(report)
    whole = report.read_bytes()
    (data / CAPTURE).parent.mkdir(parents=True)
    (data / SCORE).write_bytes(whole[:4096])
    code, said, _ = run("add", data, report, capsys=capsys)
    assert code == 0 and said[0] == (f"filed {report} (tdqs ScoreReport, 26 tools) as {data}/{SCORE}; it replaces the "
                                     "4,096 bytes of it an interrupted add left")
    assert (data / SCORE).read_bytes() == whole
    # A different whole file of that name is still never replaced.
    other = tmp_path / "other.json"
    save_report(other, model="stand-in/another")
    assert run("add", data, other, capsys=capsys)[0] == 2
    assert (data / SCORE).read_bytes() == whole


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path, capsys) -> None:
    from builder.sources.jsonfile import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    with open(huge, "wb") as handle:  # sparse: no disk, but a whole read would take 64 MB of memory
        handle.truncate(MAX_FILE_BYTES + 1)
    data = tmp_path / "data"
    data.mkdir()
    tracemalloc.start()
    try:
        code, said, err = run("add", data, huge, capsys=capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and said == []
    assert err == (f"scorecards: {huge}: $: file is {MAX_FILE_BYTES + 1:,} bytes, over the {MAX_FILE_BYTES:,}-byte "
                   "limit for one input file; nothing was written\n")
    assert peak < MAX_FILE_BYTES // 8
    assert list(data.iterdir()) == []


def test_cleo_rows_are_compared_by_value(tmp_path: Path, capsys) -> None:
    """The same row with its integer scores written as `38.0`, and with its keys in another order,
    is already there."""
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    row = json.loads(shared_file(GRADES).read_bytes().split(b"\n")[0])
    (data / "sessions" / "GRADES.jsonl").write_bytes(json.dumps(row).encode() + b"\n")
    before = snapshot(data)
    written = json.dumps(dict(reversed(list(row.items()))))
    as_floats = written.replace(f'"totalScore": {row["totalScore"]}', f'"totalScore": {row["totalScore"]}.0')
    assert as_floats != written
    again = tmp_path / "again.jsonl"
    again.write_text(as_floats + "\n" + written + "\n")
    code, said, _ = run("add", data, again, capsys=capsys)
    assert code == 0 and said == [f"already there: {again} (CLEO GRADES.jsonl rows): all 2 rows are in {data}/sessions/"]
    assert snapshot(data) == before


def _dead_pid() -> int:
    """The id of a process that has ended."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid
