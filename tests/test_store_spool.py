"""The store in the build's cache (builder.store.tables) and the spool the readers' rows and
search documents go through on their way to it (builder.store.spool).

The values checked are made here, by hand: the rows written, their lengths, the settings asked
of DuckDB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.build import build
from builder.config import SiteConfig
from builder.store.spool import Spool
from builder.store.tables import MEMORY_LIMIT, READ_BUFFER, STORE_FILE, connect, load_file, opened

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = {"id": "VARCHAR", "text": "VARCHAR", "n": "INTEGER"}


def _line(**row: object) -> bytes:
    return json.dumps(row, ensure_ascii=False).encode("utf-8") + b"\n"


def test_a_spool_keeps_what_was_appended_in_order_and_its_longest_line(tmp_path: Path) -> None:
    stale = tmp_path / "spool" / "left-over.jsonl"
    stale.parent.mkdir()
    stale.write_text("from an earlier build\n")
    spool = Spool(tmp_path / "spool")
    assert not stale.exists()  # a spool starts empty
    first, second = _line(id="a", text="x", n=1), _line(id="b", text="y" * 40, n=2)
    spool.append("rows", first)
    spool.append("rows", second)
    spool.append("rows", b"")
    spool.append_json("docs", ["servers/a/index.html", "<p>ä</p>"])
    spool.finish()
    assert spool.path("rows").read_bytes() == first + second
    assert spool.longest["rows"] == len(second) - 1  # the newline is not part of the line
    assert list(spool.records("docs")) == [["servers/a/index.html", "<p>ä</p>"]]
    assert list(spool.records("never-appended")) == []
    spool.remove()
    assert not (tmp_path / "spool").exists()


def test_a_row_longer_than_duckdbs_read_buffer_still_loads(tmp_path: Path) -> None:
    long_text = "é" * (READ_BUFFER // 2 + 1000)  # two bytes each in UTF-8: past the buffer
    spool = Spool(tmp_path / "spool")
    spool.append("t", _line(id="short", text="s", n=1) + _line(id="long", text=long_text, n=2))
    spool.finish()
    assert spool.longest["t"] > READ_BUFFER
    with opened(tmp_path / "cache") as con:
        assert load_file(con, "t", COLUMNS, spool.path("t"), spool.longest["t"]) == 2
        rows = con.execute("SELECT id, length(text), n FROM t ORDER BY n").fetchall()
    assert rows == [("short", 1, 1), ("long", len(long_text), 2)]


def test_a_missing_file_loads_an_empty_table(tmp_path: Path) -> None:
    con = connect()
    try:
        assert load_file(con, "t", COLUMNS, tmp_path / "absent.jsonl", 0) == 0
        assert con.execute("SELECT count(*) FROM t").fetchone() == (0,)
    finally:
        con.close()


def test_the_store_is_a_capped_file_in_the_cache_removed_after_the_first_phase(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / STORE_FILE).write_bytes(b"not a database: an earlier build's, replaced")
    with opened(cache) as con:
        assert (cache / STORE_FILE).is_file()
        limit = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        spill = con.execute("SELECT current_setting('temp_directory')").fetchone()[0]
        con.execute("CREATE TABLE t AS SELECT 1 AS one")
    # DuckDB prints limits in its own units: 128MB is 122.0 MiB (128,000,000 / 2**20 = 122.07).
    assert MEMORY_LIMIT == "128MB" and limit == "122.0 MiB"
    assert Path(spill) == cache / "store.tmp"
    assert sorted(p.name for p in cache.iterdir()) == []


@pytest.mark.parametrize("name", ["site", "site.tar"])
def test_a_build_leaves_neither_spool_nor_store_in_its_cache(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    build(ROOT / "data", out, SiteConfig())
    cache = tmp_path / f".{name}.cache"
    left = sorted(p.relative_to(cache).as_posix() for p in cache.iterdir())
    assert not any(item.startswith(("tdqs-spool", "store.")) for item in left), left
    assert "ledger.jsonl" in left
