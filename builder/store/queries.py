"""The SQL runner: aggregates as SQL files, one question per file, run against the DuckDB store.

Each grading system keeps its own files beside its code (`builder/<system>/queries/*.sql`, run
through that package's `run` and `sql`); the files here are the ones every system asks alike.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import duckdb

from builder.store.tables import query_dicts

_HERE = Path(__file__).resolve().parent


@cache
def sql(name: str, folder: Path = _HERE) -> str:
    return (folder / f"{name}.sql").read_text(encoding="utf-8")


def run(
    con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None, folder: Path = _HERE,
) -> list[dict[str, Any]]:
    if params:
        cursor = con.execute(sql(name, folder), params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return query_dicts(con, sql(name, folder))
