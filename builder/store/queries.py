"""The SQL runner: aggregates as SQL files, one question per file, run against the DuckDB store.

Each grading system keeps its own files beside its code (`builder/<system>/queries/*.sql`, run
through that package's `run` and `sql`); the files here are the ones every system asks alike.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
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


class PackedRows:
    """A query's rows kept from the plan to the render, each packed as one pickled tuple and made a
    dict again when read: for rows a page reads a few of at a time. As dicts, a registry's 15,036
    comparison rows held about 18 MiB of the build's process through its rendering; packed, about a
    fifth of that (`run_packed`)."""

    def __init__(self, names: list[str], rows: list[tuple[Any, ...]]) -> None:
        self.names = tuple(names)
        self._packed = [pickle.dumps(row, protocol=pickle.HIGHEST_PROTOCOL) for row in rows]

    def __len__(self) -> int:
        return len(self._packed)

    def __getitem__(self, position: int) -> dict[str, Any]:
        return dict(zip(self.names, pickle.loads(self._packed[position]), strict=True))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[position] for position in range(len(self)))


def run_packed(con: duckdb.DuckDBPyConnection, name: str, folder: Path = _HERE) -> PackedRows:
    """`run`'s rows, packed (`PackedRows`)."""
    cursor = con.execute(sql(name, folder))
    return PackedRows([column[0] for column in cursor.description], cursor.fetchall())
