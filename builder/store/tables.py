"""Bulk loading into DuckDB.

Row-by-row `executemany` is slow in DuckDB; a quarter of a million tools would take minutes. Rows
are streamed to a temporary JSON Lines file instead and read back with `read_json` and an explicit
column list, which DuckDB parses in parallel. Every system's loader goes through `load_rows`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import duckdb


def connect() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:")
    con.execute("SET preserve_insertion_order = true")
    return con


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
    column_sql = ", ".join(f"{_quote(name)} {kind}" for name, kind in columns.items())
    con.execute(f"CREATE OR REPLACE TABLE {_quote(table)} ({column_sql})")
    handle, path = tempfile.mkstemp(suffix=".jsonl", prefix=f"scorecards-{table}-")
    count = 0
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
                count += chunk.count(b"\n")
        if count:
            spec = "{" + ", ".join(f"{_literal(n)}: {_literal(t)}" for n, t in columns.items()) + "}"
            con.execute(
                f"INSERT INTO {_quote(table)} SELECT * FROM read_json(?, format = 'newline_delimited', "
                f"columns = {spec}, maximum_object_size = 134217728)",
                [path],
            )
    finally:
        os.unlink(path)
    return count


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def query_dicts(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    cursor = con.execute(sql, list(params))
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
