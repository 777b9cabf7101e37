"""The stand-in's tool grading: the six TDQS dimensions from the visible features of a prompt.

Each dimension reads the cues the specification's anchors name (Appendix A): purpose from the
lead verb, the resource and a qualifier or sibling; usage from when / when-not / alternative;
transparency from disclosures beyond what the annotations already declare; parameter semantics
from schema coverage plus what the text adds; conciseness from length, filler and
front-loading; completeness from what is covered against how complex the tool is. A
hash-seeded jitter then moves some scores one point, as a real grader's variance would, so the
distribution is not a staircase. The jitter is seeded from the tool's own part of the prompt
only (`ToolPrompt.own_text`), so adding a sibling to a server does not re-roll an unchanged
tool.

The constants below were calibrated once, offline, jointly with `quality.py`, against Glama's
published figures; they are frozen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tdqs.score_tool_definition import ToolScoringResponse
from tdqs.tool_score import Justification

from scorecards_demo.cues import Cues, read_cues
from scorecards_demo.prompt_reading import ToolPrompt
from scorecards_demo.rng import hash_unit
from scorecards_demo.wording import join_words

Dimension = Literal[
    "purpose_clarity",
    "usage_guidelines",
    "behavioral_transparency",
    "parameter_semantics",
    "conciseness_structure",
    "contextual_completeness",
]

JITTER: dict[Dimension, tuple[float, float]] = {
    # (probability of one point down, probability of one point up)
    "purpose_clarity": (0.01, 0.06),
    "usage_guidelines": (0.05, 0.06),
    "behavioral_transparency": (0.06, 0.06),
    "parameter_semantics": (0.06, 0.06),
    "conciseness_structure": (0.04, 0.05),
    "contextual_completeness": (0.08, 0.08),
}


DISTINCT_WORDS = 10
"""Without a sibling named, a scoped purpose earns 5 only inside a description this long: a
single sentence rarely separates a tool from its siblings."""


@dataclass(frozen=True)
class Grade:
    score: int
    reason: str
    fixed: bool = False
    """The rubric prescribes this exact score (a contradiction scores 1), so no rater variance."""


def _purpose(prompt: ToolPrompt, cues: Cues) -> Grade:
    if cues.restates_name:
        return Grade(2, "the description only restates the tool's name")
    if cues.contradicts_name:
        return Grade(1, f'misleading: it says "{cues.lead_verb}", which is not what the name says')
    pairs = cues.specific_verb and (cues.names_subject or cues.words >= 8)
    if cues.words <= 2:
        if pairs:
            return Grade(3, f"a verb and a resource, but only {cues.words} words")
        return Grade(2, f"{cues.words} word(s) say almost nothing about what it does")
    if cues.generic_verb:
        return Grade(3, f'the lead verb "{cues.lead_verb}" is generic')
    if not pairs:
        return Grade(3, "it does not pair a specific verb with the resource the name refers to")
    if cues.sibling is not None:
        return Grade(5, f'a specific verb and resource, set apart from sibling "{cues.sibling}"')
    if cues.qualified and cues.words >= DISTINCT_WORDS:
        return Grade(5, f'the specific verb "{cues.lead_verb}" with the resource, scoped and explained')
    return Grade(4, "a clear verb and resource, but nothing that sets it apart from its siblings")


def _usage(prompt: ToolPrompt, cues: Cues) -> Grade:
    if cues.contradicts_name:
        return Grade(1, "misleading: the description describes a different operation")
    alternative = cues.sibling is not None and (cues.exclusion or cues.when)
    if cues.when and (cues.exclusion or cues.sibling is not None):
        return Grade(5, "it says when to use it and when not, naming the alternative")
    if cues.when or alternative:
        what = "when to use it" if cues.when else f'"{cues.sibling}" as the alternative'
        return Grade(4, f"it gives {what} but no exclusions")
    if cues.implied or cues.sibling is not None or cues.exclusion:
        return Grade(3, "usage is only implied")
    return Grade(2, "no guidance on when to use it")


def _restated(prompt: ToolPrompt) -> set[str]:
    annotations = prompt.annotations or {}
    restated: set[str] = set()
    if annotations.get("readOnlyHint") is True:
        restated.add("read-only behaviour")
    if annotations.get("destructiveHint") is True:
        restated.add("destructive effects")
    return restated


def contradicts(prompt: ToolPrompt, cues: Cues) -> bool:
    """The description says the tool changes things while the annotations declare it
    read-only, or says it deletes things while they declare it non-destructive."""
    annotations = prompt.annotations or {}
    if annotations.get("readOnlyHint") is True and cues.mutating:
        return True
    return annotations.get("destructiveHint") is False and cues.lead_verb in ("delete", "remove")


def _transparency(prompt: ToolPrompt, cues: Cues) -> Grade:
    if contradicts(prompt, cues):
        return Grade(1, f'it says "{cues.lead_verb}" but the annotations declare otherwise', fixed=True)
    has_annotations = bool(prompt.annotations)
    disclosed = [category for category in cues.behavior if category not in _restated(prompt)]
    if disclosed:
        extra = ", beyond the annotations" if has_annotations else ""
        return Grade(2 + min(3, len(disclosed)), f"it discloses {join_words(disclosed)}{extra}")
    if has_annotations:
        return Grade(2, "nothing beyond what the annotations already declare")
    if cues.words <= 3:
        return Grade(1, "no disclosure at all, and no annotations")
    return Grade(2, "no behavioural disclosure and no annotations to carry it")


def _parameters(prompt: ToolPrompt, cues: Cues) -> Grade:
    count, coverage = prompt.param_count, prompt.coverage
    if count == 0:
        return Grade(4, "no parameters (baseline 4)")
    adds = cues.params_named > 0
    explains = adds and cues.param_formats
    if coverage > 80:
        score = 3 + adds + (explains and cues.params_named >= 2)
        what = "explains" if explains else "names" if adds else "adds nothing about"
        return Grade(score, f"schema coverage {coverage}% sets baseline 3; the text {what} them")
    if coverage >= 50:
        score = 2 + adds + explains
        return Grade(score, f"coverage {coverage}%; the text {'partly compensates' if adds else 'does not compensate'}")
    if explains and cues.params_named * 2 >= count:
        return Grade(
            4 if cues.params_named >= count else 3, f"coverage {coverage}%, but the text explains the parameters"
        )
    if adds:
        return Grade(2, f"coverage {coverage}% and the text only names some parameters")
    return Grade(1 if count >= 3 else 2, f"{count} parameter(s) at {coverage}% coverage, not explained")


def _conciseness(prompt: ToolPrompt, cues: Cues) -> Grade:
    if cues.words <= 2:
        return Grade(2, "under-specified, not concise")
    if cues.words <= 3:
        return Grade(3, f"{cues.words} words: short rather than concise")
    score = 4 if cues.words <= 7 else 5 if cues.words <= 90 else 4 if cues.words <= 150 else 3
    notes = [f"{cues.words} words"]
    if not cues.front_loaded:
        score -= 1
        notes.append("the purpose is not up front")
    if cues.filler:
        score -= min(2, cues.filler)
        notes.append(f"{cues.filler} filler phrase(s)")
    return Grade(max(1, score), ", ".join(notes))


def _completeness(prompt: ToolPrompt, cues: Cues) -> Grade:
    if cues.contradicts_name:
        return Grade(1, "what it says belongs to another operation")
    complexity = (
        prompt.param_count
        + 2 * prompt.has_nested_objects
        + (2 if cues.mutating and not prompt.annotations else 0)
        + (prompt.required_count >= 3)
    )
    covered = {
        "the return value": cues.returns or prompt.has_output_schema,
        "behaviour": bool(cues.behavior),
        "parameters": cues.params_named > 0 or prompt.coverage >= 80,
        "usage": cues.when or cues.implied or cues.sibling is not None,
    }
    points = sum(covered.values())
    level = "low" if complexity <= 2 else "high" if complexity >= 6 else "moderate"
    # A simple tool needs less said, but saying more of it does not make it more complete.
    score = 1 + points + (level == "low" and points <= 1) - (level == "high")
    if cues.words <= 3:
        score = min(score, 2)
    have = [name for name, present in covered.items() if present]
    lack = [name for name, present in covered.items() if not present]
    detail = f"covers {join_words(have)}" if have else "covers nothing beyond the name"
    if lack:
        detail += f"; silent on {join_words(lack)}"
    return Grade(max(1, min(5, score)), f"{level} complexity; {detail}")


_GRADERS: dict[Dimension, Callable[[ToolPrompt, Cues], Grade]] = {
    "purpose_clarity": _purpose,
    "usage_guidelines": _usage,
    "behavioral_transparency": _transparency,
    "parameter_semantics": _parameters,
    "conciseness_structure": _conciseness,
    "contextual_completeness": _completeness,
}


def _justify(prompt: ToolPrompt, dimension: Dimension, grade: Grade) -> Justification:
    """The grade as the model contract wants it, after rater variance unless the rubric fixes
    the score."""
    score, note = grade.score, ""
    if not grade.fixed:
        down, up = JITTER[dimension]
        roll = hash_unit("stand-in/jitter", dimension, prompt.own_text)
        if roll < down and score > 1:
            score, note = score - 1, " Rater variance moved this one point down."
        elif roll >= 1 - up and score < 5:
            score, note = score + 1, " Rater variance moved this one point up."
    return Justification(
        justification=f"Stand-in (deterministic rubric reader): {grade.reason}.{note}",
        score=score,  # type: ignore[arg-type]
    )


def prompt_cues(prompt: ToolPrompt) -> Cues:
    return read_cues(
        description=prompt.description,
        name=prompt.name,
        title=prompt.title,
        siblings=prompt.siblings,
        input_schema=prompt.input_schema,
    )


def grades(prompt: ToolPrompt, cues: Cues | None = None) -> dict[Dimension, Grade]:
    """The rubric's verdict on each dimension, before rater variance."""
    cues = cues if cues is not None else prompt_cues(prompt)
    return {dimension: grader(prompt, cues) for dimension, grader in _GRADERS.items()}


def grade_tool(prompt: ToolPrompt) -> ToolScoringResponse:
    cues = prompt_cues(prompt)
    justifications = {
        dimension: _justify(prompt, dimension, grade) for dimension, grade in grades(prompt, cues).items()
    }
    ranked = sorted(justifications, key=lambda key: (justifications[key].score, key))
    contradiction = contradicts(prompt, cues)
    summary = (
        f"Stand-in grading, not a language model: strongest on {ranked[-1].replace('_', ' ')}, "
        f"weakest on {ranked[0].replace('_', ' ')}."
    )
    if contradiction:
        summary += " The description contradicts the declared annotations."
    return ToolScoringResponse.model_validate(
        {"annotation_contradiction": contradiction, "scores": justifications, "summary": summary}
    )
