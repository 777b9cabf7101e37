"""A server's search document indexes the endings of its id's and repository's compact forms, so that
Pagefind, which finds words by their beginning, finds a fragment from inside an id (issue 49)."""

from __future__ import annotations

from builder.tdqs.pages.search_fields import fragments


def test_every_ending_of_three_letters_or_more_after_the_first_letter_once() -> None:
    # By hand: `acme-weather` is `acmeweather` (11 letters); its endings from the 2nd letter to the 9th.
    assert fragments(["acme-weather"]).split() == [
        "cmeweather", "meweather", "eweather", "weather", "eather", "ather", "ther", "her"]
    # The repository `acme/acme-weather` adds `acmeacmeweather`'s endings; those already there are not repeated.
    both = fragments(["acme-weather", "acme/acme-weather"]).split()
    assert len(both) == len(set(both))
    assert both[:8] == fragments(["acme-weather"]).split()
    assert both[8:] == ["cmeacmeweather", "meacmeweather", "eacmeweather", "acmeweather"]
    # Short names give nothing; an empty repository adds nothing.
    assert fragments(["abc", ""]) == "" and fragments(["ab_cd"]) == "bcd"


def test_every_part_of_an_id_begins_one_of_its_words() -> None:
    """What the search page relies on: any piece of the id of 3 letters or more (not its beginning,
    which is a word already) is the beginning of an indexed ending."""
    server_id = "io-github-jdoe-babelwise"
    whole = server_id.replace("-", "")
    words = fragments([server_id]).split()
    for start in range(1, len(whole)):
        for end in range(start + 3, len(whole) + 1):
            piece = whole[start:end]
            assert any(word.startswith(piece) for word in words), piece
