"""Sites that several test modules read and none changes, built once per session (conftest.py
gives them as fixtures): a module that writes into a site builds its own."""

from __future__ import annotations

from pathlib import Path

from builder.build import build
from builder.config import SiteConfig

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SCORECARDS_BASE = "/scorecards/"


def scorecards_config() -> SiteConfig:
    """data/ published under /scorecards/, as on a project's GitHub Pages."""
    return SiteConfig(base_url=SCORECARDS_BASE)


def build_scorecards_site(out: Path) -> Path:
    """data/ built into the folder `out` with `scorecards_config()`, search index included."""
    build(DATA, out, scorecards_config())
    return out
