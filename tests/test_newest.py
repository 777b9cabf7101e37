"""builder.newest keeps, of items arriving in batches, the same window as sorting them all at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from builder.newest import Newest

_items = st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), max_size=8), max_size=12)


@given(batches=_items, keep=st.integers(0, 10))
def test_the_window_is_that_of_sorting_everything_ties_in_arrival_order(batches: list[list[tuple[int, int]]],
                                                                         keep: int) -> None:
    # Items are (key, serial): equal keys are told apart by when they arrived, which the window
    # must keep as Python's stable sort does.
    numbered = [[(key, f"{b}.{i}") for i, (key, _) in enumerate(batch)] for b, batch in enumerate(batches)]
    newest: Newest[tuple[int, str]] = Newest(keep, key=lambda item: item[0])
    for batch in numbered:
        newest.add(batch)
    everything = [item for batch in numbered for item in batch]
    expected = sorted(everything, key=lambda item: item[0], reverse=True)[:keep]
    assert newest.items == expected
    assert newest.total == len(everything)


def test_a_small_case_by_hand() -> None:
    newest: Newest[tuple[str, str]] = Newest(2, key=lambda item: item[0])
    newest.add([("2026-01-01", "a"), ("2026-03-01", "b")])
    newest.add([])
    newest.add([("2026-03-01", "c"), ("2026-02-01", "d")])
    assert newest.items == [("2026-03-01", "b"), ("2026-03-01", "c")]
    assert newest.total == 4
