"""Is this file a valid grading entry? The JSON Schema's shapes (via the pydantic model), its
conditional `if … then required` rules, and the error codes the Grading-Spec gives them.

The spec names three codes (08-grading-model §5.3 and §13):
- `NA-001`: an `n/a` answer without a reason from the closed set, or with a free-text one;
- `GRD-005`: a non-deterministic answer without `selectionContext.personaIds[]`;
- `VET-003`: a categorical veto without its `evidence`, or an `ai-security-veto` without `reasoning`.
Every other violation is reported with its JSON path and no code, because the spec names none.

The conditional rules are checked on the raw document, next to pydantic's shape checks, so that a
broken entry lists every problem at once instead of the first layer only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from builder.engine.problems import describe_validation_error, json_path
from builder.flowmcp.models import GradingEntry

NA_001 = "NA-001"
GRD_005 = "GRD-005"
VET_003 = "VET-003"

PERSONA_BOUND_AREAS = frozenset(
    {
        "namespace-skills",
        "about-namespace",
        "about-selection",
        "selection-skills-L1",
        "selection-skills-L2",
        "selection-skills-L3",
        "selection-aggregate",
    }
)
"""Areas whose entries MUST carry `persona` (schema `allOf`, §3.Y)."""
PER_SKILL_AREAS = frozenset({"namespace-skills", "selection-skills-L1", "selection-skills-L2", "selection-skills-L3"})
"""Areas whose entries MUST carry `skillId`."""

_CODED_PATHS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\.naReason$"), NA_001),
    (re.compile(r"\.personaIds(\[\d+\])?$"), GRD_005),
    (re.compile(r"^\$\.categoricalVeto\.evidence$"), VET_003),
)


@dataclass(frozen=True)
class Violation:
    json_path: str
    reason: str
    code: str | None = None


def check_entry(document: Any) -> tuple[GradingEntry | None, list[Violation]]:
    """The validated entry, or None and every reason it is not a valid grading entry."""
    if not isinstance(document, dict):
        return None, [Violation("$", "a grading entry is a JSON object")]
    found: list[Violation] = []
    entry: GradingEntry | None = None
    try:
        entry = GradingEntry.model_validate(document)
    except ValidationError as error:
        found.extend(Violation(path, reason, _code_for(path)) for path, reason in describe_validation_error(error))
    found.extend(_conditional_rules(document))
    unique = list(dict.fromkeys(found))
    return (entry if not unique else None), unique


def _code_for(path: str) -> str | None:
    for pattern, code in _CODED_PATHS:
        if pattern.search(path):
            return code
    return None


def _conditional_rules(document: dict[str, Any]) -> list[Violation]:
    """The schema's `allOf` / `if … then required` rules, each with the spec's code where it has one."""
    found: list[Violation] = []
    area = document.get("area") if isinstance(document.get("area"), str) else None
    if document.get("gradingTier") == "group-bound" and "selectionId" not in document:
        found.append(Violation("$.selectionId", "required when gradingTier is group-bound"))
    if area in PERSONA_BOUND_AREAS and "persona" not in document:
        found.append(Violation("$.persona", f"required: {area} is a persona-bound area"))
    if area in PER_SKILL_AREAS and "skillId" not in document:
        found.append(Violation("$.skillId", f"required: {area} grades one skill at a time"))
    veto = document.get("categoricalVeto")
    if isinstance(veto, dict) and veto.get("triggeredBy") == "ai-security-veto" and "reasoning" not in veto:
        found.append(Violation("$.categoricalVeto.reasoning", "required for an ai-security-veto", VET_003))
    answers = document.get("gradings")
    if isinstance(answers, list):
        for index, answer in enumerate(answers):
            if isinstance(answer, dict):
                found.extend(_answer_rules(answer, ("gradings", index)))
    return found


def _answer_rules(answer: dict[str, Any], at: tuple[str | int, ...]) -> list[Violation]:
    found: list[Violation] = []
    if answer.get("score") == "n/a" and "naReason" not in answer:
        found.append(
            Violation(json_path((*at, "naReason")), "an n/a answer needs a naReason from the closed set", NA_001)
        )
    if answer.get("determinism") == "non-deterministic" and "selectionContext" not in answer:
        found.append(
            Violation(
                json_path((*at, "selectionContext", "personaIds")),
                "a non-deterministic answer needs selectionContext.personaIds (at least one persona)",
                GRD_005,
            )
        )
    grader = answer.get("graderIdentity")
    if isinstance(grader, dict) and grader.get("kind") == "llm" and "llmModel" not in answer:
        found.append(Violation(json_path((*at, "llmModel")), "required when graderIdentity.kind is llm"))
    return found
