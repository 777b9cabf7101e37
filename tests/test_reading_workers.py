"""Worker processes that read part of the corpus and render its pages (builder.engine.workers).

The build the workers make is compared byte for byte with the build of one process, on the
embedded corpus (TDQS with warnings and an index.json to check, CLEO, FlowMCP), as a folder and
as an artifact tar, cold and after a change."""

from __future__ import annotations

import gc
import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest

import builder.tdqs.pages.section as section
from builder.build import build
from builder.config import SiteConfig
from builder.engine.problems import ProblemLog
from builder.engine.read_cache import ReadCache
from builder.engine.records import ReadContext, read_records
from builder.engine.workers import WorkerError, Workers
from builder.pages.page import DataFile, Page

ROOT = Path(__file__).resolve().parent.parent
CONFIG = SiteConfig(site_url="https://example.org", base_url="/scorecards/")


def _count(state: dict[str, Any], item: int) -> tuple[int, int]:
    state["seen"] = state.get("seen", 0) + 1
    return item * item, state["seen"]


def _fail(state: dict[str, Any], item: int) -> None:
    raise ValueError(f"cannot take {item}")


def test_results_come_back_in_the_order_given_and_each_worker_keeps_its_state() -> None:
    owners = Workers(2)
    try:
        results = list(owners.share(_count, list(range(20))))
        assert [value for _, (value, _) in results] == [i * i for i in range(20)]
        assert {worker for worker, _ in results} <= {0, 1}
        # Each worker counted what it was given: its counts run 1, 2, 3 … in the order it got them.
        for worker in (0, 1):
            counts = [seen for w, (_, seen) in results if w == worker]
            assert counts == list(range(1, len(counts) + 1))
        with pytest.raises(WorkerError, match="cannot take 3"):
            list(owners.share(_fail, [3]))
    finally:
        owners.close()


def _files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _owned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(section.RECORDS, "chunk", 4)


def _data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    return data


def test_workers_build_the_same_site_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data(tmp_path)
    one = build(data, tmp_path / "one", CONFIG, workers=1)
    build(data, tmp_path / "one.tar", CONFIG, workers=1)
    _owned(monkeypatch)
    owned = build(data, tmp_path / "owned", CONFIG, workers=2)
    build(data, tmp_path / "owned.tar", CONFIG, workers=2)

    assert _files(tmp_path / "owned") == _files(tmp_path / "one")
    assert (tmp_path / "owned.tar").read_bytes() == (tmp_path / "one.tar").read_bytes()
    # The corpus has problems (index.json and capture warnings): the workers' logs were merged.
    assert [p.model_dump() for p in owned.log.problems] == [p.model_dump() for p in one.log.problems]
    assert owned.log.problems, "the embedded corpus is expected to have warnings"
    # The builds froze what they kept out of the collector's walks (builder.engine.heap) and handed it
    # back when they ended: a process that goes on after a build is left as it was.
    assert gc.get_freeze_count() == 0


def _held(state: dict[str, Any], _: None) -> tuple[int, int]:
    """In a worker: how many outputs it planned, and how many of them it holds made (a page or a
    data file, with the parsed server its contexts are drawn from) rather than deferred."""
    outputs = list(state.get("outputs", []))  # the items as stored: indexing would make them
    return len(outputs), sum(isinstance(output, Page | DataFile) for output in outputs)


def test_a_worker_holds_none_of_the_servers_it_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What keeps a worker's memory flat as the corpus grows: once read, a server is not held
    until its pages are rendered, but read again then (the build above checks the pages)."""
    data = _data(tmp_path)
    _owned(monkeypatch)
    read = read_records(section.RECORDS, ReadContext(data, ProblemLog(), CONFIG, workers=2))
    assert read is not None and read.owners is not None
    try:
        read.owners.start_each(_held, [None] * read.owners.count)
        held = read.owners.collect()
    finally:
        read.owners.close()
    assert read.owned is not None and read.outputs == []  # every output is the workers', as a row
    planned = read.owned.count
    assert planned > read.corpus.server_count > 0
    assert sum(count for count, _ in held) == planned
    assert [made for _, made in held] == [0] * len(held)


def _built_by_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A copy of the embedded corpus, built by workers into `site.tar`: (data, the tar)."""
    data = _data(tmp_path)
    _owned(monkeypatch)
    out = tmp_path / "site.tar"
    build(data, out, CONFIG, search=False, workers=2)
    return data, out


def _entries(out: Path) -> dict[str, int]:
    """Each cache entry's name and inode: an entry written again has a new inode."""
    return {p.name: p.stat().st_ino for p in (out.parent / f".{out.name}.cache" / "tdqs-servers").glob("*.entry")}


def test_a_rebuild_by_workers_reads_only_the_changed_server_and_equals_a_cold_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, out = _built_by_workers(tmp_path, monkeypatch)
    first = _entries(out)
    assert len(first) == len(list((data / "servers").iterdir()))

    meta = sorted((data / "servers").iterdir())[1] / "server.json"
    meta.write_text(meta.read_text(encoding="utf-8").replace('"description": "', '"description": "Now: ', 1),
                    encoding="utf-8")
    again = build(data, out, CONFIG, search=False, workers=2)
    assert again.timings["reused"] > 0
    # One server changed: its entry was replaced; every other server was taken from the cache.
    second = _entries(out)
    assert len(second.keys() - first.keys()) == 1 and len(first.keys() - second.keys()) == 1
    assert all(second[name] == first[name] for name in first.keys() & second.keys())
    build(data, tmp_path / "cold.tar", CONFIG, search=False, workers=2)
    assert out.read_bytes() == (tmp_path / "cold.tar").read_bytes()


def test_servers_taken_from_the_cache_are_read_again_when_their_pages_must_be_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, out = _built_by_workers(tmp_path, monkeypatch)
    out.unlink()  # the cache stays, the previous site is gone: every page is rendered again
    again = build(data, out, CONFIG, search=False, workers=2)
    assert again.timings["reused"] == 0
    build(data, tmp_path / "cold.tar", CONFIG, search=False, workers=2)
    assert out.read_bytes() == (tmp_path / "cold.tar").read_bytes()


def test_a_damaged_cache_entry_is_read_as_missing(tmp_path: Path) -> None:
    cache = ReadCache(tmp_path / "cache")
    cache.store("k1", 3, b"entry bytes")
    assert cache.load("k1") == (3, b"entry bytes")
    path = tmp_path / "cache" / "k1.entry"
    path.write_bytes(path.read_bytes()[:-1])
    assert cache.load("k1") is None
    assert cache.load("absent") is None
    cache.store("k2", 0, b"")
    cache.keep_only({"k2"})
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["k2.entry"]
