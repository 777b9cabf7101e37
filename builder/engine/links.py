"""Every link of every rendered page resolves to an output of the same build.

Links are read from what was rendered (every `href` and `src` of the HTML), wherever it was
rendered — in the build's process or in a worker — so no page has to declare its links, and a
template that spells a wrong path fails the build before the site is committed instead of
publishing a 404. Only links into the site are checked: external URLs, `mailto:` and fragments of
the same page are left alone.
"""

from __future__ import annotations

import contextlib
import functools
import html
import itertools
import os
import posixpath
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote

from builder.store.tables import encode_rows, read_rows, scratch
from builder.urls import check_output_path

_REFERENCE = re.compile(r"""(?:href|src)(?<!\whref)(?<!\wsrc)=(?:"([^"]*)"|'([^']*)')""")
"""An `href` or `src` attribute: what `\\b(?:href|src)=…` finds. The word boundary is checked
after the name (the lookbehinds: no word character before it) rather than before it, so the
regular expression engine can still search for the name's first letters instead of trying every
position (three to four times faster on a page)."""
_HREF = re.compile(r"""href(?<!\whref)=(?:"([^"]*)"|'([^']*)')""")
_SRC = re.compile(r"""src(?<!\wsrc)=(?:"([^"]*)"|'([^']*)')""")
"""`_REFERENCE`'s two names apart: each starts with a literal, which the engine finds by a fast
scan for it, so the two searches take half the time of the one (`_references`)."""
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class BrokenLinks(Exception):
    """Pages link to paths the build does not make: a builder bug, never a data problem."""


def link_targets(page: str, text: str, base_path: str = "/") -> set[str]:
    """The output paths the page at `page` links to (a folder link as its `index.html`); a link
    that leaves the site is given as it was written, so that it cannot match any output.

    This runs on every page a build renders, so each distinct reference of a page is resolved
    once, the text of a reference is read once per build (`_reference`), and a plain relative
    reference from a canonical page path is resolved by segment arithmetic instead of
    `posixpath` (`_resolve_plain`); every other reference goes the general way (`_resolve`)."""
    targets: set[str] = set()
    folder = posixpath.dirname(page)
    parts = folder.split("/") if folder else []
    plain_folder = _is_canonical(folder)
    for raw in _references(text):
        read = _reference(raw)
        if read is None:
            continue
        reference, climb, rest = read
        if climb < 0 or not plain_folder:
            targets.add(_resolve(folder, reference, base_path))
        else:
            targets.add(_resolve_plain(parts, reference, climb, rest))
    return targets


def _references(text: str) -> set[str]:
    """The distinct non-empty values of the `href` and `src` attributes in `text`."""
    found = {double or single for double, single in _HREF.findall(text)}
    found.update(double or single for double, single in _SRC.findall(text))
    # The two searches find what the one finds unless a match of one name begins inside a match of
    # the other: its `name=` is then inside the other's value (a quote closes the value, never `=`),
    # which no page's link holds. Then the one search decides what is a reference.
    values = "\0".join(found)
    if "src=" in values or "href=" in values:
        found = {double or single for double, single in _REFERENCE.findall(text)}
    found.discard("")
    return found


_PLAIN = re.compile(r"((?:\.\./)*)((?:[^./][^/]*/)*(?:[^./][^/]*)?)")
"""A relative reference made of `../` steps and then segments that are neither empty nor start
with a dot: `posixpath.normpath` would only take the steps off the page's folder."""


@functools.lru_cache(maxsize=1 << 14)
def _reference(raw: str) -> tuple[str, int, str] | None:
    """An attribute's text as a reference into the site: unescaped, without fragment and query,
    unquoted; with how many `../` steps it climbs and what follows them when it is plain
    (`_PLAIN`), else a climb of -1. None for a link that names no path of the site: empty, a
    fragment or query of the same page, another host, another scheme."""
    reference = html.unescape(raw)
    reference = reference.split("#", 1)[0].split("?", 1)[0]
    if not reference or reference.startswith("//") or _SCHEME.match(reference):
        return None
    reference = unquote(reference)
    plain = None if reference.startswith("/") else _PLAIN.fullmatch(reference)
    if plain is None:
        return reference, -1, ""
    return reference, len(plain.group(1)) // 3, plain.group(2)


def _is_canonical(folder: str) -> bool:
    """Whether `folder` is a canonical output folder (builder.urls.check_output_path): no empty,
    `.` or `..` segment, nothing absolute."""
    if not folder:
        return True
    try:
        check_output_path(folder)
    except ValueError:
        return False
    return True


def _resolve_plain(parts: list[str], reference: str, climb: int, rest: str) -> str:
    """`_resolve` for a plain reference (`_PLAIN`) from the folder whose segments are `parts`."""
    if climb > len(parts):
        return reference
    segments = parts[: len(parts) - climb]
    rest = rest.rstrip("/")
    if rest:
        segments = [*segments, rest]
    if not segments:
        return "index.html"
    resolved = "/".join(segments)
    return f"{resolved}/index.html" if reference.endswith("/") else resolved


def _resolve(folder: str, reference: str, base_path: str) -> str:
    """The output path `reference` (read by `_reference`) names from a page in `folder`, or the
    reference itself when it leaves the site."""
    if reference.startswith("/"):
        if not reference.startswith(base_path):
            return reference
        resolved = posixpath.normpath(reference[len(base_path):] or ".")
    else:
        resolved = posixpath.normpath(posixpath.join(folder, reference))
    if resolved == ".." or resolved.startswith("../"):
        return reference
    if reference.endswith("/") or resolved == ".":
        resolved = "index.html" if resolved == "." else f"{resolved}/index.html"
    return resolved


SPILL_PAGES = 1000
"""Pages whose targets a spilling `LinkLog` holds before it appends them to a file."""
CHECK_MEMORY = "256MB"
"""What DuckDB may hold while it checks the links; past it, it spills to the scratch folder."""


class LinkLog:
    """The internal links seen while rendering: each target with a page that links to it.

    A log given a `spill` folder (a build's, and each render worker's) holds the targets of at
    most `SPILL_PAGES` pages: it appends them to a file of its own there (`flush`), one row
    (target, page) a line, and a worker hands the build's process the names of its files, not the
    targets. The build's log takes in the workers' files (`merge`); `check` is one DuckDB query
    over all of them and the paths the build wrote, so no process holds every target of a site at
    once. (A log without a spill folder, as tests render, holds its targets.)"""

    def __init__(self, base_path: str = "/", spill: Path | None = None) -> None:
        self.base_path = base_path
        self.targets: dict[str, str] = {}
        self.spill = spill
        self.files: list[Path] = []
        """The files this log wrote (`flush`), and those merged into it (`merge`)."""
        self._pages = 0

    def add(self, page: str, content: str | bytes) -> None:
        if not page.endswith(".html"):
            return
        text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
        for target in link_targets(page, text, self.base_path):
            self.targets.setdefault(target, page)
        if self.spill is not None:
            self._pages += 1
            if self._pages % SPILL_PAGES == 0:
                self.flush()

    def flush(self) -> list[Path]:
        """Appends the targets held to a new file in the spill folder (a log without one keeps
        them); returns every file this log wrote or took in."""
        if self.spill is None or not self.targets:
            return self.files
        self.files.append(_spill(self.spill, self.targets.items()))
        self.targets = {}
        return self.files

    def merge(self, targets: dict[str, str] | list[Path]) -> None:
        """Takes in another log's targets, or the files a spilling log wrote (`flush`)."""
        if isinstance(targets, dict):
            for target, page in targets.items():
                self.targets.setdefault(target, page)
        else:
            self.files.extend(target for target in targets if target not in self.files)

    def check(self, planned: Iterable[str], scratch_folder: Path | None = None) -> None:
        """Raises BrokenLinks when a target is not among `planned`, the output paths the build
        claimed: an anti-join in DuckDB of every target and those paths, both written to
        files in `scratch_folder` first (the build's staging area; a temporary folder without one).
        Each broken target is named with the first page, by path, that links to it."""
        with contextlib.ExitStack() as stack:
            if scratch_folder is None:
                scratch_folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="scorecards-links-")))
            files = [*self.files, *([_spill(scratch_folder, self.targets.items())] if self.targets else [])]
            if not files:
                return
            paths = _spill(scratch_folder, ((path, "") for path in planned), prefix="paths-")
            con = stack.enter_context(scratch(scratch_folder, CHECK_MEMORY))
            broken = con.execute(
                f"""
                SELECT min(page) AS page, target FROM {read_rows(COLUMNS)}
                WHERE target NOT IN (SELECT target FROM {read_rows(COLUMNS)})
                GROUP BY target
                ORDER BY page, target
                """,
                [[str(f) for f in files], str(paths)],
            ).fetchall()
        if broken:
            shown = "; ".join(f"{page} → {target}" for page, target in broken[:5])
            count = f"{len(broken)} link points" if len(broken) == 1 else f"{len(broken)} links point"
            raise BrokenLinks(f"{count} at pages this build does not make: {shown}")


SPILL_ROWS = 10_000
COLUMNS = {"target": "VARCHAR", "page": "VARCHAR"}
"""A spilled file's rows (builder.store.tables.encode_rows); the paths to check against are written
the same way, each as a target of no page."""


def _spill(folder: Path, targets: Iterable[tuple[str, str]], prefix: str = "links-") -> Path:
    """Writes `targets` (target, page) to a new file in `folder`, one row a line, `SPILL_ROWS` at
    a time."""
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=".jsonl", dir=folder)
    rows = iter(targets)
    with os.fdopen(handle, "wb", buffering=1 << 20) as file:
        while batch := list(itertools.islice(rows, SPILL_ROWS)):
            file.write(encode_rows(COLUMNS, batch))
    return Path(name)
