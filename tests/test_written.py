"""What a build wrote, on disk (builder.engine.written): read back sorted by path exactly as Python
sorts strings, whatever the characters, since the tar's order and the ledger's depend on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.engine.written import WrittenLog, decode, encode, sorted_rows

_PATH = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(first=st.lists(_PATH, max_size=20, unique=True), second=st.lists(_PATH, max_size=20, unique=True))
def test_rows_of_several_files_come_back_sorted_as_python_sorts(
    tmp_path_factory: object, first: list[str], second: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("written")  # type: ignore[attr-defined]
    second = [path for path in second if path not in first]
    logs = [WrittenLog(folder, "a"), WrittenLog(folder, "b")]
    for log, paths in zip(logs, (first, second), strict=True):
        for number, path in enumerate(paths):
            place = ("segment", number * 512, 512) if number % 2 else (None, None, None)
            log.add((path, f"key-{path}" if number % 3 else None, *place, len(path), number, f"sha-{path}"))
    files: list[Path] = [f for log in logs for f in log.files()]
    rows = list(sorted_rows(files, folder))
    for log in logs:
        log.close()
    assert [row[0] for row in rows] == sorted(first + second)
    placed = {path: number for paths in (first, second) for number, path in enumerate(paths)}
    assert all(row[1] == (f"key-{row[0]}" if placed[row[0]] % 3 else None) for row in rows)
    assert all((row[2:5] == ("segment", placed[row[0]] * 512, 512)) == bool(placed[row[0]] % 2) for row in rows)
    assert all(row[2:5] == (None, None, None) for row in rows if not placed[row[0]] % 2)
    assert all(row[5:] == (len(row[0]), placed[row[0]], f"sha-{row[0]}") for row in rows)


@pytest.mark.parametrize("line", [
    b"\x00not json", b"[1, 2]", b'{"path": "a"}', b'["a", null, null, null, null, -1, 0, "s"]',
    b'["a", null, "t", 0, 0, 1, 0, "s"]', b'["a", null, "t", 0, null, 1, 0, "s"]', b'["a", 5, null, null, null, 1, 0, "s"]',
])
def test_a_line_of_the_wrong_shape_holds_no_row(line: bytes) -> None:
    assert decode(line) is None


def test_a_row_reads_back_as_written() -> None:
    for row in [("a/é\n\"", "k", "segment-1", 0, 512, 7, 27, "s"), ("b", None, None, None, None, 0, 0, "s")]:
        assert decode(encode(row).encode("utf-8")) == row


def test_a_registrys_rows_sort_within_the_memory_duckdb_is_given(tmp_path: Path) -> None:
    """352,000 rows, a full registry's site (228,369 tool pages and the rest), in three writers'
    files as a build leaves them: sorted by DuckDB within `MEMORY` (sorted as read, they were not)."""
    import hashlib

    logs = [WrittenLog(tmp_path, name) for name in ("main", "1", "2")]
    count = 352_000
    for number in range(count):
        server = (number * 7919) % count // 23  # the rows come in another order than the paths'
        path = f"servers/a-server-named-{server:06d}/tools/a_tool_named_{number % 23}/index.html"
        sha256 = hashlib.sha256(path.encode()).hexdigest()
        logs[number % 3].add((path, sha256[:32], f"segment-{number % 3}", number * 9216, 9216, 9000, 2800, sha256))
    files = [f for log in logs for f in log.files()]
    paths = [row[0] for row in sorted_rows(files, tmp_path)]
    for log in logs:
        log.close()
    assert len(paths) == count and paths == sorted(paths)
