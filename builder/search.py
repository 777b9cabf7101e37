"""Full-text search with Pagefind, run over the built site in one call.

The binary comes from the `pagefind[bin]` package on PyPI; its per-record Python API is far too
slow for a registry, so the CLI indexes a folder once. That folder is a search source made for
the purpose, beside the staging folder:

- a grading system that can describe its records compactly gives one small document per record
  group (TDQS: one per server, its tools as sub-sections, so a tool search lands on the tool);
  each document sits at the path of the page it stands for, so Pagefind gives it that page's URL;
- every other system's rendered pages are copied in, and Pagefind indexes the parts they mark
  `data-pagefind-body`.

Indexing whole registry pages instead costs ten times the time, and Pagefind's memory grows past
what a 24 GB machine has at a quarter of a million pages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from builder.urls import check_output_path

SEARCH_PAGE = "search/index.html"


class SearchIndexError(RuntimeError):
    pass


def index_site(
    output: Path, docs: Iterable[tuple[str, str]], pages: Iterable[tuple[str, bytes]], work: Path
) -> None:
    """Index `docs` (search-source path → HTML) and the rendered `pages` (path → bytes) into the
    folder `output`, through a search-source folder made in `work`."""
    source = Path(tempfile.mkdtemp(prefix="search-source-", dir=work))
    try:
        made: set[Path] = set()

        def place(path: str) -> Path:
            target = source / check_output_path(path)
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            return target

        for path, html in docs:
            place(path).write_text(html, encoding="utf-8")
        for path, content in pages:
            place(path).write_bytes(content)
        result = subprocess.run(
            [sys.executable, "-m", "pagefind", "--site", str(source), "--output-path", str(output), "--quiet"],
            capture_output=True, text=True, check=False,
        )
        if result.returncode != 0:
            raise SearchIndexError(
                f"pagefind failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}"
            )
    finally:
        shutil.rmtree(source, ignore_errors=True)
