"""An incremental rebuild gives what a cold build of the same data gives, after random edits of
every kind the fault audit used, with one and two workers, into a folder and into a tar.

A seeded sequence of steps edits a small data folder (five real servers of the repository's
`data/`, its FlowMCP tree, Scoring Protocol reports and CLEO sessions); each step applies one to
three edits drawn from `EDITS`:

- capture added, capture changed, capture cut short (not JSON), capture removed (score and tools)
- server.json added or changed, server.json removed
- server added (a copy of another under a new id), server removed
- stray file, stray folder, stray symlink added to a server folder; a stray removed
- index.json changed (an entry dropped), index.json rebuilt (`scorecards index`)
- a CLEO row appended, a CLEO row removed
- a FlowMCP grading entry changed, a Scoring Protocol report removed

After each step the same data is built incrementally into four outputs (workers 1 and 2, folder
and tar), each with `--strict`, through the real command, and cold into a new folder. Every output
must hold the cold build's files byte for byte, `build-report.json` included, and every exit code
must be the cold build's. Bounded: one seed, four steps (24 builds of a small corpus: about 25 s on an
idle two-core machine).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path

from builder.cli import main

ROOT = Path(__file__).resolve().parents[1]
SERVERS = 5
CONFIGS = [(workers, kind) for workers in (1, 2) for kind in ("folder", "tar")]


def _build(data: Path, out: Path, workers: int) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["build", str(data), "-o", str(out), "--no-search", "--strict", "--workers", str(workers)])


def _files(out: Path) -> dict[str, str]:
    """The site's files and a hash of each, from a folder or a tar."""
    if out.suffix == ".tar":
        with tarfile.open(out) as tar:
            return {member.name: hashlib.sha256(tar.extractfile(member).read()).hexdigest()  # type: ignore[union-attr]
                    for member in tar.getmembers() if member.isfile()}
    return {path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(out.rglob("*")) if path.is_file()}


def _corpus(data: Path) -> None:
    source = ROOT / "data"
    for name in ("grading-data", "scoring-reports", "sessions"):
        shutil.copytree(source / name, data / name)
    for folder in sorted((source / "servers").iterdir())[:SERVERS]:
        shutil.copytree(folder, data / "servers" / folder.name)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["index", str(data)]) == 0


# Each edit: (random, data folder, a folder outside it) → a word on what it did.
Edit = Callable[[random.Random, Path, Path], str]


def _servers(data: Path) -> list[Path]:
    return sorted(path for path in (data / "servers").iterdir() if path.is_dir() and not path.is_symlink())


def _captures(data: Path) -> list[Path]:
    return sorted((data / "servers").glob("*/*.score.json"))


def capture_added(rng: random.Random, data: Path, outside: Path) -> str:
    source = rng.choice(_captures(data))
    document = json.loads(source.read_text(encoding="utf-8"))
    day = rng.randrange(1, 28)
    document["generatedAt"] = f"2027-01-{day:02d}T00:00:00.000Z"
    stem = f"2027-01-{day:02d}T00-00-00Z"
    (source.parent / f"{stem}.score.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    tools = source.with_name(source.name.replace(".score.json", ".tools.json"))
    if tools.exists():
        shutil.copyfile(tools, source.parent / f"{stem}.tools.json")
    return f"capture added to {source.parent.name}"


def capture_changed(rng: random.Random, data: Path, outside: Path) -> str:
    path = rng.choice(_captures(data))
    document = json.loads(path.read_text(encoding="utf-8"))
    document["model"] = f"stand-in/edit-{rng.randrange(1000)}"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return f"capture changed: {path.name}"


def capture_cut_short(rng: random.Random, data: Path, outside: Path) -> str:
    path = rng.choice(_captures(data))
    path.write_bytes(path.read_bytes()[: rng.randrange(1, 400)])
    return f"capture cut short: {path.name}"


def capture_removed(rng: random.Random, data: Path, outside: Path) -> str:
    path = rng.choice(_captures(data))
    path.unlink()
    path.with_name(path.name.replace(".score.json", ".tools.json")).unlink(missing_ok=True)
    return f"capture removed: {path.name}"


def server_json_changed(rng: random.Random, data: Path, outside: Path) -> str:
    folder = rng.choice(_servers(data))
    meta = {"displayName": f"Server {rng.randrange(1000)}", "repositoryUrl": f"https://example.org/r{rng.randrange(9)}"}
    (folder / "server.json").write_text(json.dumps(meta), encoding="utf-8")
    return f"server.json changed in {folder.name}"


def server_json_removed(rng: random.Random, data: Path, outside: Path) -> str:
    metas = sorted((data / "servers").glob("*/server.json"))
    if not metas:
        return server_json_changed(rng, data, outside)
    path = rng.choice(metas)
    path.unlink()
    return f"server.json removed from {path.parent.name}"


def server_added(rng: random.Random, data: Path, outside: Path) -> str:
    source = rng.choice(_servers(data))
    target = data / "servers" / f"copy-{rng.randrange(1000)}"
    if not target.exists():
        shutil.copytree(source, target)
    return f"server added: {target.name}"


def server_removed(rng: random.Random, data: Path, outside: Path) -> str:
    folders = _servers(data)
    if len(folders) <= 2:
        return server_added(rng, data, outside)
    folder = rng.choice(folders)
    shutil.rmtree(folder)
    return f"server removed: {folder.name}"


def stray_file_added(rng: random.Random, data: Path, outside: Path) -> str:
    folder = rng.choice(_servers(data))
    (folder / f"notes-{rng.randrange(100)}.txt").write_text("a note\n", encoding="utf-8")
    return f"stray file added to {folder.name}"


def stray_folder_added(rng: random.Random, data: Path, outside: Path) -> str:
    folder = rng.choice(_servers(data))
    (folder / f"extra-{rng.randrange(100)}").mkdir(exist_ok=True)
    return f"stray folder added to {folder.name}"


def stray_symlink_added(rng: random.Random, data: Path, outside: Path) -> str:
    folder = rng.choice(_servers(data))
    link = folder / f"linked-{rng.randrange(100)}.score.json"
    if not link.is_symlink():
        link.symlink_to(outside / "elsewhere.json")
    return f"stray symlink added to {folder.name}"


def stray_removed(rng: random.Random, data: Path, outside: Path) -> str:
    strays = sorted(path for folder in _servers(data) for path in folder.iterdir()
                    if path.name.startswith(("notes-", "extra-", "linked-")))
    if not strays:
        return stray_file_added(rng, data, outside)
    path = rng.choice(strays)
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink()
    return f"stray removed: {path.parent.name}/{path.name}"


def index_changed(rng: random.Random, data: Path, outside: Path) -> str:
    path = data / "index.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("servers"):
        document["servers"].pop(rng.randrange(len(document["servers"])))
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return "index.json: an entry dropped"


def index_rebuilt(rng: random.Random, data: Path, outside: Path) -> str:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["index", str(data)])
    return "index.json rebuilt"


def cleo_row_appended(rng: random.Random, data: Path, outside: Path) -> str:
    path = data / "sessions" / "GRADES.jsonl"
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    row = json.loads(rng.choice(rows))
    row["sessionId"] = f"session-{rng.randrange(1000)}"
    path.write_text("\n".join([*rows, json.dumps(row)]) + "\n", encoding="utf-8")
    return "CLEO row appended"


def cleo_row_removed(rng: random.Random, data: Path, outside: Path) -> str:
    path = data / "sessions" / "GRADES.jsonl"
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows.pop(rng.randrange(len(rows)))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return "CLEO row removed"


def flowmcp_entry_changed(rng: random.Random, data: Path, outside: Path) -> str:
    path = rng.choice(sorted((data / "grading-data").rglob("_gradings/*.json")))
    document = json.loads(path.read_text(encoding="utf-8"))
    document["note"] = f"edited {rng.randrange(1000)}"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return f"FlowMCP entry changed: {path.name}"


def scoring_report_removed(rng: random.Random, data: Path, outside: Path) -> str:
    reports = sorted(p for p in (data / "scoring-reports").glob("*/*.json") if p.name not in ("scores.json", "prompts.json"))
    if not reports:
        return cleo_row_appended(rng, data, outside)
    path = rng.choice(reports)
    path.unlink()
    return f"Scoring Protocol report removed: {path.name}"


EDITS: list[Edit] = [
    capture_added, capture_changed, capture_cut_short, capture_removed, server_json_changed, server_json_removed,
    server_added, server_removed, stray_file_added, stray_folder_added, stray_symlink_added, stray_removed,
    index_changed, index_rebuilt, cleo_row_appended, cleo_row_removed, flowmcp_entry_changed, scoring_report_removed,
]


SEED = 7
STEPS = 3
"""Random steps after the first (strays): with the four outputs and the cold build, 24 builds."""


def test_an_incremental_rebuild_equals_a_cold_build_after_random_edits(tmp_path: Path) -> None:
    seed = SEED
    rng = random.Random(seed)
    data, outside = tmp_path / "data", tmp_path / "outside"
    outside.mkdir()
    (outside / "elsewhere.json").write_text("{}", encoding="utf-8")
    _corpus(data)
    outputs = {config: tmp_path / f"site-{config[0]}-{config[1]}" for config in CONFIGS}
    outputs = {config: path.with_suffix(".tar") if config[1] == "tar" else path for config, path in outputs.items()}
    for (workers, _), out in outputs.items():
        _build(data, out, workers)
    # Stray edits come first in one of the steps: they are the ones a read cache keyed on the
    # captures alone missed.
    steps = [[stray_file_added, stray_symlink_added]] + [rng.sample(EDITS, rng.randrange(1, 4)) for _ in range(STEPS)]
    rng.shuffle(steps)
    for number, edits in enumerate(steps):
        done = [edit(rng, data, outside) for edit in edits]
        cold = tmp_path / f"cold-{number}"
        expected_code = _build(data, cold, 1)
        expected = _files(cold)
        for (workers, kind), out in outputs.items():
            code = _build(data, out, workers)
            got = _files(out)
            differ = sorted(path for path in set(got) | set(expected) if got.get(path) != expected.get(path))
            assert (code, differ) == (expected_code, []), f"seed {seed}, step {number} ({done}), {workers} workers, {kind}"
        shutil.rmtree(cold)
