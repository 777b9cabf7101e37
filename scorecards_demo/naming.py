"""Tool names and titles in the conventions real servers use.

A server picks one convention, and some servers drift between two; the coherence stage of the
stand-in judges naming consistency from exactly this, so the mix has to be realistic rather than
uniformly tidy.
"""

from __future__ import annotations

from typing import Literal

Convention = Literal["snake", "camel", "kebab", "pascal", "dotted", "noun_verb", "prefixed"]

CONVENTIONS: tuple[Convention, ...] = ("snake", "camel", "kebab", "pascal", "dotted", "noun_verb", "prefixed")


def _tokens(text: str) -> list[str]:
    return [token for token in text.lower().replace("-", " ").split() if token]


def tool_name(verb: str, noun: str, convention: Convention, *, prefix: str) -> str:
    """`verb` and `noun` are words separated by spaces (`turn on`, `pull request`)."""
    verbs = _tokens(verb)
    nouns = _tokens(noun)
    tokens = verbs + nouns
    if convention == "camel":
        return tokens[0] + "".join(token.capitalize() for token in tokens[1:])
    if convention == "pascal":
        return "".join(token.capitalize() for token in tokens)
    if convention == "kebab":
        return "-".join(tokens)
    if convention == "dotted":
        return f"{'_'.join(nouns)}.{'_'.join(verbs)}" if nouns else "_".join(verbs)
    if convention == "noun_verb":
        return "_".join(nouns + verbs)
    if convention == "prefixed":
        return f"{prefix}_{'_'.join(tokens)}"
    return "_".join(tokens)


def tool_title(verb: str, noun: str) -> str:
    """`List Pull Requests`: the human title MCP's `title` field carries."""
    small = {"a", "an", "and", "as", "for", "of", "on", "or", "the", "to"}
    words = _tokens(verb) + _tokens(noun)
    return " ".join(word if index > 0 and word in small else word.capitalize() for index, word in enumerate(words))
