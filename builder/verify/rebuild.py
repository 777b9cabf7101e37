"""The data built again as the manifest says it was (its settings), for `scorecards verify --data`.

The build goes into a temporary folder made here and removed here, whatever happens: nothing is
written anywhere else. What comes back is the rebuilt site's manifest, its parts taken in.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from builder.publish.manifest import Manifest
from builder.urls import MANIFEST
from builder.verify.check import whole
from builder.verify.site import FolderSite


def rebuild(data_dir: Path, head: dict[str, Any], workers: int | None = None) -> Manifest:
    """Builds `data_dir` with the settings of the manifest's `head` and reads the new manifest."""
    from builder.build import build
    from builder.config import SiteConfig

    settings = dict(head.get("settings") or {})
    search = bool(settings.pop("search", True))
    config = SiteConfig.model_validate(settings)
    folder = Path(tempfile.mkdtemp(prefix="scorecards-verify-"))
    try:
        site = folder / "site"
        build(data_dir, site, config, search=search, workers=workers)
        return whole(FolderSite(site), (site / MANIFEST).read_bytes()).manifest
    finally:
        shutil.rmtree(folder, ignore_errors=True)
