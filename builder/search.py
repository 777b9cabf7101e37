"""Full-text search with Pagefind, run over the written site in one call.

Pagefind indexes the finished HTML and writes `pagefind/` into the site: a static index that the browser queries in chunks, so search
works on GitHub Pages with no server. The binary comes from the `pagefind[bin]` package on PyPI;
its per-record Python API is far too slow for a registry, so the CLI indexes the folder once.

Only what a visitor searches for is indexed: each page kind marks its name and summary (a tool's
description too) `data-pagefind-body`, and pages without the mark are skipped. Indexing whole pages
of a registry costs ten times the time, and the memory grows past what a 24 GB machine has.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SEARCH_PAGE = "search/index.html"


class SearchIndexError(RuntimeError):
    pass


def index_site(folder: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(folder), "--output-subdir", "pagefind", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SearchIndexError(f"pagefind failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}")
