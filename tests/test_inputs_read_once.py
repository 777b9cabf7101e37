"""Each input file is read once per build, and the manifest lists each as that read found it
(builder.sources.input_files, issue 46): the readers hash what they read and say when each file
says it was made; the manifest step reads only what no reader read.

The expected rows are computed here, from the files: hashlib over their bytes, `json.loads` for a
JSON file's `generatedAt`, the file's name for the rest. The opens are counted in a real build, in
a process of its own, by an audit hook (`sys.addaudithook`, "open" events) that every forked
worker inherits."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture

from builder.build import build
from builder.config import SiteConfig
from builder.sources.datafolder import read_regular
from builder.sources.input_files import reading

ROOT = Path(__file__).resolve().parents[1]
INSTANT = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d+)?Z")


def data_files(data: Path) -> list[Path]:
    """Every file of the data folder that is no hidden name and under no hidden folder."""
    return sorted(p for p in data.rglob("*")
                  if p.is_file() and not any(part.startswith(".") for part in p.relative_to(data).parts))


def expected_rows(data: Path) -> dict[str, list[object]]:
    """path → [SHA-256, size, when it says it was made], from the files themselves."""
    rows: dict[str, list[object]] = {}
    for path in data_files(data):
        raw = path.read_bytes()
        said = None
        if path.suffix == ".json":
            try:
                document = json.loads(raw)
            except ValueError:
                document = None
            said = document.get("generatedAt") if isinstance(document, dict) else None
        if not isinstance(said, str):
            found = INSTANT.findall(path.name)
            said = f"{found[-1][0]}T{found[-1][1]}:{found[-1][2]}:{found[-1][3]}{found[-1][4]}Z" if found else None
        rows[path.relative_to(data).as_posix()] = [hashlib.sha256(raw).hexdigest(), len(raw), said]
    return rows


def listed_rows(site: Path) -> dict[str, list[object]]:
    """path → [SHA-256, size, generatedAt] of every input row of every manifest file of the site."""
    rows: dict[str, list[object]] = {}
    for manifest in site.rglob("manifest.jsonl"):
        for line in manifest.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if isinstance(row, list) and row[0] == "input":
                assert row[1] not in rows, f"{row[1]} is listed twice"
                rows[row[1]] = row[2:5]
    return rows


def capture(data: Path, server: str, when: str, tools: int = 2) -> None:
    made = [definition(f"{server}_t{t}", f"Tool {t} of {server}.") for t in range(tools)]
    write_capture(data, server, report(server, [tool_score(d, scores(4, 3, 4, 3, 4, 3)) for d in made],
                                       generated_at=when), made)


def test_the_manifest_lists_every_input_as_its_bytes_say_cold_and_after_a_change(tmp_path: Path) -> None:
    data, site = tmp_path / "data", tmp_path / "site"
    for number, server in enumerate(("alpha", "beta", "gamma")):
        capture(data, server, f"2026-05-0{number + 1}T08:00:00.000Z")
    # Files no reader reads: a stray in a server's folder, a file at the top, a hidden one (not listed).
    (data / "servers" / "alpha" / "notes.txt").write_text("kept by hand\n", encoding="utf-8")
    (data / "README.md").write_text("# data\n", encoding="utf-8")
    (data / ".hidden.json").write_text('{"generatedAt": "2026-01-01T00:00:00Z"}', encoding="utf-8")
    # A tools/list the reader refuses (a key named twice): json.loads keeps the last generatedAt.
    (data / "servers" / "gamma" / "2026-05-09T00-00-00Z.tools.json").write_text(
        '{"tools": [], "generatedAt": "2026-02-02T00:00:00Z", "generatedAt": "2026-03-03T00:00:00Z"}',
        encoding="utf-8")
    # A capture that starts with a byte order mark.
    bom = data / "servers" / "beta" / "2026-05-02T08-00-00Z.score.json"
    bom.write_bytes(b"\xef\xbb\xbf" + bom.read_bytes())

    build(data, site, SiteConfig(), search=False, workers=2)
    first = listed_rows(site)
    assert first == expected_rows(data)
    assert first["servers/gamma/2026-05-09T00-00-00Z.tools.json"][2] == "2026-03-03T00:00:00Z"
    assert first["servers/alpha/notes.txt"][2] is None and ".hidden.json" not in first

    # Beta gets a new capture and gamma's capture changes; alpha is as it was: its pages are lent and
    # its read taken from the read cache, and its inputs are still listed as its files are.
    page = site / "servers" / "alpha" / "index.html"
    inode = page.stat().st_ino
    capture(data, "beta", "2026-05-20T08:00:00.000Z", tools=3)
    gamma = data / "servers" / "gamma" / "2026-05-03T08-00-00Z.score.json"
    gamma.write_text(json.dumps(json.loads(gamma.read_bytes()), indent=4), encoding="utf-8")
    again = build(data, site, SiteConfig(), search=False, workers=2)
    assert again.timings["reused"] > 0 and page.stat().st_ino == inode
    second = listed_rows(site)
    assert second == expected_rows(data)
    assert second["servers/gamma/2026-05-03T08-00-00Z.score.json"] != first["servers/gamma/2026-05-03T08-00-00Z.score.json"]
    assert "servers/beta/2026-05-20T08-00-00Z.score.json" in second
    assert second["servers/alpha/2026-05-01T08-00-00Z.score.json"] == first["servers/alpha/2026-05-01T08-00-00Z.score.json"]


COUNTING = """
import os, sys
log = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        os.write(log, os.path.abspath(os.fsencode(args[0])) + b"\\0")
sys.addaudithook(hook)
from builder.cli import main
sys.exit(main(sys.argv[2:]))
"""


def opens(data: Path, site: Path, log: Path, workers: int) -> Counter[str]:
    """How many times the build of `data` into `site` opened each file of the data folder, in
    every process of the build (the hook and its log's descriptor are inherited through fork)."""
    log.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-c", COUNTING, str(log), "build", str(data), "-o", str(site), "-q",
                    "--no-search", "--workers", str(workers)], check=True, cwd=site.parent, timeout=600)
    counted = Counter(os.fsdecode(path) for path in log.read_bytes().split(b"\0") if path)
    return Counter({p.relative_to(data).as_posix(): counted[str(p)] for p in data_files(data)})


def test_each_input_file_is_opened_once_per_build(tmp_path: Path) -> None:
    """The repository's data (every grading system's files, index.json, READMEs), built by one
    process, then by forked readers cold and again after a change to two servers."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    log = tmp_path / "opens"
    files = {p.relative_to(data).as_posix() for p in data_files(data)}
    assert len(files) > 100 and any(name.startswith("sessions/") for name in files)
    assert any(name.startswith("grading-data/") for name in files)

    once = Counter(dict.fromkeys(files, 1))
    assert opens(data, tmp_path / "one", log, workers=1) == once
    assert opens(data, tmp_path / "two", log, workers=2) == once

    # A rebuild: the unchanged servers' reads come from the read cache (their files read for its key
    # only), the changed ones are read again, each file once.
    server = sorted((data / "servers").iterdir())[0]
    (server / "notes.txt").write_text("a stray\n", encoding="utf-8")
    score = sorted((data / "servers").iterdir())[1].glob("*.score.json").__next__()
    score.write_text(json.dumps(json.loads(score.read_bytes()), indent=3), encoding="utf-8")
    files.add(f"servers/{server.name}/notes.txt")
    assert opens(data, tmp_path / "two", log, workers=2) == Counter(dict.fromkeys(files, 1))


def test_a_source_holds_the_bytes_it_read_up_to_its_budget(tmp_path: Path) -> None:
    """Reading a file again for the same source takes the bytes held, unless holding them would
    pass the budget: then it is read from the disk again, and its row is right either way."""
    small, large = tmp_path / "a.json", tmp_path / "b-2026-01-02T03-04-05Z.json"
    small.write_bytes(b'{"generatedAt": "2026-05-05T00:00:00Z"}')
    large.write_bytes(b"[" + b"1," * 100 + b"1]")
    with reading(tmp_path, held_bytes=len(small.read_bytes()) + 10) as reads:
        first = read_regular(small, 1 << 20), read_regular(large, 1 << 20)
        assert reads.held(small) is first[0] and reads.held(large) is None
        assert read_regular(small, 1 << 20) is first[0]  # not read again
        assert read_regular(large, 1 << 20) == first[1] and read_regular(large, 1 << 20) is not first[1]
    expected = expected_rows(tmp_path)
    assert [[row.path, row.sha256, row.size, row.generated_at] for row in reads.inputs()] == [
        [name, *expected[name]] for name in ("a.json", "b-2026-01-02T03-04-05Z.json")]
    assert reads.held(small) is None  # let go once the rows are made


def test_a_file_read_by_another_thread_is_no_read_of_the_source(tmp_path: Path) -> None:
    """What is recorded is what this thread reads while the source is read, not what another
    thread of the build reads meanwhile."""
    mine, theirs = tmp_path / "mine.txt", tmp_path / "theirs.txt"
    mine.write_bytes(b"mine")
    theirs.write_bytes(b"theirs")
    with reading(tmp_path) as reads:
        read_regular(mine, 100)
        other = threading.Thread(target=read_regular, args=(theirs, 100))
        other.start()
        other.join()
    assert [row.path for row in reads.inputs()] == ["mine.txt"]
