"""Site settings: what an operator sets once per site, from the command line or `scorecards.toml`."""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
"""A share of maxScore: a finite number from 0 to 1."""

_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]")
"""Control characters and white space: a URL that holds one could break a line of robots.txt, a
feed or a header it is written into."""


class CleoGradeScale(BaseModel):
    """Letter grades for CLEO sessions as a share of maxScore. CLEO's grade specification uses
    90/75/60/45; its own viewer uses 90/80/70/60, so the scale is a setting. Each is a finite share
    from 0 to 1, and A needs more than B, B more than C, C more than D."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    a: Share = 0.90
    b: Share = 0.75
    c: Share = 0.60
    d: Share = 0.45

    @model_validator(mode="after")
    def _in_order(self) -> CleoGradeScale:
        if not self.a > self.b > self.c > self.d:
            raise ValueError(f"the grades must fall from a to d (a > b > c > d); got a = {self.a}, b = {self.b}, "
                             f"c = {self.c}, d = {self.d}")
        return self


def web_url(value: str) -> str:
    """`value` when it is an absolute http(s) URL with a host and no control character or white space."""
    if _CONTROL.search(value):
        raise ValueError("a URL cannot hold white space or control characters")
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{value!r} is not an http(s) URL with a host (e.g. https://owner.github.io)")
    return value


def _base_path(value: str) -> str:
    """A base path as SiteConfig keeps it: one leading and one trailing slash."""
    value = value.strip() or "/"
    if "://" not in value and not value.startswith("/"):
        value = "/" + value
    return value if value.endswith("/") else value + "/"


def fold_site_url(site_url: str | None, base_url: str) -> tuple[str | None, str]:
    """(site_url, base_url) with a path in `site_url` folded into `base_url`.

    GitHub Pages serves a project at `https://<owner>.github.io/<repo>/`, so an operator may well
    give that as `--site-url`. Joined to the base URL `/<repo>/` it would double the path
    (`…/repo/repo/`) in every canonical link, the sitemap and the feeds. So the path moves to the
    base URL when that is the default `/`, is taken once when the base URL is the same path, and
    is refused (ValueError, one line) when the two name different paths."""
    if not site_url or "://" in base_url:
        return site_url, base_url
    parts = urlsplit(site_url.strip())
    path = parts.path.strip("/")
    if not path or not parts.scheme or not parts.netloc:
        return site_url, base_url
    folded, base = "/" + path + "/", _base_path(base_url)
    if base not in ("/", folded):
        raise ValueError(f"site_url {site_url} ends in the path {folded} but base_url is {base}: give site_url "
                         f"as the origin ({parts.scheme}://{parts.netloc}) and the path as base_url")
    return f"{parts.scheme}://{parts.netloc}", folded


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
        if "://" in value:
            web_url(value)
        else:
            if _CONTROL.search(value):
                raise ValueError("a path cannot hold white space or control characters")
            if not value.startswith("/"):
                value = "/" + value
            if value.startswith("//") or urlsplit(value).scheme or "?" in value or "#" in value:
                raise ValueError(f"{value!r} is neither a path (/<repo>/) nor an http(s) URL")
        return value if value.endswith("/") else value + "/"

    @model_validator(mode="before")
    @classmethod
    def _fold(cls, values: Any) -> Any:
        if isinstance(values, dict) and isinstance(values.get("site_url"), str):
            base = values.get("base_url", "/")
            site, folded = fold_site_url(values["site_url"], base if isinstance(base, str) else "/")
            if folded != base or site != values["site_url"]:
                values = {**values, "site_url": site, "base_url": folded}
        return values

    @field_validator("site_url", "dispute_url")
    @classmethod
    def _web(cls, value: str | None) -> str | None:
        return None if value is None else web_url(value)

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
