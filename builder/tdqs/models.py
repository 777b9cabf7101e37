"""The data directory's own TDQS files: server.json and the registry rollup index.json.

Captures themselves are tdqs's `ScoreReport`, validated with tdqs's model, never re-typed here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel
from tdqs import Tier

from builder.tdqs.categories import category_key

MAX_CATEGORIES = 8
Category = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A category's name as written (`Issue tracking`): 1-60 characters, no control character, no
space at either end (checked by `ServerMeta`, which names the category at fault). Names that
differ only by case or punctuation are one category (builder.tdqs.categories.category_key)."""


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
    categories: list[Category] | None = Field(default=None, max_length=MAX_CATEGORIES)
    """What the server is for, in a few words each (`Issue tracking`, `Code hosting`): each category
    gets a page ranking its servers."""

    @field_validator("categories")
    @classmethod
    def _check_categories(cls, value: list[str] | None) -> list[str] | None:
        seen: dict[str, str] = {}
        for name in value or []:
            if name != name.strip():
                raise ValueError(f"{name!r} has a space at its start or end")
            if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
                raise ValueError(f"{name!r} contains a control character")
            key = category_key(name)
            if key in seen:
                raise ValueError(f"{name!r} is the same category as {seen[key]!r}")
            seen[key] = name
        return value


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
