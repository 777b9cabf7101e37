"""Scoring Protocol v1 (FlowMCP Schemas-Spec v4.2.0, `22-scoring-protocol.md`): the files a CLI and
an external grader exchange, as pydantic models.

The protocol publishes `prompts.json` and `scores.json` in full, but elides two parts of the grade
report (`"creator": { ... }`, `"dimensions": [ ... ]`). Here `creator` and `harness` are the same
objects as in `scores.json`, and a dimension of the report is a scored dimension of `scores.json`
(`{dimension, score, reasoning}`). Keys the protocol does not name are allowed and ignored, so a
newer CLI that adds a field is not rejected; an unknown `scoringProtocol` is (the protocol says a
reader MUST reject versions it does not know).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from builder.flowmcp.models import Letter

PROTOCOL = "v1"
Text = Annotated[str, Field(min_length=1)]
DimensionScore = Annotated[float, Field(strict=True, ge=1.0, le=5.0, allow_inf_nan=False)]


class Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, alias_generator=to_camel)


class Creator(Model):
    """Who produced the scores: the grader skill, its version and the session."""

    skill: str | None = None
    skill_version: str | None = None
    session: str | None = None


class Harness(Model):
    """What drove the LLM: statistical reproducibility depends on `model` (§ Reproducibility)."""

    name: Text
    version: str | None = None
    model: Text
    model_context: str | None = None


class ScoredDimension(Model):
    dimension: Text
    """`whenToUse` and `parameters` are the two base dimensions; the Grading-Spec may add more."""
    score: DimensionScore
    reasoning: str | None = None


class Prompt(Model):
    dimension: Text
    prompt: str


class PromptsFile(Model):
    """`prompts.json`, written by `flowmcp dev grade <schema> --emit-prompts`."""

    schema_id: Text
    schema_id_slug: Text
    schema_path: str | None = None
    scoring_protocol: Literal["v1"]
    scoring_instructions: str | None = None
    prompts: Annotated[list[Prompt], Field(min_length=1)]


class ScoresFile(Model):
    """`scores.json`, written by the grader."""

    schema_id_slug: Text
    scoring_protocol: Literal["v1"]
    creator: Creator
    harness: Harness
    timestamp: Text
    scores: Annotated[list[ScoredDimension], Field(min_length=1)]


class Timestamps(Model):
    started_at: str | None = None
    scored_at: str | None = None
    graded_at: str | None = None
    reported_at: str | None = None


class GradeReport(Model):
    """The final grade report, written by `flowmcp dev grade <schema> --consume-scores <path>`."""

    schema_id: Annotated[str, Field(min_length=1, description="`<namespace>/<file-base>`, e.g. `mudab/marine-data`.")]
    schema_id_slug: Annotated[str, Field(min_length=1, description="`schemaId` with `/` replaced by `_`.")]
    schema_path: str | None = None
    schema_hash: Annotated[str, Field(min_length=1, description="`sha256:…` of the scored schema.")]
    date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
    grade: Letter
    score: Annotated[float, Field(strict=True, ge=1.0, le=5.0, allow_inf_nan=False)]
    scoring_protocol: Literal["v1"]
    creator: Creator
    harness: Harness
    timestamps: Timestamps
    dimensions: Annotated[list[ScoredDimension], Field(min_length=1)]
    validation_passed: Annotated[bool, Field(strict=True)]
    validation_errors: list[str | dict[str, Any]]
