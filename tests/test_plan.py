"""The build's plan (builder.engine.plan): the outputs the workers hold are rows on disk, and the
plan gives back every output, theirs and the build's own, sorted by path as Python sorts them,
with who holds each, and refuses a path planned twice or unsafe."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.engine import plan
from builder.engine.plan import HELD, OwnedRows, Plan
from builder.pages.page import DataFile, Page, PageContext

_SEGMENT = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="/\\\x00."),
                   min_size=1, max_size=5)
_PATHS = st.lists(st.lists(_SEGMENT, min_size=1, max_size=3).map("/".join), unique=True, min_size=1, max_size=40)


def _page(path: str) -> Page:
    return Page(path, "x.html", PageContext(title="t"))


@settings(max_examples=60, deadline=None)
@given(paths=_PATHS, split=st.data(), run=st.integers(1, 6))
def test_sorted_gives_every_output_by_path_with_who_holds_it(paths: list[str], split: st.DataObject, run: int) -> None:
    """Each path goes to the build's process or to one of two readers' workers (written in runs
    of `run` rows); what comes back is every output once, in the order of Python's `sorted`, each
    with its part, its worker and its position, as they were given."""
    where = [split.draw(st.integers(HELD, 1)) for _ in paths]
    expected: dict[str, tuple[str | None, int, int, int]] = {}
    held: list[Page | DataFile] = []
    with tempfile.TemporaryDirectory() as folder, mock.patch.object(plan, "RUN", run):
        parts = [OwnedRows(Path(folder) / f"owned-{n}") for n in range(2)]
        for path, part in zip(paths, where, strict=True):
            if part == HELD:
                expected[path] = (None, HELD, HELD, len(held))
                held.append(_page(path))
            else:
                owner, position = len(path) % 2, parts[part].count
                parts[part].add([(path, f"key-{path}", True, owner, position)])
                expected[path] = (f"key-{path}", part, owner, position)
        found = list(Plan(held, parts).sorted())
    assert [p.path for p in found] == sorted(paths)
    assert {p.path: (p.key, p.part, p.owner, p.position) for p in found} == expected


def test_check_refuses_a_path_planned_twice_wherever_it_is_held(tmp_path: Path) -> None:
    owned = OwnedRows(tmp_path / "owned")
    owned.add([("servers/a/index.html", "k", True, 0, 0), ("servers/b/index.html", "k", True, 1, 0)])
    Plan([DataFile("api/a.json", "{}")], [owned]).check()
    with pytest.raises(ValueError, match=r"same path: servers/b/index\.html"):
        Plan([DataFile("servers/b/index.html", "{}")], [owned]).check()
    other = OwnedRows(tmp_path / "other")
    other.add([("servers/a/index.html", None, True, 0, 0)])
    with pytest.raises(ValueError, match=r"same path: servers/a/index\.html"):
        Plan([], [owned, other]).check()


def test_check_refuses_an_unsafe_path_a_worker_holds(tmp_path: Path) -> None:
    owned = OwnedRows(tmp_path / "owned")
    owned.add([("servers/../../outside.html", "k", True, 0, 0)])
    with pytest.raises(ValueError, match="unsafe output path"):
        Plan([], [owned]).check()


def test_page_paths_are_the_html_pages_wherever_they_are_held(tmp_path: Path) -> None:
    owned = OwnedRows(tmp_path / "owned")
    owned.add([("servers/a/index.html", "k", True, 0, 0), ("api/servers/a.json", "k", False, 0, 1)])
    plan = Plan([_page("index.html"), DataFile("stats.json", "{}")], [owned])
    assert sorted(plan.page_paths()) == ["index.html", "servers/a/index.html"]


def test_rows_past_a_batch_come_back_whole_and_sorted(tmp_path: Path) -> None:
    """Runs are pickled a batch at a time (builder.engine.batches): rows across batch and run
    boundaries all come back, in Python's order."""
    paths = [f"servers/s{n * 7919 % 2503}/index.html" for n in range(2503)]
    owned = OwnedRows(tmp_path / "owned")
    with mock.patch.object(plan, "RUN", 1100):
        for position, path in enumerate(paths):
            owned.add([(path, "k", True, position % 2, position)])
        found = list(Plan([], [owned]).sorted())
    assert len(owned.runs) == 3
    assert [p.path for p in found] == sorted(paths)
    assert [p.position for p in found] == [paths.index(p.path) for p in found]
