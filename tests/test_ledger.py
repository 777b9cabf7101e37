"""The ledger a build leaves for the next (builder.engine.ledger): read back only when whole and of
the site on disk, and joined with the planned outputs in one pass as a lookup by path would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.engine import ledger
from builder.engine.written import Row

_PATHS = st.lists(st.text(alphabet="ab/é.", min_size=1, max_size=6), unique=True, max_size=30)
_KEYS = st.sampled_from(["k1", "k2"])


@settings(max_examples=200, deadline=None)
@given(planned=st.lists(st.tuples(st.text(alphabet="ab/é.", min_size=1, max_size=6), _KEYS), max_size=30),
       previous=st.lists(st.tuples(st.text(alphabet="ab/é.", min_size=1, max_size=6), _KEYS), max_size=30))
def test_matched_finds_what_a_lookup_by_path_and_key_finds(planned: list[tuple[str, str]],
                                                           previous: list[tuple[str, str]]) -> None:
    planned_by_path = dict(planned)
    previous_by_path = dict(previous)
    wanted = [(path, previous_by_path.get(path) == key) for path, key in sorted(planned_by_path.items())]
    rows = [(path, key, None, None, None, 1, 1, f"sha-{path}") for path, key in sorted(previous_by_path.items())]
    found = list(ledger.matched(((path, key, path) for path, key in sorted(planned_by_path.items())), rows))
    assert [(item, row is not None) for item, row in found] == wanted
    assert all(row[0] == item and row[-1] == f"sha-{item}" for item, row in found if row is not None)


def test_an_output_with_no_key_is_never_matched() -> None:
    rows = [("a", None, None, None, None, 1, 1, "sha")]
    assert list(ledger.matched([("a", None, "a")], rows)) == [("a", None)]


def _written(path: Path, kind: str, size: int | None, rows: list[Row]) -> list[Row]:
    ledger.write(path, kind, "e", rows)
    ledger.end(path, size)
    return list(ledger.rows(path, kind, "e", size))


ROWS: list[Row] = [("a/index.html", "k", None, 0, 1024, 600, 0, "a" * 64),
                   ("b/é.json", "k", None, 1024, 512, 7, 27, "b" * 64)]


def test_a_whole_ledger_is_read_back(tmp_path: Path) -> None:
    assert _written(tmp_path / "l", "tar", 4096, ROWS) == ROWS
    folder: list[Row] = [(path, key, None, None, None, size, gzipped, sha256)
                         for path, key, _, _, _, size, gzipped, sha256 in ROWS]
    assert _written(tmp_path / "f", "folder", None, folder) == folder
    lines = (tmp_path / "l").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"version": 7, "kind": "tar", "engine": "e"} and json.loads(lines[-1]) == {"end": 4096}


@pytest.mark.parametrize("case", ["unended", "other size", "other kind", "other engine", "cut", "missing"])
def test_a_ledger_that_is_not_whole_or_not_of_this_site_lends_nothing(tmp_path: Path, case: str) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger.write(path, "tar", "e", ROWS)
    if case != "unended":
        ledger.end(path, 4096)
    if case == "cut":
        path.write_bytes(path.read_bytes()[:-5])
    if case == "missing":
        path.unlink()
    size, kind = (4095, "tar") if case == "other size" else (4096, "folder" if case == "other kind" else "tar")
    assert list(ledger.rows(path, kind, "f" if case == "other engine" else "e", size)) == []


def test_reading_stops_at_a_row_out_of_order_or_of_the_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    unordered = [ROWS[1], ROWS[0]]
    assert _written(path, "tar", 4096, unordered) == [ROWS[1]]
    ledger.write(path, "tar", "e", ROWS)
    with open(path, "a", encoding="utf-8") as file:
        file.write('["c", "k", null, -1, 512, 1, 1, "s"]\n["d", "k", null, 0, 512, 1, 1, "s"]\n')
    ledger.end(path, 4096)
    assert list(ledger.rows(path, "tar", "e", 4096)) == ROWS
    # a folder's row in a tar's ledger, or a row that names a source: the reading ends there too
    for wrong in ('["c", "k", null, null, null, 1, 1, "s"]', '["c", "k", "segment-1", 0, 512, 1, 1, "s"]'):
        ledger.write(path, "tar", "e", ROWS)
        with open(path, "a", encoding="utf-8") as file:
            file.write(wrong + "\n")
        ledger.end(path, 4096)
        assert list(ledger.rows(path, "tar", "e", 4096)) == ROWS
