"""The stand-in's server grading: the four coherence dimensions and the shadowing verdicts.

Read from the tool set as the coherence prompt lists it (Appendix B): naming consistency from
the share of names in the dominant convention and verb position; tool count from the anchors'
own ranges; disambiguation from near-duplicate names (synonym verbs on one resource, version
suffixes) and tools with nothing to tell them apart; completeness from how much of the
read/create/update/delete lifecycle each resource with several tools covers. A shadow candidate
is confirmed only when both tools read — "overlap and asymmetry" — most of the time when they
read the same resource and sometimes otherwise, as a hedging grader would; `tool` is always the
candidate's dearer side, as the prompt lists it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from tdqs.score_server_coherence import CoherenceResponse
from tdqs.tool_score import Justification

from scorecards_demo.cues import LIFECYCLE, SPECIFIC_VERBS, name_tokens, stem
from scorecards_demo.prompt_reading import CoherencePrompt, PromptCandidate, PromptTool
from scorecards_demo.rng import hash_unit

CONFIRM_SAME_RESOURCE = 0.7
CONFIRM_OTHER_READS = 0.25
"""Shares of shadow candidates the stand-in confirms: of two reads on the same resource, and of
two reads on different ones (a hedging grader's "could plausibly answer the same question")."""
JITTER = 0.08
"""Probability, per dimension and each way, of one point of rater variance."""

_SYNONYM_GROUPS = (
    frozenset({"get", "fetch", "retrieve", "read", "show"}),
    frozenset({"list", "all"}),
    frozenset({"search", "find", "query", "lookup"}),
    frozenset({"create", "add", "new", "insert"}),
    frozenset({"update", "edit", "modify", "set", "patch"}),
    frozenset({"delete", "remove", "destroy"}),
)
_NAME_VERBS = SPECIFIC_VERBS | LIFECYCLE.keys() | {"all"}
"""Tokens that are the verb of a tool name; `all` as in the `get_all_issues` alias."""
_DIMENSIONS = ("disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness")
_READS = frozenset(verb for verb, stage in LIFECYCLE.items() if stage == "read")
_VERSION = re.compile(r"(?:[_.-]?v\d+|[_.-](?:new|old|legacy|2))$", re.IGNORECASE)


def _style(name: str) -> str | None:
    """The naming convention a name shows, or None for a single lowercase word (which fits
    snake_case, kebab-case and camelCase alike)."""
    if "." in name:
        return "dotted"
    if "-" in name:
        return "kebab"
    if "_" in name:
        return "snake"
    if re.fullmatch(r"[a-z][a-z0-9]*", name):
        return None
    if name[:1].isupper():
        return "pascal"
    return "camel"


def _split(name: str) -> tuple[str | None, frozenset[str]]:
    """(verb, resource stems) of a tool name, in either verb_noun or noun_verb order."""
    tokens = name_tokens(name)
    verbs = [token for token in tokens if token in _NAME_VERBS]
    verb = verbs[0] if verbs else None
    nouns = frozenset(stem(token) for token in tokens if token != verb and len(token) > 2)
    return verb, nouns


def _grade(score: int, reason: str) -> tuple[int, str]:
    return max(1, min(5, score)), reason


def _naming(tools: tuple[PromptTool, ...]) -> tuple[int, str]:
    styles = Counter(style for tool in tools if (style := _style(tool.name)) is not None)
    if not styles:
        return _grade(5, "every name is a single lowercase word")
    dominant, count = styles.most_common(1)[0]
    share = count / sum(styles.values())
    score = 5 if share >= 0.97 else 4 if share >= 0.85 else 3 if share >= 0.7 else 2 if share >= 0.5 else 1
    positions = Counter(
        "first" if tokens[0] in SPECIFIC_VERBS else "last" if tokens[-1] in SPECIFIC_VERBS else "none"
        for tool in tools
        if len(tokens := name_tokens(tool.name)) > 1
    )
    order = positions.most_common(1)[0][1] / sum(positions.values()) if positions else 1.0
    reason = f"{share:.0%} of names are {dominant}"
    if order < 0.8:
        score -= 1
        reason += f", and the verb position varies ({order:.0%} consistent)"
    return _grade(score, reason)


def _tool_count(count: int) -> tuple[int, str]:
    if count == 1:
        return _grade(2, "a single tool is thin for any domain")
    if count == 2:
        return _grade(3, "two tools feel thin")
    if count <= 15:
        return _grade(5, f"{count} tools is a well-scoped surface")
    if count <= 20:
        return _grade(4, f"{count} tools is slightly heavy but reasonable")
    if count <= 25:
        return _grade(3, f"{count} tools is heavy")
    if count < 50:
        return _grade(2, f"{count} tools is too many for one surface")
    return _grade(1, f"{count} tools is an extreme surface")


def _confusable(tools: tuple[PromptTool, ...]) -> set[str]:
    """Tools whose names an agent could mix up: the same name but for a version suffix
    (`search_v2`), or synonym verbs on the same resource (`get_issue`, `fetch_issue`). Grouped
    by key rather than compared pairwise, so a 500-tool server costs 500 steps, not 125,000."""
    groups: dict[object, set[str]] = defaultdict(set)
    for tool in tools:
        groups["version", _VERSION.sub("", tool.name)].add(tool.name)
        verb, nouns = _split(tool.name)
        for index, synonyms in enumerate(_SYNONYM_GROUPS):
            if verb in synonyms and nouns:
                groups["synonym", index, nouns].add(tool.name)
    return {name for members in groups.values() if len(members) > 1 for name in members}


def _disambiguation(tools: tuple[PromptTool, ...]) -> tuple[int, str]:
    confusable = _confusable(tools)
    blank = {
        tool.name for tool in tools if tool.description == "(no description)" or len(tool.description.split()) <= 2
    }
    ratio = (len(confusable) + 0.5 * len(blank - confusable)) / len(tools)
    score = 5 if ratio == 0 else 4 if ratio <= 0.1 else 3 if ratio <= 0.25 else 2 if ratio <= 0.4 else 1
    parts = []
    if confusable:
        parts.append(f"{len(confusable)} tools have near-duplicate names")
    if blank:
        parts.append(f"{len(blank)} {'has' if len(blank) == 1 else 'have'} no usable description")
    return _grade(score, "; ".join(parts) if parts else "every tool has a distinct name and purpose")


def _completeness(tools: tuple[PromptTool, ...]) -> tuple[int, str]:
    stages: dict[frozenset[str], set[str]] = defaultdict(set)
    for tool in tools:
        verb, nouns = _split(tool.name)
        if verb is not None and verb in LIFECYCLE and nouns:
            stages[nouns].add(LIFECYCLE[verb])
    groups = [found for found in stages.values() if len(found) >= 2 or "create" in found]
    if not groups:
        return _grade(4 if len(tools) >= 3 else 3, "no resource lifecycle to judge; a task-shaped surface")
    coverage = sum(len(found) for found in groups) / (4 * len(groups))
    score = 5 if coverage >= 0.9 else 4 if coverage >= 0.7 else 3 if coverage >= 0.5 else 2
    return _grade(score, f"resources cover {coverage:.0%} of read/create/update/delete")


def _shared_stems(tools: tuple[PromptTool, ...]) -> frozenset[str]:
    """Stems in most names of the server — a `brand_` prefix — which say nothing about what a
    tool reads."""
    counts = Counter(stem for tool in tools for stem in _split(tool.name)[1])
    return frozenset(stem for stem, count in counts.items() if count >= 0.8 * len(tools) > 1)


def _overlap(candidate: PromptCandidate, shared: frozenset[str]) -> tuple[float, str]:
    """How likely the stand-in is to judge that the two purposes overlap, and why: both must
    read, and reading the same resource makes it likely rather than merely possible."""
    verb_a, nouns_a = _split(candidate.tool)
    verb_b, nouns_b = _split(candidate.cheaper_sibling)
    if verb_a not in _READS or verb_b not in _READS:
        return 0.0, ""
    if (nouns_a & nouns_b) - shared:
        return CONFIRM_SAME_RESOURCE, "both read the same resource"
    return CONFIRM_OTHER_READS, "both answer read questions about this server's data"


def _risk(candidate: PromptCandidate, reason: str) -> dict[str, str]:
    return {
        "tool": candidate.tool,
        "cheaper_sibling": candidate.cheaper_sibling,
        "justification": (
            f"Stand-in: {reason}, and {candidate.cheaper_sibling} (cost "
            f"{candidate.cheaper_sibling_invocation_cost}) is far cheaper to call than "
            f"{candidate.tool} (cost {candidate.invocation_cost})."
        ),
    }


def _jitter(server: str, dimension: str, grade: tuple[int, str]) -> Justification:
    score, reason = grade
    roll = hash_unit("stand-in/coherence", dimension, server)
    note = ""
    if roll < JITTER and score > 1:
        score -= 1
        note = " Rater variance moved this one point down."
    elif roll >= 1 - JITTER and score < 5:
        score += 1
        note = " Rater variance moved this one point up."
    return Justification(
        justification=f"Stand-in (deterministic rubric reader): {reason}.{note}",
        score=score,  # type: ignore[arg-type]
    )


def coherence_grades(prompt: CoherencePrompt) -> dict[str, tuple[int, str]]:
    """The rubric's (score, reason) per coherence dimension, before rater variance."""
    tools = prompt.tools
    if not tools:
        return dict.fromkeys(_DIMENSIONS, (3, "the tool list could not be read"))
    return {
        "disambiguation": _disambiguation(tools),
        "naming_consistency": _naming(tools),
        "tool_count_appropriateness": _tool_count(len(tools)),
        "completeness": _completeness(tools),
    }


def grade_server(prompt: CoherencePrompt) -> CoherenceResponse:
    tools = prompt.tools
    # Seeded from the tool names and descriptions, not the server name, so that two servers
    # offering the same set are graded alike.
    key = "\n".join(f"{tool.name}\t{tool.description}" for tool in tools)
    scores = {dimension: _jitter(key, dimension, grade) for dimension, grade in coherence_grades(prompt).items()}
    shared = _shared_stems(tools)
    risks = []
    for candidate in prompt.candidates:
        share, reason = _overlap(candidate, shared)
        if hash_unit("stand-in/shadow", candidate.tool, candidate.cheaper_sibling, key) < share:
            risks.append(_risk(candidate, reason))
    mean = sum(item.score for item in scores.values()) / 4
    summary = (
        f"Stand-in grading, not a language model: coherence averages {mean:.1f} over "
        f"{len(tools)} tools; {len(risks)} shadowing risk(s) confirmed of "
        f"{len(prompt.candidates)} candidate(s)."
    )
    return CoherenceResponse.model_validate({"scores": scores, "shadowing_risks": risks, "summary": summary})
