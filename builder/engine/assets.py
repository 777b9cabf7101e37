"""Where the templates and static assets are.

The checkout keeps them in the top-level `templates/` folder; a wheel ships the same files as
package data under `builder/templates/` (pyproject.toml maps the one onto the other), so an
installed scorecards builds a site without the checkout. An editable install reads the checkout's.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def _templates() -> Path:
    packaged = _PACKAGE / "templates"
    if packaged.is_dir():
        return packaged
    checkout = _PACKAGE.parent / "templates"
    if checkout.is_dir():
        return checkout
    raise RuntimeError(f"scorecards is installed without its templates (looked in {packaged} and {checkout})")


TEMPLATES = _templates()
"""The Jinja2 templates, with the static assets in `static/`."""
