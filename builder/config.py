"""Site settings: what an operator sets once per site, from the command line or `scorecards.toml`."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator


class CleoGradeScale(BaseModel):
    """Letter grades for CLEO sessions as a share of maxScore. CLEO's grade specification uses
    90/75/60/45; its own viewer uses 90/80/70/60, so the scale is a setting."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    a: float = 0.90
    b: float = 0.75
    c: float = 0.60
    d: float = 0.45


class SiteConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str = "MCP Scorecards"
    base_url: str = Field(default="/", description="Path (or absolute URL) the site is served under.")
    site_url: str | None = Field(
        default=None,
        description="Absolute origin for canonical, OpenGraph, sitemap and feeds, e.g. https://owner.github.io",
    )
    dispute_url: str | None = Field(
        default=None, description="Issue tracker URL for the 'dispute this score' link."
    )
    cleo_grades: CleoGradeScale = CleoGradeScale()

    @field_validator("base_url")
    @classmethod
    def _slashes(cls, value: str) -> str:
        value = value.strip() or "/"
        if "://" not in value and not value.startswith("/"):
            value = "/" + value
        return value if value.endswith("/") else value + "/"

    @property
    def absolute_base(self) -> str:
        """The base URL as an absolute URL where one is known, else the base path."""
        if "://" in self.base_url:
            return self.base_url
        if self.site_url:
            return self.site_url.rstrip("/") + self.base_url
        return self.base_url

    @property
    def has_absolute_base(self) -> bool:
        return "://" in self.absolute_base

    @property
    def base_path(self) -> str:
        """The path part of the base URL: what a page served at any depth (404.html) links from."""
        if "://" not in self.base_url:
            return self.base_url
        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"
