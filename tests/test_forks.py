"""Forks only where safe (issue 46): no build forks while a thread or a pipe of its own is alive.
Forked then, a worker may inherit a lock another thread held, or Pagefind's input pipe (which then
never ends): a hang, and on Python 3.12 and later a warning. The build forks its reader workers
before anything else runs, and nothing after (builder.build).

Every test of the suite is checked so (tests/fork_guard.py, tests/conftest.py); these build a site
without TDQS, whose pages are all rendered in the build's process, and a registry, whose reader
workers are forked, and check that the check sees a fork it should."""

from __future__ import annotations

import hashlib
import multiprocessing
import shutil
import threading
from pathlib import Path

import fork_guard

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

ROOT = Path(__file__).resolve().parents[1]


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_fork_while_a_thread_is_alive_is_seen() -> None:
    fork_guard.taken()
    release = threading.Event()
    thread = threading.Thread(target=release.wait, name="held-open")
    thread.start()
    try:
        child = multiprocessing.get_context("fork").Process(target=int)
        child.start()
        child.join()
    finally:
        release.set()
        thread.join()
    found = fork_guard.taken()
    assert len(found) == 1 and "held-open" in found[0]


def test_a_site_without_tdqs_forks_nothing_and_builds_the_same_site_as_one_worker(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for folder in ("grading-data", "sessions"):  # FlowMCP and CLEO, no TDQS: no reader workers
        shutil.copytree(ROOT / "data" / folder, data / folder)
    fork_guard.taken()
    before = fork_guard.forks
    result = build(data, tmp_path / "site", SiteConfig(), workers=2)
    assert result.systems == ["cleo", "flowmcp"]
    assert fork_guard.forks - before == 0  # no system reads in workers: every page is rendered here
    assert fork_guard.taken() == []
    assert (tmp_path / "site" / "pagefind" / "pagefind.js").is_file()
    build(data, tmp_path / "alone", SiteConfig(), workers=1)  # no fork at all
    assert tree(tmp_path / "site") == tree(tmp_path / "alone")


def test_a_registry_forks_its_reader_workers_before_any_thread(tmp_path: Path) -> None:
    generate_demo(tmp_path / "data", servers=12, tools=48, seed=46, workers=1)
    fork_guard.taken()
    before = fork_guard.forks
    result = build(tmp_path / "data", tmp_path / "site", SiteConfig(), workers=2, shard_docs=5)
    assert result.systems == ["tdqs"]
    assert fork_guard.forks - before == 2  # the two reader workers, which render what they read
    assert fork_guard.taken() == []
    assert (tmp_path / "site" / "pagefind-3" / "pagefind.js").is_file()  # three shards, one after another

