"""Bulk loading into DuckDB.

Row-by-row `executemany` is slow in DuckDB; a quarter of a million tools would take minutes. Rows
are written to a JSON Lines file instead and read back with `read_json` and an explicit column
list, which DuckDB parses in parallel (`load_file`): TDQS's from the spool its readers fill
(builder.store.spool), the others' through a temporary file (`load_rows`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb

MEMORY_LIMIT = "128MB"
"""What DuckDB may hold in memory when the store is a file; past it, it spills to disk. The tables of
the whole registry would take about 0.7 GB in memory; read from the file, the statistics need far
less whatever the corpus size. At 256MB DuckDB was what grew the build's process most from a tenth of
the registry to all of it, during the load and planning (`git show ff15eda:docs/performance.md`, issue 32's fifth stop);
the downloads are copied streamed (builder.tdqs.bulk), so no step needs more than this."""


STORE_FILE = "store.duckdb"
SPILL_FOLDER = "store.tmp"
FILES_FOLDER = "store.files"
"""Beside the store's file: what queries wrote that lives on past the store (`files_folder`)."""


def _remove_store(folder: Path) -> None:
    """The store's files in `folder`: the database, its write-ahead log and DuckDB's spill files."""
    (folder / STORE_FILE).unlink(missing_ok=True)
    (folder / (STORE_FILE + ".wal")).unlink(missing_ok=True)
    shutil.rmtree(folder / SPILL_FOLDER, ignore_errors=True)


def connect(folder: Path | None = None) -> duckdb.DuckDBPyConnection:
    """The store: in memory, or, with `folder` (the build's cache), the database file `store.duckdb`
    there, made anew, with DuckDB's memory capped and its spill files kept in the folder too."""
    if folder is None:
        con = duckdb.connect(":memory:")
    else:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_store(folder)
        shutil.rmtree(folder / FILES_FOLDER, ignore_errors=True)  # what an earlier build left
        con = duckdb.connect(str(folder / STORE_FILE))
        con.execute("SET memory_limit = ?", [MEMORY_LIMIT])
        con.execute("SET temp_directory = ?", [str(folder / SPILL_FOLDER)])
    con.execute("SET preserve_insertion_order = true")
    return con


@contextlib.contextmanager
def opened(folder: Path | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """`connect(folder)` for the length of a build's first phase: then closed, and its files removed
    (every build loads the store afresh; a rebuild is fast because its readers take unchanged
    servers from their cache)."""
    con = connect(folder)
    try:
        yield con
    finally:
        con.close()
        if folder is not None:
            _remove_store(folder)


def files_folder(con: duckdb.DuckDBPyConnection) -> Path | None:
    """Where a query's output may be kept as a file until the build ends, the store closed or not
    (a download DuckDB copied, rows on their way into a table): `store.files` beside the store's
    file, in the build's cache, so nothing is written outside the output's folder. The next build
    empties it when it opens its store (`connect`): the files of a build that was killed are
    removed there, where a temporary folder of the system would keep them. None for a store in
    memory (tests): then the system's temporary folder."""
    row = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    if row is None or not row[0]:
        return None
    folder = Path(row[0]).parent / FILES_FOLDER
    folder.mkdir(exist_ok=True)
    return folder


def remove_files_folder(folder: Path) -> None:
    """The files folder in `folder` (`files_folder`) once the build that kept files there has
    dropped them all: when it is empty."""
    with contextlib.suppress(OSError):
        (folder / FILES_FOLDER).rmdir()


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def encode_rows(columns: Mapping[str, str], rows: Iterable[Sequence[Any]]) -> bytes:
    """`rows` (tuples in column order) as the JSON Lines `load_rows` reads: a worker process can
    encode its share ahead, and a rebuild keep it with the rest of a server's cached entry."""
    names = list(columns)
    return "".join(
        json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False) + "\n" for row in rows
    ).encode("utf-8")


def load_rows(
    con: duckdb.DuckDBPyConnection,
    table: str,
    columns: Mapping[str, str],
    rows: Iterable[Sequence[Any]],
) -> int:
    """Create `table` with `columns` (name → DuckDB type) and fill it with `rows` (tuples in
    column order). Returns the number of rows loaded."""
    return load_encoded(con, table, columns, [encode_rows(columns, rows)])


def load_encoded(
    con: duckdb.DuckDBPyConnection,
    table: str,
    columns: Mapping[str, str],
    chunks: Iterable[bytes],
) -> int:
    """Create `table` with `columns` and fill it with rows encoded by `encode_rows`, chunk after
    chunk. Returns the number of rows loaded."""
    handle, path = tempfile.mkstemp(suffix=".jsonl", prefix=f"scorecards-{table}-", dir=files_folder(con))
    longest = 0
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
                longest = max(longest, longest_line(chunk))
        return load_file(con, table, columns, Path(path), longest)
    finally:
        os.unlink(path)


def longest_line(data: bytes) -> int:
    return max(map(len, data.split(b"\n")), default=0)


READ_BUFFER = 16 * 1024 * 1024
"""The longest row `read_json` reads without being told of a longer one (its default); it holds
twice this per thread while it reads."""


def load_file(
    con: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, str], path: Path, longest: int
) -> int:
    """Create `table` with `columns` and fill it from a file of rows encoded by `encode_rows` (none
    when the file does not exist), the longest of them `longest` bytes. Returns the number of rows
    loaded."""
    column_sql = ", ".join(f"{_quote(name)} {kind}" for name, kind in columns.items())
    con.execute(f"CREATE OR REPLACE TABLE {_quote(table)} ({column_sql})")
    if not path.exists() or path.stat().st_size == 0:
        return 0
    inserted = con.execute(f"INSERT INTO {_quote(table)} SELECT * FROM {read_rows(columns, longest)}",
                           [str(path)]).fetchone()
    return int(inserted[0]) if inserted else 0


def read_rows(columns: Mapping[str, str], longest: int = 0) -> str:
    """The `read_json` call that reads rows encoded by `encode_rows`, the longest `longest` bytes;
    its one parameter is a file or a list of files."""
    spec = "{" + ", ".join(f"{sql_literal(n)}: {sql_literal(t)}" for n, t in columns.items()) + "}"
    return (f"read_json(?, format = 'newline_delimited', columns = {spec}, "
            f"maximum_object_size = {max(READ_BUFFER, longest + 1)})")


@contextlib.contextmanager
def scratch(folder: Path, memory: str, threads: int | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A DuckDB in memory for one query over files of rows (`read_rows`), holding at most `memory`
    and spilling past it into `folder`; `threads`: DuckDB's default (one per core) unless given."""
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET memory_limit = ?", [memory])
        con.execute("SET temp_directory = ?", [str(folder / "duckdb")])
        if threads is not None:
            con.execute(f"SET threads = {int(threads)}")
        yield con
    finally:
        con.close()


def sql_literal(text: str) -> str:
    """`text` as an SQL string literal (a path beside a user-named output may hold a quote)."""
    return "'" + text.replace("'", "''") + "'"


def query_dicts(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    cursor = con.execute(sql, list(params))
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
