"""Full-text search with Pagefind, run once per build in the background.

The binary comes from the `pagefind[bin]` package on PyPI; its per-record Python API is far too
slow for a registry, so the CLI indexes a folder once. That folder is a search source made for
the purpose as soon as the corpus is loaded, beside the staging folder:

- a grading system that can describe its records compactly gives one small document per record
  group (TDQS: one per server, its tools as sub-sections, so a tool search lands on the tool);
  each document sits at the path of the page it stands for, so Pagefind gives it that page's URL;
- every other system's pages are rendered into it, and Pagefind indexes the parts they mark
  `data-pagefind-body`.

Indexing whole registry pages instead costs ten times the time, and Pagefind's memory grows past
what a 24 GB machine has at a quarter of a million pages.

The search source is kept in the build's cache folder between builds: a rebuild writes only the
documents that changed and removes those that are gone, instead of writing (and deleting) every
one again. Pagefind still indexes all of them: it has no incremental mode.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from builder.urls import check_output_path

SEARCH_PAGE = "search/index.html"

EMPTY_INDEX = b"""// This build had nothing to search (no grading results were read), and Pagefind refuses to
// make an index of nothing: the search page gets this module, which finds nothing, instead.
export async function init() {}
export async function options() {}
export async function search() { return { results: [] }; }
export async function debouncedSearch() { return { results: [] }; }
"""
"""`pagefind/pagefind.js` when there is no document to index: an empty or wholly rejected data
folder still builds a site whose search page answers "no results" instead of failing to load."""


class SearchIndexError(RuntimeError):
    pass


class SearchIndex:
    """One Pagefind run: documents and pages are put into the search-source folder `source` (kept
    from the previous build), then `start()` runs Pagefind in the background (the build computes
    its statistics meanwhile) and `wait()` collects it, with its index in `output`."""

    def __init__(self, output: Path, source: Path) -> None:
        self.output = output
        self.source = source
        self.source.mkdir(parents=True, exist_ok=True)
        self._kept: set[str] = set()
        self._made: set[Path] = set()
        self._process: subprocess.Popen[bytes] | None = None
        self._errors: Any = None

    def _put(self, path: str, content: bytes) -> None:
        """Writes `content` at `path` unless the previous build left it there already."""
        relative = check_output_path(path)
        self._kept.add(relative)
        target = self.source / relative
        try:
            with open(target, "rb") as previous:
                if previous.read(len(content) + 1) == content:
                    return
        except OSError:
            pass
        if target.parent not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(target.parent)
        target.write_bytes(content)

    def add(self, docs: Iterable[tuple[str, str]], pages: Iterable[tuple[str, str | bytes]]) -> None:
        """`docs`: search-source path → HTML; `pages`: rendered pages to index as they are. Files
        of a previous build that are not among them are removed."""
        for path, html in docs:
            self._put(path, html.encode("utf-8"))
        for path, content in pages:
            self._put(path, content.encode("utf-8") if isinstance(content, str) else content)
        self._remove_others()

    def _remove_others(self) -> None:
        for folder, subfolders, files in os.walk(self.source, topdown=False):
            base = Path(folder).relative_to(self.source)
            for name in files:
                if (base / name).as_posix() not in self._kept:
                    os.unlink(os.path.join(folder, name))
            for name in subfolders:
                with contextlib.suppress(OSError):  # not empty: it holds kept documents
                    os.rmdir(os.path.join(folder, name))

    def start(self) -> None:
        if not self._kept:
            self.output.mkdir(parents=True, exist_ok=True)
            (self.output / "pagefind.js").write_bytes(EMPTY_INDEX)
            return
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "pagefind", "--site", str(self.source), "--output-path", str(self.output),
             "--quiet"],
            stdout=self._errors, stderr=subprocess.STDOUT,
        )

    def wait(self) -> None:
        try:
            if self._process is None:
                self.start()
            if self._process is None:  # nothing to index (`start`)
                return
            assert self._errors is not None
            code = self._process.wait()
            if code != 0:
                self._errors.seek(0)
                message = self._errors.read().decode("utf-8", "replace").strip()
                raise SearchIndexError(f"pagefind failed ({code}): {message}")
        finally:
            self.close()

    def close(self) -> None:
        """Stops a run still going (a build that failed meanwhile); the source folder is kept for
        the next build."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        if self._errors is not None:
            self._errors.close()
            self._errors = None
