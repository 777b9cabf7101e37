"""TDQS's aggregates as SQL files, one question per file, run against the DuckDB store by the
store's SQL runner (builder.store.queries)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from builder.store import queries as runner

FOLDER = Path(__file__).resolve().parent


def sql(name: str) -> str:
    return runner.sql(name, FOLDER)


def run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return runner.run(con, name, params, FOLDER)


def run_packed(con: duckdb.DuckDBPyConnection, name: str) -> runner.PackedRows:
    return runner.run_packed(con, name, FOLDER)
