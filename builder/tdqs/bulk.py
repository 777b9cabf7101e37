"""The whole TDQS corpus as bulk data: Parquet, CSV and JSON Lines, all written by DuckDB `COPY`.

CSV cells are neutralised as OWASP's CSV injection guidance says: a text cell that starts with
`=`, `+`, `-`, `@`, a tab or a carriage return (which a spreadsheet would run as a formula) gets a
single quote in front. Tool and server names are third-party text; numbers stay numbers. Parquet
and JSON Lines keep every value as it is: no spreadsheet evaluates them.

CSV and JSON Lines are gzipped: uncompressed, the text formats of a registry-sized corpus would
take a third of GitHub Pages' 1 GB on their own. Every tool that reads them (DuckDB, pandas,
`zcat`) reads gzip directly.

One row per current tool (`tools.*`), per server (`servers.*`), and per scored definition in any
capture (`tool-scores-history.*`). The column descriptions are published on the downloads page.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import weakref
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import duckdb

from builder.engine import background
from builder.pages.page import DataFile
from builder.store.tables import files_folder, sql_literal
from builder.urls import DOWNLOADS_FOLDER, download_file

FOLDER = DOWNLOADS_FOLDER


@dataclass(frozen=True)
class Dataset:
    name: str
    description: str
    query: str
    columns: tuple[tuple[str, str], ...]


_TOOL_COLUMNS = (
    ("server_id", "the server's id (its folder name in the data)"),
    ("capture_id", "the capture the score comes from"),
    ("tool_name", "the tool's name as published by the server"),
    ("tdqs", "Tool Definition Quality Score, 1.0–5.0, recomputed from the dimension scores"),
    ("tier", "A–F tier of the TDQS"),
    ("purpose_clarity", "dimension score 1–5 (weight 25%)"),
    ("usage_guidelines", "dimension score 1–5 (weight 20%)"),
    ("behavioral_transparency", "dimension score 1–5 (weight 20%)"),
    ("parameter_semantics", "dimension score 1–5 (weight 15%)"),
    ("conciseness_structure", "dimension score 1–5 (weight 10%)"),
    ("contextual_completeness", "dimension score 1–5 (weight 10%)"),
    ("flags", "the tool's own flags, ';'-separated in CSV"),
    ("server_flags", "the server's flags (Shadowing Risk), ';'-separated in CSV; as in the API, apart from the tool's"),
    ("smells", "dimensions scoring below 3, ';'-separated in CSV"),
    ("input_hash", "tdqs inputHash of the definition that was scored"),
    ("stale", "true when a newer definition of the tool has not been scored yet"),
    ("param_count", "number of top-level input parameters"),
    ("schema_description_coverage", "percent of parameters with a schema description"),
    ("has_annotations", "MCP annotations declared"),
    ("has_output_schema", "output schema declared"),
)
_TOOL_SELECT = """
    SELECT server_id, capture_id, tool_name, tdqs, tier, purpose_clarity, usage_guidelines,
           behavioral_transparency, parameter_semantics, conciseness_structure, contextual_completeness,
           flags, server_flags, smells, input_hash, stale, param_count,
           schema_description_coverage, has_annotations, has_output_schema
    FROM tdqs_tools {where} ORDER BY server_id, capture_id, position
"""

DATASETS = (
    Dataset(
        "tools", "Every current tool with its scores.", _TOOL_SELECT.format(where="WHERE is_current"), _TOOL_COLUMNS
    ),
    Dataset(
        "servers",
        "Every server with the scores of its current capture.",
        """SELECT s.server_id, s.display_name, c.capture_id, c.generated_at AS scored_at, c.spec_version, c.model,
                  c.scoring_system, c.grading_system, c.tool_count, c.scored_tool_count, c.overall_score, c.overall_tier,
                  c.description_quality_score, c.description_quality_tier, c.coherence_score, c.coherence_tier,
                  c.mean_tdqs, c.min_tdqs, c.disambiguation, c.naming_consistency, c.tool_count_appropriateness,
                  c.completeness
           FROM tdqs_servers s JOIN tdqs_captures c ON c.server_id = s.server_id AND c.is_current
           ORDER BY s.server_id""",
        (
            ("server_id", "the server's id"), ("display_name", "its display name"),
            ("capture_id", "its current capture"), ("scored_at", "when the current capture was scored"),
            ("spec_version", "TDQS specification version"), ("model", "model that scored it"),
            ("scoring_system", "scoringSystem/X.Y.Z"), ("grading_system", "gradingSystem/X.Y.Z"),
            ("tool_count", "tools the server has"), ("scored_tool_count", "tools scored"),
            ("overall_score", "0.7 × description quality + 0.3 × coherence (empty below 80% coverage)"),
            ("overall_tier", "tier of the overall score"),
            ("description_quality_score", "0.6 × mean TDQS + 0.4 × min TDQS"),
            ("description_quality_tier", "its tier"), ("coherence_score", "mean of the four coherence dimensions"),
            ("coherence_tier", "its tier"), ("mean_tdqs", "mean tool TDQS"), ("min_tdqs", "lowest tool TDQS"),
            ("disambiguation", "coherence dimension 1–5"), ("naming_consistency", "coherence dimension 1–5"),
            ("tool_count_appropriateness", "coherence dimension 1–5"), ("completeness", "coherence dimension 1–5"),
        ),
    ),
    Dataset(
        "tool-scores-history", "Every scored definition in every capture, superseded ones included.",
        _TOOL_SELECT.format(where=""), _TOOL_COLUMNS,
    ),
)


class _CopiedFile:
    """What DuckDB's `COPY` wrote, left in its temporary file until the build writes it (a
    registry's downloads are tens of MB: not held in memory meanwhile); the file is removed when
    the output holding this is dropped, or when the process ends. The file is in the build's cache
    (builder.store.tables.files_folder), where the next build removes it if this one is killed."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.ready: Future[None] | None = None
        """The background copy that writes it (`_later`), or None: written already."""
        weakref.finalize(self, _remove, path)

    def __call__(self) -> bytes:
        if self.ready is not None:
            self.ready.result()  # raises what the copy raised
        with open(self.path, "rb") as source:
            return source.read()


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _temporary(folder: Path | None, suffix: str) -> _CopiedFile:
    """A new empty file in `folder` (builder.store.tables.files_folder; None: the system's
    temporary folder), removed with what is returned."""
    handle, path = tempfile.mkstemp(suffix=suffix, prefix="scorecards-bulk-", dir=folder)
    os.close(handle)
    return _CopiedFile(path)


def _copy(con: duckdb.DuckDBPyConnection, folder: Path | None, query: str, options: str, suffix: str) -> _CopiedFile:
    """The rows of `query` written by DuckDB's `COPY` in the format `options` names, streamed.

    A `COPY` that keeps the rows' order with two threads holds whole batches of written rows in
    memory (a JSON batch of 122,880 tools is 57 MiB), and with the full registry plus 2% more
    captures the JSON copy ran out of the store's memory cap (builder.store.tables.MEMORY_LIMIT).
    So the sorted rows are put in a table first (sorting spills to disk past the cap), and one
    thread copies that table in its order, writing as it reads: the same rows in the same order,
    whatever the size."""
    copied = _temporary(folder, suffix)  # removed with it, or now if COPY fails
    con.execute(f"CREATE OR REPLACE TABLE bulk_copy AS {query}")
    try:
        con.execute("SET threads = 1")
        con.execute("SET preserve_insertion_order = false")  # one thread reads the table in order
        con.execute(f"COPY bulk_copy TO {sql_literal(copied.path)} ({options})")
    finally:
        con.execute("SET preserve_insertion_order = true")
        con.execute("RESET threads")
        con.execute("DROP TABLE bulk_copy")
    return copied


FORMULA_START = r"^[=+@\t\r-]"
"""The first characters OWASP lists for CSV injection, as a DuckDB (RE2) regular expression."""


def neutralised(con: duckdb.DuckDBPyConnection, query: str) -> str:
    """`query` with every text column's formula-like values prefixed with `'`: the column types
    are asked of DuckDB, so no text column can be forgotten."""
    columns = con.execute(f"DESCRIBE ({query})").fetchall()
    quoted = ['"' + str(column[0]).replace('"', '""') + '"' for column in columns if str(column[1]) == "VARCHAR"]
    if not quoted:
        return query
    replaced = ", ".join(
        f"CASE WHEN regexp_matches({name}, '{FORMULA_START}') THEN chr(39) || {name} ELSE {name} END AS {name}"
        for name in quoted
    )
    return f"SELECT * REPLACE ({replaced}) FROM ({query})"


PARQUET = "FORMAT parquet, COMPRESSION zstd"
CSV = "FORMAT csv, HEADER true, COMPRESSION gzip"
JSON_LINES = "FORMAT json, COMPRESSION gzip"
BACKGROUND_MEMORY = "64MB"
"""What the DuckDB that gzips the text downloads (`_compress`) may hold: it streams one Parquet file."""


def bulk_files(con: duckdb.DuckDBPyConnection) -> Iterator[DataFile]:
    """Each dataset as Parquet, CSV and JSON Lines. The Parquet files are copied from the store
    now; the gzipped CSV and JSON Lines (gzip is most of the downloads' time) are copied from each
    dataset's Parquet file by a DuckDB of their own in a background thread (`_compress`), while the
    build goes on; each waits for its file when it is written. The same rows in the same order:
    Parquet keeps every column's type, and one thread reads a file in its order."""
    folder = files_folder(con)
    sources = [_copy(con, folder, dataset.query, PARQUET, ".parquet") for dataset in DATASETS]
    try:
        for dataset, source in zip(DATASETS, sources, strict=True):
            rows = f"SELECT * FROM read_parquet({sql_literal(source.path)})"
            csv_query = rows
            if dataset.columns is _TOOL_COLUMNS:  # CSV has no lists: join them
                csv_query = (
                    "SELECT * REPLACE (array_to_string(flags, ';') AS flags, array_to_string(server_flags, ';') AS server_flags, "
                    "array_to_string(smells, ';') AS smells) "
                    f"FROM ({rows})"
                )
            yield DataFile(download_file(dataset.name, "parquet"), source)
            yield DataFile(download_file(dataset.name, "csv.gz"),
                           _later(folder, source, csv_query, CSV, ".csv.gz"))
            yield DataFile(download_file(dataset.name, "jsonl.gz"),
                           _later(folder, source, rows, JSON_LINES, ".jsonl.gz"))
    finally:
        background.release()  # its thread ends once the copies asked for are done


def _later(folder: Path | None, source: _CopiedFile, query: str, options: str, suffix: str) -> _CopiedFile:
    """A file in `folder` `_compress` will write in the background (builder.engine.background);
    reading it waits for it."""
    copied = _temporary(folder, suffix)
    copied.ready = background.submit(_compress, source, query, options, copied, folder)
    return copied


def _compress(source: _CopiedFile, query: str, options: str, target: _CopiedFile, folder: Path | None) -> None:
    """In the background thread: `query` (over `source`, a Parquet file) copied to `target`, the CSV
    neutralised, by an in-memory DuckDB with one thread, so in the file's order. Both files are held
    until the copy is done: neither is removed while DuckDB reads or writes it. Were it to spill, it
    would spill into `folder` (an in-memory DuckDB's own default is `.tmp` in the working folder)."""
    config: dict[str, str | bool | int | float | list[str]] = {
        "threads": 1, "memory_limit": BACKGROUND_MEMORY, "preserve_insertion_order": False}
    if folder is not None:
        config["temp_directory"] = str(folder)
    with duckdb.connect(":memory:", config=config) as con:
        if options == CSV:
            query = neutralised(con, query)
        con.execute(f"COPY ({query}) TO {sql_literal(target.path)} ({options})")
