"""The Grading-Spec's file shapes as pydantic models: one grading entry (`08-grading-model.schema.json`),
the index.json rollup (`index.schema.json`) and the neutral selection definition.

The grading entry is modelled strictly, field for field from the schema (`additionalProperties:
false` becomes `extra="forbid"`), because it is the only durable artefact a grader writes and the
site recomputes every grade from it. The schema's conditional rules (`if … then required`) live in
`conformance`, where each one is tied to the error code the spec gives it.

index.json is derived data and its schema leaves most of it open (`schemas`, `members`,
`lockSnapshot` are `additionalProperties: true`), so its parts are read with lenient models that
accept any extra key: the site only compares the stored values with its own rollup.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

Area = Literal[
    "single-test",
    "tools-aggregate-schema",
    "tools-aggregate-namespace",
    "namespace-description",
    "namespace-skills",
    "about-namespace",
    "about-selection",
    "selection-skills-L1",
    "selection-skills-L2",
    "selection-skills-L3",
    "selection-aggregate",
]
AREAS: tuple[str, ...] = get_args(Area)
"""The eleven areas in the specification's order."""
NaReason = Literal[
    "not-applicable-to-tool-type",
    "requires-private-data",
    "blocked-by-precondition",
    "out-of-scope-resource",
    "out-of-scope-prompt",
    "out-of-scope-procedure",
]
VetoTrigger = Literal["malicious-module", "api-key-domain-mismatch", "illegal-content", "ai-security-veto"]
Tier = Literal["autonomous", "group-bound"]
Letter = Literal["A", "B", "C", "D", "F"]
AggregateGrade = Literal["A", "B", "C", "D", "F", "REJECTED"]
NodeStatus = Literal["pending", "blocked", "graded", "stable", "rejected"]
RollupStatus = Literal["operational", "partial", "blocked", "pending", "rejected"]

DATE_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"
"""RFC 3339 date-time, as `format: date-time` is checked by the spec's own validator (ajv-formats)."""

NonEmpty = Annotated[str, Field(min_length=1)]


def _score(value: Any) -> float | str:
    """A number in [1.0, 5.0] or one of the four words: never a number written as a string
    ("3.0" mixes the two domains, which §5.2 calls invalid) and never a boolean."""
    if isinstance(value, str):
        if value in ("pass", "fail", "stale", "n/a"):
            return value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if math.isfinite(value) and 1.0 <= value <= 5.0:
            return float(value)
        raise PydanticCustomError("score_range", "score must be between 1.0 and 5.0")
    raise PydanticCustomError("score_type", "score must be a number from 1.0 to 5.0 or one of pass, fail, stale, n/a")


def _evidence(value: Any) -> str | dict[str, Any]:
    if (isinstance(value, str) and value) or isinstance(value, dict):
        return value
    raise PydanticCustomError("evidence_type", "evidence must be a non-empty string (a URL or a note) or an object")


def _present(value: Any) -> Any:
    """An optional key of the grading model may be left out, but never be `null` (the schema types
    it as a string or an object; only `categoricalVeto` may be null)."""
    if value is None:
        raise PydanticCustomError("null", "null is not allowed here: leave the key out instead")
    return value


NotNull = BeforeValidator(_present)
Score = Annotated[float | str, BeforeValidator(_score)]
Evidence = Annotated[str | dict[str, Any], BeforeValidator(_evidence)]


class Strict(BaseModel):
    """`additionalProperties: false`: an unknown key is an error, so a typo is never silently lost.
    Attributes are snake_case; the JSON keys are their camelCase aliases, and only those."""

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=to_camel)


class Open(BaseModel):
    """`additionalProperties: true`: other keys are kept but not read."""

    model_config = ConfigDict(extra="allow", frozen=True, alias_generator=to_camel)


class GraderIdentity(Strict):
    kind: Literal["llm", "human", "script"]
    name: NonEmpty
    version: NonEmpty


class Persona(Strict):
    base_persona_id: Literal["ai-engineer", "decision-maker", "hackathon-builder", "schema-maintainer"]
    lens_id: NonEmpty


class SelectionContext(Strict):
    group_id: NonEmpty
    persona_ids: Annotated[list[NonEmpty], Field(min_length=1)]
    domain_doc_id: Annotated[NonEmpty | None, NotNull] = None


class Answer(Strict):
    """One element of `gradings[]`: one answer to one question by one grader at one time."""

    question_id: Annotated[str, Field(pattern=r"^Q-.+$")]
    score: Score
    na_reason: Annotated[NaReason | None, NotNull] = None
    weight: Annotated[float, Field(strict=True, ge=0.0, allow_inf_nan=False)]
    determinism: Literal["deterministic", "non-deterministic"]
    grader_identity: GraderIdentity
    llm_model: Annotated[NonEmpty | None, NotNull] = None
    selection_context: Annotated[SelectionContext | None, NotNull] = None
    timestamp: Annotated[str, Field(pattern=DATE_TIME)]
    evidence: Annotated[Evidence | None, NotNull] = None
    reasoning: Annotated[str | None, NotNull] = None


class CategoricalVeto(Strict):
    triggered_by: VetoTrigger
    grader_identity: GraderIdentity
    evidence: NonEmpty
    reasoning: Annotated[str | None, NotNull] = None
    timestamp: Annotated[str, Field(pattern=DATE_TIME)]


class RegradingTrigger(Strict):
    triggered_by: Literal["user-report", "scheduled", "scoring-system-bump", "grading-system-bump"]
    reported_issue: Annotated[str | None, NotNull] = None
    requested_by: Annotated[str | None, NotNull] = None
    previous_grading_id: NonEmpty
    timestamp: Annotated[str, Field(pattern=DATE_TIME)]


class GradingEntry(Strict):
    """One grading entry (gradingSpec/2.0.0 §3): exactly one Area of one schema or selection."""

    grading_id: Annotated[str, Field(pattern=r"^[a-f0-9]{8}--.+$")]
    schema_id: Annotated[str, Field(pattern=r"^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+$")]
    area: Area
    version: Annotated[str, Field(pattern=r"^flowmcp/4\.[0-9]+\.[0-9]+$")]
    schema_hash: Annotated[str, Field(pattern=r"^[a-f0-9]{8}$")]
    about_hash: Annotated[Annotated[str, Field(pattern=r"^[a-f0-9]{8}$")] | None, NotNull] = None
    grading_mode: Literal["partial", "full"]
    harness: Literal["claude-code"]
    persona: Annotated[Persona | None, NotNull] = None
    skill_id: Annotated[NonEmpty | None, NotNull] = None
    selection_id: Annotated[NonEmpty | None, NotNull] = None
    grading_tier: Tier
    scoring_system: Annotated[str, Field(pattern=r"^scoringSystem/\d+\.\d+\.\d+$")]
    grading_system: Annotated[str, Field(pattern=r"^gradingSystem/\d+\.\d+\.\d+$")]
    gradings: Annotated[list[Answer], Field(min_length=1)]
    categorical_veto: CategoricalVeto | None
    regrading_trigger: Annotated[RegradingTrigger | None, NotNull] = None
    aggregate_grade: AggregateGrade
    max_attainable_grade: Literal["A", "B"]


# ---- index.json -----------------------------------------------------------------------------------


class IndexNode(Open):
    """`$defs/node`: a primitive node of the rollup with its node status."""

    status: NodeStatus
    grade: str | None = None
    ref: str | None = None
    reason: str | None = None
    bound_to: str | None = None
    snapshot: dict[str, Any] | None = None


class IndexFile(Strict):
    """index.json as `index.schema.json` has it. No property is required by the schema; the open
    parts (`schemas`, `members`, `lockSnapshot`, `blockers`) are read further by the models below."""

    index_version: Literal[2] | None = None
    namespace: str | None = None
    selection_id: str | None = None
    updated_at: str | None = None
    status: RollupStatus | None = None
    grade: str | None = None
    summary: dict[str, Any] | None = None
    about: IndexNode | None = None
    description: IndexNode | None = None
    skills: dict[str, IndexNode] | None = None
    namespace_aggregate: IndexNode | None = None
    selection_aggregate: IndexNode | None = None
    schemas: dict[str, Any] | None = None
    members: dict[str, Any] | None = None
    lock_snapshot: dict[str, Any] | None = None
    blockers: list[Any] | None = None


class IndexSchema(Open):
    """One value of `schemas`: the schema node plus its tools and its tools-aggregate node."""

    status: NodeStatus | None = None
    grade: str | None = None
    reason: str | None = None
    snapshot: dict[str, Any] | None = None
    tools_aggregate: IndexNode | None = None
    tools: dict[str, IndexNode] | None = None


class IndexMember(Open):
    """One value of `members`: the member-resolution manifest (SEL003)."""

    status: NodeStatus | None = None
    grade: str | None = None
    reason: str | None = None
    ref: str | None = None
    resolved_artifact: str | None = None


class Blocker(Open):
    node: str
    reason: str


class LockMember(Open):
    schema_id: str
    schema_version: str | None = None
    schema_hash: str | None = None
    grading_status: NodeStatus | None = None
    override: Any = None


class LockSnapshot(Open):
    """The frozen member pins, written once at grading start (16-selection-lockfile)."""

    selection_id: str | None = None
    selection_version: str | None = None
    selection_hash: str | None = None
    generated_at: str | None = None
    members: list[LockMember] = []


class SelectionMemberRef(Open):
    schema_id: NonEmpty


class SelectionDefinition(Open):
    """`selections/<sel>/selection/<sel>--<ts>--<hash8>.json`: the neutral definition. Only what the
    site shows is read; the definition's own schema is not part of the shared examples."""

    selection_id: str | None = None
    name: str | None = None
    description: str | None = None
    when_to_use: str | None = None
    persona_ids: list[str] = []
    members: list[SelectionMemberRef] = []
