"""Small English helpers shared by the text the demo writes."""

from __future__ import annotations

_CONSONANT_SOUND = ("us", "ur", "uni", "eu", "one")
"""Vowel letters that begin with a consonant sound: a user, a URL, a unit, a one-off."""


def article(noun: str) -> str:
    """`a` or `an`, by sound for the nouns the demo uses: an issue, a user, a URL."""
    lower = noun.lower()
    return "an" if lower[:1] in "aeiou" and not lower.startswith(_CONSONANT_SOUND) else "a"


def join_words(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:]
