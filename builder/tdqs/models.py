"""The data directory's own TDQS files: server.json and the registry rollup index.json.

Captures themselves are tdqs's `ScoreReport`, validated with tdqs's model, never re-typed here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from tdqs import Tier


class Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ServerMeta(Camel):
    """servers/<id>/server.json. Everything optional: a folder of captures alone is a server."""

    id: str | None = None
    display_name: str | None = Field(default=None, max_length=300)
    description: str | None = Field(default=None, max_length=20_000)
    repository_url: str | None = Field(default=None, max_length=2_000)
    homepage_url: str | None = Field(default=None, max_length=2_000)
    scoring_system: str | None = Field(default=None, pattern=r"^scoringSystem/\d+\.\d+\.\d+$")
    grading_system: str | None = Field(default=None, pattern=r"^gradingSystem/\d+\.\d+\.\d+$")


class Versions(Camel):
    """The versions a score was produced under. A score is calibrated to a rubric+model pair, so
    neither number means anything without them. scoringSystem (how answers become numbers) and
    gradingSystem (how numbers become tiers and rollups) are separate fields on purpose."""

    spec_version: str
    model: str | None
    scoring_system: str = Field(pattern=r"^scoringSystem/\d+\.\d+\.\d+$")
    grading_system: str = Field(pattern=r"^gradingSystem/\d+\.\d+\.\d+$")


class CurrentScores(Camel):
    """A capture's published scores. Below the 80% coverage rule, description quality and the
    overall score are not published (None) and `coverage_ok` says why."""

    overall_score: float | None
    overall_tier: Tier | None
    description_quality_score: float | None
    description_quality_tier: Tier | None
    coherence_score: float
    coherence_tier: Tier
    mean_tdqs: float
    min_tdqs: float
    tool_count: int
    scored_tool_count: int
    coverage_ok: bool


class IndexCapture(Camel):
    id: str
    generated_at: str
    score_file: str
    tools_file: str | None
    overall_score: float | None
    overall_tier: Tier | None
    versions: Versions


class IndexServer(Camel):
    id: str
    display_name: str
    description: str | None
    repository_url: str | None
    homepage_url: str | None
    current_capture: str
    scores: CurrentScores
    versions: Versions
    captures: list[IndexCapture]


class RegistryIndex(Camel):
    """index.json: derived data, rebuilt from the captures by `scorecards index`. Carries no
    build timestamp, so rebuilding from unchanged captures gives byte-identical output."""

    index_version: Literal[1] = 1
    servers: list[IndexServer]
