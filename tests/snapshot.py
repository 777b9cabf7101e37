"""The whole site `data/` builds, as output path → sha256, kept in `tests/snapshots/data-site.json`.

`tests/test_snapshot.py` builds `data/` and compares every file with it, so any change to any
published byte is seen in review as a change to that file. When a change is meant to change the
site, regenerate it with one command, from the checkout:

    python tests/snapshot.py

CI never regenerates it: a difference there fails the test and names the paths.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SNAPSHOT = ROOT / "tests" / "snapshots" / "data-site.json"
SITE_URL = "https://example.org"
"""Given so that the outputs that need an absolute URL (sitemap, feeds, canonical links) exist."""


def site_digests(site: Path) -> dict[str, str]:
    """Every file under `site`, as its POSIX path → the sha256 of its bytes, sorted by path."""
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def build_digests(workdir: Path) -> dict[str, str]:
    """Builds `data/` into a new folder under `workdir` with the real build and digests it."""
    from builder.build import build
    from builder.config import SiteConfig

    site = workdir / "site"
    build(DATA, site, SiteConfig(site_url=SITE_URL))
    return site_digests(site)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="scorecards-snapshot-") as workdir:
        digests = build_digests(Path(workdir))
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    SNAPSHOT.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{SNAPSHOT.relative_to(ROOT)}: {len(digests)} files")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
