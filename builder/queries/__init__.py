"""Aggregates as SQL files, one question per file, run against the DuckDB store."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import duckdb

from builder.store.tables import query_dicts

_HERE = Path(__file__).resolve().parent


@cache
def sql(name: str) -> str:
    return (_HERE / f"{name}.sql").read_text(encoding="utf-8")


def run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    if params:
        cursor = con.execute(sql(name), params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return query_dicts(con, sql(name))
