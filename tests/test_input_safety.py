"""Input that must never stop a build (issue 21): each case drives the real `scorecards` command
in temporary folders and checks the report entry (file, JSON path, reason) in build-report.json,
and that the rest of the site is built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file


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
    (broken / "2026-06-01T00-00-00Z.score.json").write_bytes(shared_file("bad-input/not-json-capture.json").read_bytes())
    out = tmp_path / "site"
    built = build(data, out)
    found = problems(built, "servers/broken/2026-06-01T00-00-00Z.score.json")
    assert [where for where, _ in found] == ["$"] and found[0][1].startswith("not valid JSON")
    assert built["summary"]["rejected"] == 1
    listed = (out / "problems" / "index.html").read_text(encoding="utf-8")
    assert "servers/broken/2026-06-01T00-00-00Z.score.json" in listed and "not valid JSON" in listed
    assert "Nothing is scored yet" in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "pagefind" / "pagefind.js").is_file()


# ---- JSON that parsers read differently ---------------------------------------------------------

def capture_text(server: str, tool: str = "t", generated_at: str = "2026-06-01T00:00:00.000Z") -> str:
    """A valid capture as JSON text, to be broken by plain string edits."""
    document = report(server, [tool_score(definition(tool), scores(4, 4, 4, 4, 4, 4))], generated_at=generated_at)
    return json.dumps(document.model_dump(mode="json", by_alias=True), indent=2)


def put(data: Path, server: str, text: str, stem: str = "2026-06-01T00-00-00Z") -> str:
    folder = data / "servers" / server
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.score.json").write_text(text, encoding="utf-8")
    return f"servers/{server}/{stem}.score.json"


def test_json_that_parsers_disagree_on_is_reported_and_the_rest_builds(tmp_path: Path) -> None:
    data = tmp_path / "data"
    good(data)
    digits = "7" * 5000
    big = put(data, "big", capture_text("big").replace('"purposeClarity": 4', '"purposeClarity": ' + digits, 1))
    # The second "tdqs" key of the first tool: one JSON reader keeps 4.0, another 1.0.
    twice = put(data, "twice", capture_text("twice").replace('"tdqs": 4.0', '"tdqs": 4.0, "tdqs": 1.0', 1))
    boolean = put(data, "boolean", capture_text("boolean").replace('"purposeClarity": 4', '"purposeClarity": true', 1))
    out = tmp_path / "site"
    built = build(data, out, "--no-search")

    [(where, reason)] = problems(built, big)
    assert where == "$" and "an integer of 5,000 digits" in reason
    [(where, reason)] = problems(built, twice)
    assert where == "$.tools[0]" and "'tdqs' appears more than once" in reason
    [(where, reason)] = problems(built, boolean)
    assert where == "$.tools[0].scores.purposeClarity" and "a boolean where a number is expected" in reason
    statuses = {f["file"]: f["status"] for f in built["files"]}
    assert statuses[big] == statuses[twice] == statuses[boolean] == "rejected"
    # Never scored as if `true` were 1: the server's page says it is not scored yet, with no grade
    # (issue 23 makes a server without a usable capture a "not scored yet" page, not an absence).
    page = (out / "servers" / "boolean" / "index.html").read_text(encoding="utf-8")
    assert "Not scored yet" in page and 'class="tier tier-' not in page
    assert (out / "servers" / "srv" / "index.html").is_file()


def test_a_generated_at_that_is_not_a_date_never_becomes_current(tmp_path: Path) -> None:
    data = tmp_path / "data"
    put(data, "srv", capture_text("srv", generated_at="2026-06-01T00:00:00.000Z"))
    # Both sort after every real date, so either would have been taken as the newest capture.
    later = put(data, "srv", capture_text("srv", generated_at="zzzz-not-a-date"), stem="2026-07-01T00-00-00Z")
    invalid = put(data, "srv", capture_text("srv", generated_at="2026-13-45T99:99:99Z"), stem="2026-08-01T00-00-00Z")
    out = tmp_path / "site"
    built = build(data, out, "--no-search")
    [(where, reason)] = problems(built, later)
    assert where == "$.generatedAt" and "'zzzz-not-a-date' is not a date and time" in reason
    [(where, reason)] = problems(built, invalid)
    assert where == "$.generatedAt" and "is not a date and time" in reason
    server = json.loads((out / "api" / "servers" / "srv.json").read_text(encoding="utf-8"))
    assert server["provenance"]["scoredAt"] == "2026-06-01T00:00:00.000Z"
    assert [c["id"] for c in server["captures"]] == ["2026-06-01T00-00-00Z"]


def test_naughty_strings_as_json_keys_and_a_real_broken_capture(tmp_path: Path) -> None:
    """The Big List of Naughty Strings, each as a key named twice in one object: every file is
    reported at the object's path, whatever the key."""
    naughty = json.loads(shared_file("bad-input/naughty-strings.json").read_text(encoding="utf-8"))
    data = tmp_path / "data"
    good(data)
    names = {}
    for number, key in enumerate(naughty[:40]):
        text = capture_text(f"n{number}").replace('"model":', json.dumps(key) + ": 1, " + json.dumps(key) + ': 2, "model":', 1)
        names[put(data, f"n{number}", text)] = key
    built = build(data, tmp_path / "site", "--no-search")
    for file, key in names.items():
        [(where, reason)] = problems(built, file)
        assert where == "$" and f"the key {key!r} appears more than once" in reason
    assert (tmp_path / "site" / "servers" / "srv" / "index.html").is_file()


# ---- the data folder is never left, and only regular files are opened -------------------------

SECRET = "secret-outside-the-data-folder"


def outside_corpus(root: Path) -> Path:
    """A folder outside the data folder holding what every reader would accept, each file naming SECRET."""
    write_capture(root, SECRET, report(SECRET, [tool_score(definition(SECRET), scores(4, 4, 4, 4, 4, 4))]))
    (root / "index.json").write_text(json.dumps({"servers": [], "note": SECRET}), encoding="utf-8")
    (root / "sessions").mkdir()
    (root / "sessions" / "grades.jsonl").write_text(json.dumps({"note": SECRET}) + "\n", encoding="utf-8")
    (root / "grading-data" / "providers" / SECRET).mkdir(parents=True)
    (root / "scoring-reports" / SECRET).mkdir(parents=True)
    return root


def every_output_byte(out: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file())


def test_no_symbolic_link_in_the_data_folder_is_followed(tmp_path: Path) -> None:
    outside = outside_corpus(tmp_path / "outside")
    data = tmp_path / "data"
    good(data)
    server = data / "servers" / "srv"
    # Inside a server folder, a server folder, and each top-level folder or file of each system.
    (server / "2026-07-01T00-00-00Z.score.json").symlink_to(outside / "servers" / SECRET / "2026-06-01T00-00-00Z.score.json")
    (data / "servers" / "linked").symlink_to(outside / "servers" / SECRET, target_is_directory=True)
    (data / "index.json").symlink_to(outside / "index.json")
    for folder in ("sessions", "grading-data", "scoring-reports"):
        (data / folder).symlink_to(outside / folder, target_is_directory=True)
    out = tmp_path / "site"
    built = build(data, out)
    reason = "a symbolic link: links are never followed, so nothing outside the data folder is read"
    for file in ("servers/srv/2026-07-01T00-00-00Z.score.json", "servers/linked", "index.json", "sessions",
                 "grading-data", "scoring-reports"):
        assert ("$", reason) in problems(built, file), file
    assert (out / "servers" / "srv" / "index.html").is_file()
    assert SECRET.encode() not in every_output_byte(out)


def test_a_linked_servers_folder_is_reported_not_followed(tmp_path: Path) -> None:
    outside = outside_corpus(tmp_path / "outside")
    data = tmp_path / "data"
    data.mkdir()
    (data / "servers").symlink_to(outside / "servers", target_is_directory=True)
    out = tmp_path / "site"
    built = build(data, out)
    assert problems(built, "servers") == [("$", "a symbolic link: links are never followed, so nothing outside "
                                                "the data folder is read")]
    assert SECRET.encode() not in every_output_byte(out)


def test_index_never_writes_through_a_linked_index_json(tmp_path: Path) -> None:
    data = tmp_path / "data"
    good(data)
    target = tmp_path / "elsewhere.json"
    target.write_bytes(b'{"kept": "byte for byte"}\n')
    (data / "index.json").symlink_to(target)
    result = run("index", str(data))
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == b'{"kept": "byte for byte"}\n'
    assert not (data / "index.json").is_symlink()
    assert json.loads((data / "index.json").read_text(encoding="utf-8"))["servers"][0]["id"] == "srv"


def test_fifos_in_the_data_folder_are_reported_and_never_opened(tmp_path: Path) -> None:
    """Opening a FIFO for reading blocks until a writer comes: a build that opened one would
    never end, and the subprocess timeout would fail this test."""
    data = tmp_path / "data"
    good(data)
    fifos = ["servers/srv/2026-07-01T00-00-00Z.score.json", "servers/srv/server.json", "servers/pipe",
             "index.json", "sessions/grades.jsonl",
             "grading-data/providers/ns/s/tools/t/_gradings/single-test--2026-06-01T00-00-00Z.json",
             "scoring-reports/schema/2026-06-01.json"]
    for fifo in fifos:
        (data / fifo).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(data / fifo)
    out = tmp_path / "site"
    built = build(data, out, timeout=300)
    reason = "not a regular file (a FIFO, socket or device): it is never opened"
    for fifo in fifos:
        assert ("$", reason) in problems(built, fifo), fifo
    assert (out / "servers" / "srv" / "index.html").is_file()


def test_a_file_over_the_size_limit_is_never_read_whole(tmp_path: Path) -> None:
    """A sparse file just over the 64 MiB limit: the build reports it, and hashing the server's
    folder for the incremental cache reads next to nothing of it (the kernel's own count of the
    bytes this process read, /proc/self/io)."""
    from builder.tdqs import layout
    from builder.tdqs.reader import folder_digest

    data = tmp_path / "data"
    good(data)
    huge = data / "servers" / "srv" / "2026-07-01T00-00-00Z.score.json"
    with open(huge, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    built = build(data, tmp_path / "site", "--no-search")
    assert problems(built, "servers/srv/2026-07-01T00-00-00Z.score.json") == [
        ("$", "file is 67,108,865 bytes, over the 67,108,864-byte limit for one input file")]
    assert (tmp_path / "site" / "servers" / "srv" / "index.html").is_file()

    [files] = layout.discover(data)
    before = read_bytes_so_far()
    first = folder_digest(files)
    assert read_bytes_so_far() - before < 1024 * 1024
    with open(huge, "r+b") as handle:
        handle.truncate(64 * 1024 * 1024 + 2)
    assert folder_digest(files) != first  # its size is in the key: a change is still seen


def read_bytes_so_far() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


# ---- two valid names, one address ---------------------------------------------------------------

def hashed(name: str) -> str:
    """What urls.slug gives `name` when it is not a plain segment: readable part, sha256[:8]."""
    import hashlib
    import re

    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_") + "-" + hashlib.sha256(name.encode()).hexdigest()[:8]


def test_names_whose_slugs_clash_both_get_pages_and_a_warning(tmp_path: Path) -> None:
    from flowmcp_fixtures import answer, entry, write

    data = tmp_path / "data"
    spelled = hashed("a.b")  # a valid server id that is exactly the slug of `a.b`
    good(data, "a.b", "first")
    good(data, spelled, "second")
    grading = "single-test--2026-06-01T00-00-00Z.json"
    for provider, tool in (("P.q", "T.x"), (hashed("P.q"), hashed("T.x"))):
        write(data / f"grading-data/providers/{provider}/s/tools/T.x/_gradings/{grading}",
              entry([answer("Q-a", 4.0)], schemaId=f"{provider}.s"))
        write(data / f"grading-data/providers/{provider}/s/tools/{tool}/_gradings/{grading}",
              entry([answer("Q-a", 4.0)], schemaId=f"{provider}.s"))
    for folder in ("r.s", hashed("r.s")):
        write(data / f"scoring-reports/{folder}/{folder}-2026-06-01.json", {
            "schemaId": folder, "schemaIdSlug": folder, "schemaHash": "sha256:ab", "date": "2026-06-01",
            "grade": "C", "score": 3.0, "scoringProtocol": "v1", "creator": {"skill": "s"},
            "harness": {"name": "claude-code", "model": "m"}, "timestamps": {"reportedAt": "2026-06-01T00:00:00Z"},
            "dimensions": [{"dimension": "whenToUse", "score": 3.0, "reasoning": "r"}],
            "validationPassed": True, "validationErrors": [],
        })
    out = tmp_path / "site"
    built = build(data, out, "--no-search")

    def warned(file: str, name: str, holder: str) -> None:
        found = [p for p in built["problems"] if p["file"] == file]
        assert [(p["jsonPath"], p["severity"]) for p in found] == [("$", "warning")], file
        assert f"{name!r} and {holder!r} would have the same address" in found[0]["reason"]

    # The name that is its own slug keeps it; the other is numbered, and says so.
    warned("servers/a.b", "a.b", spelled)
    first = json.loads((out / "api" / "servers" / f"{spelled}-2.json").read_text(encoding="utf-8"))
    second = json.loads((out / "api" / "servers" / f"{spelled}.json").read_text(encoding="utf-8"))
    assert (first["id"], second["id"]) == ("a.b", spelled)
    assert (out / "servers" / f"{spelled}-2" / "index.html").is_file()
    assert (out / "servers" / f"{spelled}" / "tools" / "second" / "index.html").is_file()

    warned("grading-data/providers/P.q", "P.q", hashed("P.q"))
    assert (out / "providers" / hashed("P.q") / "index.html").is_file()
    assert (out / "providers" / f"{hashed('P.q')}-2" / "index.html").is_file()
    tools = f"grading-data/providers/{hashed('P.q')}/s/tools"
    warned(f"{tools}/T.x", "T.x", hashed("T.x"))
    for tool in (hashed("T.x"), f"{hashed('T.x')}-2"):
        assert (out / "providers" / hashed("P.q") / "s" / "tools" / tool / "_gradings").is_dir()

    warned("scoring-reports/r.s", "r.s", hashed("r.s"))
    assert (out / "scoring-reports" / hashed("r.s") / "index.html").is_file()
    assert (out / "scoring-reports" / f"{hashed('r.s')}-2" / "index.html").is_file()
