"""One line of CLEO's GRADES.jsonl, a GradeResult, as pydantic models.

Written from the grader's own interface (`GradeResult` and `DimensionScore` in CLEO's
`src/core/sessions/session-grade.ts`) and the schema section of its grade specification. Field
names are CLEO's. What is checked, and why:

- numbers must be JSON numbers (no strings, no booleans), finite and not negative; every max is
  positive, so a share of max always exists; a score above its max is not a GradeResult;
- all five dimensions must be present (unknown extra dimensions are ignored, as are unknown
  top-level fields: CLEO adds fields over time and an older site should still read the file);
- `timestamp` must be an ISO 8601 time with a time zone, because runs are ordered by it;
- `sessionId` must not be blank; anything else (junk, huge, hostile) is third-party text that is
  escaped on every page and never used as a path (see `builder.urls.slug`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator, model_validator
from pydantic.alias_generators import to_camel

from builder.numbers import exact_sum

Points = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]
PositivePoints = Annotated[float, Field(strict=True, gt=0, allow_inf_nan=False)]


class CleoModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, frozen=True, extra="ignore"
    )


class DimensionScore(CleoModel):
    score: Points
    max: PositivePoints
    evidence: list[StrictStr]
    """What the grader saw that earned points, one line each, as CLEO wrote it."""

    @model_validator(mode="after")
    def _score_within_max(self) -> DimensionScore:
        if self.score > self.max:
            raise ValueError(f"score {self.score:g} is above its max {self.max:g}")
        return self


class Dimensions(CleoModel):
    session_discipline: DimensionScore
    discovery_efficiency: DimensionScore
    task_hygiene: DimensionScore
    error_protocol: DimensionScore
    disclosure_use: DimensionScore

    def by_key(self) -> dict[str, DimensionScore]:
        """CLEO's keys (`sessionDiscipline` …) in the rubric's order."""
        return {
            "sessionDiscipline": self.session_discipline,
            "discoveryEfficiency": self.discovery_efficiency,
            "taskHygiene": self.task_hygiene,
            "errorProtocol": self.error_protocol,
            "disclosureUse": self.disclosure_use,
        }

    @property
    def score_total(self) -> float:
        """What a run is graded on: the exact sum of its dimension scores (totalScore by definition)."""
        return exact_sum([dimension.score for dimension in self.by_key().values()])

    @property
    def max_total(self) -> float:
        """The exact sum of the dimension maxima (maxScore by definition)."""
        return exact_sum([dimension.max for dimension in self.by_key().values()])


class GradeResult(CleoModel):
    session_id: StrictStr
    task_id: StrictStr | None = None
    total_score: Points
    max_score: PositivePoints
    dimensions: Dimensions
    flags: list[StrictStr]
    timestamp: StrictStr
    """As CLEO wrote it; `graded_at` is the same instant as an aware datetime in UTC."""
    entry_count: Annotated[int, Field(strict=True, ge=0)]
    """How many audit entries the grader read; 0 means there was nothing to grade."""
    evaluator: StrictStr | None = None
    """`auto` for CLEO's grader; this site's demo file says `synthetic-demo`."""

    @field_validator("session_id")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("sessionId is blank")
        return value

    @field_validator("timestamp")
    @classmethod
    def _iso_time(cls, value: str) -> str:
        parse_timestamp(value)
        return value

    @model_validator(mode="after")
    def _total_within_max(self) -> GradeResult:
        if self.total_score > self.max_score:
            raise ValueError(
                f"totalScore {self.total_score:g} is above maxScore {self.max_score:g}"
            )
        return self

    @property
    def graded_at(self) -> datetime:
        return parse_timestamp(self.timestamp)


def parse_timestamp(value: str) -> datetime:
    """An ISO 8601 time with a zone (`2026-03-18T19:52:45.249Z`) → an aware datetime in UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("timestamp is not an ISO 8601 date and time") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise ValueError("timestamp has no time zone (CLEO writes UTC, ending in Z)")
    try:
        return parsed.astimezone(UTC)
    except OverflowError:
        raise ValueError("timestamp is out of range") from None
