"""The visible features of a tool description that the stand-in grades.

Each is something a human grader would point at: the lead verb, whether the resource is named,
a qualifier that scopes the purpose, a sibling named as the alternative, "use this when" and
"do not use" phrasing, disclosures (side effects, auth, limits, pagination), parameters named
or explained, the return value, filler. Lexical on purpose — the stand-in is a deterministic
rubric reader, not a language model — and shared by nothing else, so the lists can grow with
the vocabulary of real descriptions without touching the scoring arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def _word_list(text: str) -> list[str]:
    return text.split()


SPECIFIC_VERBS = frozenset(
    _word_list(
        """
        accept acknowledge activate add adjust advance append apply archive assign cancel capture
        change check choose clear click compute convert copy count create decline delete describe
        detect download edit email evaluate execute explain export fetch find forward fulfill
        generate geocode get grade insert link list lock log mark match merge move navigate open
        pause play post purge query read reboot reconcile record refund reject remove render replace
        reply request resize resolve respond restart retrieve retry return run scale schedule search
        select send set share show silence start stop switch take track transition translate trigger
        turn type update upload upsert wait write
        """
    )
)
GENERIC_VERBS = frozenset(
    _word_list(
        """
        do does handle handles helper interact interacts manage manages perform performs process
        processes tool utility work works
        """
    )
)
MUTATING_VERBS = frozenset(
    _word_list(
        """
        add adjust advance append archive assign cancel change clear copy create delete edit email
        forward fulfill grade insert lock merge move post purge reboot refund reject remove replace
        reply resize restart scale schedule send set transition trigger update upload upsert write
        """
    )
)
"""Verbs that change state whatever follows them; `run`, `execute` or `capture` depend on their
object and are left out, so the contradiction check does not fire on `Execute a read-only
query`."""
_STAGES: Mapping[str, str] = {
    "read": "get list search fetch retrieve read find query count export show describe download explain",
    "create": "create add new insert upload post",
    "update": "update edit modify set patch upsert change replace",
    "delete": "delete remove destroy archive",
}
LIFECYCLE: Mapping[str, str] = {verb: stage for stage, verbs in _STAGES.items() for verb in _word_list(verbs)}
"""Which part of a record's lifecycle a verb acts on: for telling a name from a description
that says the opposite (`delete_issue`: "List all issues"), and for judging how much of a
resource's lifecycle a server covers."""
_QUALIFIERS = (
    " by ", " across ", " including ", " filtered ", "newest", " all ", " single ", " so ",
    "returning", " matching ", " at once", " without ", " between ", " given ", " into ",
)  # fmt: skip
_WHEN = (
    "use this when", "use it when", "use when", "use this to", "use this tool when",
    "use this tool to", "call this when", "call this before", "call it before",
    "call this after", "when you need", "when you want", "when you only", "when you already",
    "before calling", "after calling",
)  # fmt: skip
_EXCLUSION = ("do not use", "don't use", "not for ", "instead", "rather than", "avoid ", "prefer ")
_IMPLIED = (
    "useful for", "typically used", "handy for", "helpful for", "good for", "ideal for",
    "designed for",
)  # fmt: skip
BEHAVIOR_CUES: Mapping[str, tuple[str, ...]] = {
    "read-only behaviour": ("read-only", "does not modify", "never modifies", "no side effects"),
    "destructive effects": (
        "permanently", "cannot be undone", "irreversib", "deleted with it", "overwrit",
        "replaces any existing",
    ),
    "auth requirements": ("requires", "permission", "token", "scope", "admin", "authenticat"),
    "limits": ("rate limit", "per minute", "at most", "maximum of"),
    "pagination": ("paginat", "cursor", "next page"),
    "side effects": ("notif", "sends ", "webhook", "takes effect", "immediately"),
    "idempotency": ("idempotent", "duplicates", "retrying", "no further effect"),
    "asynchrony": ("asynchronous", "queued", "in the background", "poll"),
    "caching": ("cache",),
    "partial updates": ("omitted fields", "only the fields"),
    "failure modes": ("fails with", "error if", "not-found", "404"),
    "audit trail": ("recorded in", "history", "audit"),
    "input sanitising": ("stripped", "is ignored"),
}  # fmt: skip
_FORMATS = (
    "iso 8601", "yyyy", "one of ", "e.g.", "format", "args:", "true or false", "positive number",
    "a list of", "email address", "url",
)  # fmt: skip
_RETURNS = ("returns", "responds with", "the response", "output")
_FILLER = (
    "this tool allows",
    "allows you to",
    "powerful",
    "easy way",
    "simply provide",
    "will handle the rest",
    "one of the tools",
    "this tool is",
    "is used to",
)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_'-]*")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n\s*\n")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_IDENTIFIER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


@dataclass(frozen=True)
class Cues:
    words: int
    lead_verb: str | None
    specific_verb: bool
    generic_verb: bool
    names_subject: bool
    qualified: bool
    sibling: str | None
    when: bool
    exclusion: bool
    implied: bool
    behavior: tuple[str, ...]
    """Disclosure categories found, in `BEHAVIOR_CUES` order."""
    params_named: int
    param_formats: bool
    returns: bool
    filler: int
    """Sentences that contain filler phrasing."""
    front_loaded: bool
    mutating: bool
    restates_name: bool
    contradicts_name: bool
    """The description's verb acts on a different part of the lifecycle than the name's."""


def name_tokens(name: str) -> list[str]:
    """`listPullRequests`, `list-pull-requests`, `pull_requests.list` → list, pull, requests."""
    spaced = _CAMEL.sub(" ", name)
    return [token for token in re.split(r"[\s_.\-/:]+", spaced.lower()) if token]


def stem(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _first_sentence(text: str) -> str:
    match = _SENTENCE_END.search(text)
    return text[: match.start() + 1] if match else text


def _purpose_sentence(text: str) -> str:
    """The first sentence that is not filler: where a reader looks for what the tool does."""
    rest = text
    while rest:
        sentence = _first_sentence(rest)
        if not any(phrase in sentence.lower() for phrase in _FILLER):
            return sentence
        rest = rest[len(sentence) :].lstrip()
    return _first_sentence(text)


def _identifiers(text: str) -> set[str]:
    """Every identifier-like token of `text`, with and without a sentence's final period."""
    tokens = set(_IDENTIFIER.findall(text))
    return tokens | {token.rstrip(".") for token in tokens}


def _mentions(text: str, identifiers: set[str], name: str) -> bool:
    if _IDENTIFIER.fullmatch(name):
        return name in identifiers
    return name in text


def read_cues(
    *,
    description: str,
    name: str,
    title: str | None,
    siblings: Sequence[str],
    input_schema: Mapping[str, Any],
) -> Cues:
    text = description.strip()
    lower = text.lower()
    words = _WORD.findall(text)
    first = _first_sentence(text).lower()
    purpose = _purpose_sentence(text)
    purpose_words = _WORD.findall(purpose)
    lead = purpose_words[0].lower() if purpose_words else None
    filler_count = sum(1 for sentence in _SENTENCE_END.split(lower) if any(phrase in sentence for phrase in _FILLER))
    tokens = name_tokens(name)
    verb_at = next((i for i, token in enumerate(tokens) if token in SPECIFIC_VERBS), None)
    name_stage = LIFECYCLE.get(tokens[verb_at]) if verb_at is not None else None
    lead_stage = LIFECYCLE.get(lead or "")
    if verb_at is not None:
        tokens = tokens[:verb_at] + tokens[verb_at + 1 :]
    tokens = [token for token in tokens if len(token) > 2]
    stems = {stem(word) for word in words}
    properties = input_schema.get("properties")
    param_names = list(properties) if isinstance(properties, dict) else []
    named = sum(1 for param in param_names if param.lower() in lower or param.replace("_", " ").lower() in lower)
    identifiers = _identifiers(text)
    sibling = next((other for other in siblings if other and _mentions(text, identifiers, other)), None)
    normalised = " ".join(lower.split())
    return Cues(
        words=len(words),
        lead_verb=lead,
        specific_verb=lead in SPECIFIC_VERBS,
        generic_verb=lead in GENERIC_VERBS,
        names_subject=not tokens or any(stem(token) in stems for token in tokens),
        qualified=len(purpose_words) >= 8 or any(marker in purpose.lower() for marker in _QUALIFIERS),
        sibling=sibling,
        when=any(marker in lower for marker in _WHEN),
        exclusion=any(marker in lower for marker in _EXCLUSION),
        implied=any(marker in lower for marker in _IMPLIED),
        behavior=tuple(
            category for category, markers in BEHAVIOR_CUES.items() if any(marker in lower for marker in markers)
        ),
        params_named=named,
        param_formats=any(marker in lower for marker in _FORMATS) or "`" in text,
        returns=any(marker in lower for marker in _RETURNS),
        filler=filler_count,
        front_loaded=not any(phrase in first for phrase in _FILLER),
        mutating=lead in MUTATING_VERBS,
        contradicts_name=None not in (name_stage, lead_stage) and name_stage != lead_stage,
        restates_name=normalised
        in {
            " ".join(name.lower().split()),
            " ".join((title or "").lower().split()),
        },
    )
