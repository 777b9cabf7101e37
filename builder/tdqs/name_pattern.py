"""The naming pattern a server's tools follow, read from the names themselves, and the names that
break it.

The rubric's Naming Consistency asks for one convention, whichever it is ("All camelCase is fine;
mixing conventions is not") and a consistent verb_noun pattern. So nothing here says which
convention is right: the pattern is what most of the server's own names do, on two readings:

- the case and separator style (snake_case, camelCase, PascalCase, kebab-case, dot.separated (whose
  parts may be snake_case), UPPER_SNAKE, or mixed). A single lowercase word fits snake_case, kebab-case and camelCase alike,
  so it is never an offender;
- where the verb sits: first (`create_issue`) or last (`issue_create`). A name's verb is a word from
  `VERBS`, the verbs tool names use; a name whose verb is at neither end (or that has none) is not
  judged on order.

The names that differ from the majority on either reading are the offenders, each with what it
does instead. A tie has no majority, and then no name is an offender on that reading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

_VERB_WORDS = """
    add analyze append apply approve archive assign attach audit authenticate calculate call cancel check
    clear clone close compare compile complete compute configure connect convert copy create debug decode
    decrypt delete deploy describe detect disable disconnect download edit enable encode encrypt enqueue
    evaluate execute explain extract fetch find generate get grant inspect install invite invoke join kill
    launch list load lookup make merge migrate modify monitor move notify open parse patch pause ping predict
    preview publish pull purge push put read reboot refresh register reject reload remove rename render
    reopen replace reset resize resolve restart restore resume retrieve revert revoke rollback run save
    scrape search select send set show start stop submit subscribe summarize suspend sync toggle transcribe
    transform translate trigger unarchive undo uninstall unlink unlock unsubscribe update upgrade upload
    upsert validate verify watch write
"""
VERBS = frozenset(_VERB_WORDS.split())
"""Verbs tool names start (or end) with: enough to find the verb of `list_issues` or `issueCreate`.
Words as often a noun as a verb in a tool name (`report`, `index`, `query`, `export`) are left out,
so `get_report` is verb first and `user_index` is not judged."""

_SEPARATORS = re.compile(r"[._\-\s/:]+")
_HUMPS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*")


def style(name: str) -> str | None:
    """The case and separator style of one name; None for a single lowercase word."""
    separators = {mark for mark in "._-" if mark in name}
    if separators == {".", "_"} and name == name.lower():
        return "dot.separated"  # a namespace and a snake_case name: `internal_note.add`
    if len(separators) > 1:
        return "mixed"
    if not separators:
        if _LOWER_WORD.fullmatch(name):
            return None
        if name[:1].isupper():
            return "PascalCase"
        return "camelCase" if name[:1].islower() else "mixed"
    mark = separators.pop()
    parts = [part for part in name.split(mark) if part]
    if all(part.isupper() or part.isdigit() for part in parts) and mark == "_":
        return "UPPER_SNAKE"
    if any(part != part.lower() for part in parts):
        return "mixed"
    return {"_": "snake_case", "-": "kebab-case", ".": "dot.separated"}[mark]


def words(name: str) -> list[str]:
    """The lowercase words of a name: `getUserById` → get, user, by, id."""
    found: list[str] = []
    for part in _SEPARATORS.split(name):
        found.extend(word.lower() for word in _HUMPS.findall(part))
    return found


def verb_position(name: str) -> str | None:
    """`first` or `last` when exactly one end of a two-or-more-word name is a verb, else None."""
    tokens = words(name)
    if len(tokens) < 2:
        return None
    first, last = tokens[0] in VERBS, tokens[-1] in VERBS
    if first == last:
        return None
    return "first" if first else "last"


@dataclass(frozen=True)
class Offender:
    name: str
    why: str
    """What the name does instead of the majority: `camelCase`, `verb last`."""


@dataclass(frozen=True)
class NamePattern:
    style: str | None
    """The style most names share, or None (all single words, or a tie)."""
    style_count: int
    styled: int
    """Names with a style of their own (not single lowercase words)."""
    verb: str | None
    """`first` or `last`, where most names with a verb at one end put it; None on a tie or none."""
    verb_count: int
    verbed: int
    offenders: tuple[Offender, ...]
    """In the order of the names given."""


def _majority(counts: Counter[str]) -> tuple[str | None, int]:
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None, 0
    return ranked[0]


def name_pattern(names: Iterable[str]) -> NamePattern:
    listed = list(dict.fromkeys(names))
    styles = {name: style(name) for name in listed}
    positions = {name: verb_position(name) for name in listed}
    style_counts = Counter(value for value in styles.values() if value is not None)
    verb_counts = Counter(value for value in positions.values() if value is not None)
    majority_style, style_count = _majority(style_counts)
    majority_verb, verb_count = _majority(verb_counts)
    offenders = []
    for name in listed:
        why = []
        if majority_style is not None and styles[name] not in (None, majority_style):
            why.append(str(styles[name]))
        if majority_verb is not None and positions[name] not in (None, majority_verb):
            why.append(f"verb {positions[name]}")
        if why:
            offenders.append(Offender(name, ", ".join(why)))
    return NamePattern(
        style=majority_style, style_count=style_count, styled=sum(style_counts.values()),
        verb=majority_verb, verb_count=verb_count, verbed=sum(verb_counts.values()),
        offenders=tuple(offenders),
    )
