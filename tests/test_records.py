"""The record protocol (builder.engine.records): every system's inputs are read by the engine,
each source once per build, however many workers read them and render their pages.

Each system's reading function is wrapped so that every call appends the source it read, and
where it was called from, to a file (forked workers inherit the wrapper and append to the same
file); a real build then counts them."""

from __future__ import annotations

import inspect
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import builder.cleo.pages.section as cleo_section
import builder.flowmcp.reader as flow_reader
import builder.tdqs.pages.section as tdqs_section
from builder.build import build
from builder.config import SiteConfig

ROOT = Path(__file__).resolve().parent.parent
CONFIG = SiteConfig(site_url="https://example.org", base_url="/scorecards/")
ENGINE = str(Path("builder") / "engine" / "records.py")


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, reads: Path, system: str,
              name_of: Any) -> None:
    original = getattr(module, name)

    def counted(source: Any, *args: Any, **kwargs: Any) -> Any:
        engine = any(frame.filename.endswith(ENGINE) for frame in inspect.stack(0))
        with open(reads, "a", encoding="utf-8") as file:
            file.write(json.dumps([system, name_of(source), engine]) + "\n")
        return original(source, *args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def _reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    reads = tmp_path / "reads.jsonl"
    _counting(monkeypatch, tdqs_section, "read_server", reads, "tdqs", lambda files: files.folder.name)
    _counting(monkeypatch, cleo_section, "read_grade_file", reads, "cleo", lambda path: path.name)
    _counting(monkeypatch, flow_reader, "read_tree", reads, "flowmcp", lambda path: path.name)
    _counting(monkeypatch, flow_reader, "read_reports", reads, "flowmcp", lambda path: path.name)
    monkeypatch.setattr(tdqs_section.RECORDS, "chunk", 4)  # several chunks for each worker
    return reads


def _counted(reads: Path) -> tuple[Counter[tuple[str, str]], set[bool]]:
    lines = [json.loads(line) for line in reads.read_text(encoding="utf-8").splitlines()]
    reads.unlink()
    return Counter((system, source) for system, source, _ in lines), {engine for _, _, engine in lines}


@pytest.mark.parametrize("workers", [1, 2])
def test_every_source_is_read_once_by_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    reads = _reads(tmp_path, monkeypatch)
    out = tmp_path / "site.tar"
    build(data, out, CONFIG, search=False, workers=workers)
    counts, where = _counted(reads)
    servers = {p.name for p in (data / "servers").iterdir() if p.is_dir()}
    grade_files = {p.name for p in (data / "sessions").glob("*.jsonl")}
    assert {source for system, source in counts if system == "tdqs"} == servers
    assert {source for system, source in counts if system == "cleo"} == grade_files
    assert {source for system, source in counts if system == "flowmcp"} == {"grading-data", "scoring-reports"}
    assert set(counts.values()) == {1}, [key for key, count in counts.items() if count > 1]
    assert where == {True}, "a source was read outside builder.engine.records"

    # A rebuild after one server changed reads that server only (the rest come from the read cache
    # and their pages from the previous site); CLEO and FlowMCP, read in the build's process, are
    # read again, once each.
    meta = sorted((data / "servers").iterdir())[1] / "server.json"
    meta.write_text(meta.read_text(encoding="utf-8").replace('"description": "', '"description": "Now: ', 1),
                    encoding="utf-8")
    build(data, out, CONFIG, search=False, workers=workers)
    counts, where = _counted(reads)
    tdqs = {source for system, source in counts if system == "tdqs"}
    assert tdqs == ({meta.parent.name} if workers > 1 else servers)
    assert set(counts.values()) == {1}
    assert where == {True}
