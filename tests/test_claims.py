"""A writer's claimed paths (builder.engine.claims) answer as a set of the strings would, across
its compressed blocks, and never take two paths for one, even when their hashes are the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.engine import claims
from builder.engine.claims import Claims

PATHS = st.lists(st.sampled_from(["a", "b/index.html", "servers/é/index.html", "c\ud800", "d.json", "e", "f/g"])
                 | st.text(min_size=1, max_size=12).filter(lambda p: "\x00" not in p), max_size=60)


def _check(sequence: list[str]) -> None:
    kept = Claims()
    expected: list[str] = []
    for path in sequence:
        assert kept.claim(path) == (path not in expected)
        if path not in expected:
            expected.append(path)
    assert list(kept) == expected
    assert len(kept) == len(expected)
    for path in [*sequence, "never claimed"]:
        assert (path in kept) == (path in expected)


@settings(max_examples=200)
@given(PATHS, st.integers(min_value=1, max_value=5))
def test_claims_answer_as_a_list_of_the_paths_would(sequence: list[str], block: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claims, "BLOCK", block)  # paths compressed a few at a time, so most are in blocks
        _check(sequence)


@settings(max_examples=100)
@given(PATHS)
def test_two_paths_of_one_hash_are_two_claims(sequence: list[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claims, "_HASH_BITS", 0)  # every path's hash is 0: each is told apart by its text
        patch.setattr(claims, "BLOCK", 3)
        _check(sequence)


def test_a_registry_of_claims_is_kept_in_order() -> None:
    paths = [f"servers/s{n // 20}/tools/t{n % 20}/index.html" for n in range(5_000)]
    kept = Claims()
    assert all(kept.claim(p) for p in paths)
    assert not kept.claim(paths[1234])
    assert list(kept) == paths and len(kept) == 5_000
