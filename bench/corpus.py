"""The benchmark's input: a demo corpus of the asked size, generated once and reused.

Generating the registry-sized corpus takes most of an hour on two cores, so a corpus is kept in
the work folder under a name made of its arguments and reused when its marker and index.json
(written last, by `scorecards demo`) say it is complete and of the same size and seed. Each run
builds from a hard-linked copy of it, so the 1% change the incremental step makes never
touches the kept corpus: new capture files are new files, and index.json is replaced by rename.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.measure import Run, measure

MARKER = ".demo-corpus.json"
INDEX = "index.json"


@dataclass(frozen=True)
class Corpus:
    folder: Path
    servers: int
    tools: int
    seed: int
    generated: Run | None
    """The `scorecards demo` run, or None when an existing corpus was reused."""


def corpus_folder(workdir: Path, servers: int, tools: int, seed: int) -> Path:
    return workdir / f"corpus-{servers}-{tools}-{seed}"


def is_complete(folder: Path, servers: int, tools: int, seed: int) -> bool:
    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    same = (marker.get("servers"), marker.get("tools"), marker.get("seed")) == (servers, tools, seed)
    return same and (folder / INDEX).is_file()


def scorecards_command(*arguments: str) -> list[str]:
    """`scorecards …` through this interpreter, so the benchmark measures the checkout it runs in."""
    return [sys.executable, "-m", "builder.cli", *arguments]


def ensure_corpus(workdir: Path, servers: int, tools: int, seed: int, logs: Path) -> Corpus:
    folder = corpus_folder(workdir, servers, tools, seed)
    if is_complete(folder, servers, tools, seed):
        return Corpus(folder, servers, tools, seed, None)
    run = measure(
        scorecards_command("demo", str(folder), "--servers", str(servers), "--tools", str(tools), "--seed", str(seed)),
        logs / "demo.log",
    )
    if run.returncode != 0 or not is_complete(folder, servers, tools, seed):
        raise RuntimeError(f"scorecards demo failed (exit {run.returncode}); see {run.log}")
    return Corpus(folder, servers, tools, seed, run)


def refresh_stale_index(folder: Path, logs: Path) -> Run | None:
    """Rewrites index.json with the build under test when the kept one no longer validates
    against its model (the index format moved on since the corpus was generated): a registry
    publishes captures and their index together, so a stale index is not what it would serve."""
    from pydantic import ValidationError

    from builder.tdqs.models import RegistryIndex

    try:
        RegistryIndex.model_validate_json((folder / INDEX).read_text(encoding="utf-8"))
        return None
    except ValidationError:
        pass
    run = measure(scorecards_command("index", str(folder)), logs / "index.log")
    if run.returncode != 0:
        raise RuntimeError(f"scorecards index failed (exit {run.returncode}); see {run.log}")
    return run


def working_copy(corpus: Path, target: Path) -> Path:
    """A hard-linked copy of `corpus` at `target` (replacing any earlier one): seconds, no space."""
    if target.exists():
        shutil.rmtree(target)
    subprocess.run(["cp", "-al", str(corpus), str(target)], check=True)
    return target


def replace_file(path: Path, text: str) -> None:
    """Writes `text` to `path` through a new inode, so a hard link to the old file is untouched."""
    temporary = path.with_name(path.name + ".bench-tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
