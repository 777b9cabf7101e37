"""Every link of every rendered page resolves to an output of the same build.

Links are read from what was rendered (every `href` and `src` of the HTML), wherever it was
rendered — in the build's process or in a worker — so no page has to declare its links, and a
template that spells a wrong path fails the build before the site is committed instead of
publishing a 404. Only links into the site are checked: external URLs, `mailto:` and fragments of
the same page are left alone.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable
from urllib.parse import unquote

_REFERENCE = re.compile(r"""\b(?:href|src)=(?:"([^"]*)"|'([^']*)')""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class BrokenLinks(Exception):
    """Pages link to paths the build does not make: a builder bug, never a data problem."""


def link_targets(page: str, text: str, base_path: str = "/") -> set[str]:
    """The output paths the page at `page` links to (a folder link as its `index.html`); a link
    that leaves the site is given as it was written, so that it cannot match any output."""
    targets: set[str] = set()
    for match in _REFERENCE.finditer(text):
        reference = html.unescape(match.group(1) if match.group(1) is not None else match.group(2))
        reference = reference.split("#", 1)[0].split("?", 1)[0]
        if not reference or reference.startswith("//") or _SCHEME.match(reference):
            continue
        reference = unquote(reference)
        if reference.startswith("/"):
            if not reference.startswith(base_path):
                targets.add(reference)
                continue
            resolved = posixpath.normpath(reference[len(base_path):] or ".")
        else:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), reference))
        if resolved == ".." or resolved.startswith("../"):
            targets.add(reference)
            continue
        if reference.endswith("/") or resolved == ".":
            resolved = "index.html" if resolved == "." else f"{resolved}/index.html"
        targets.add(resolved)
    return targets


class LinkLog:
    """The internal links seen while rendering: each target with the first page that links to it."""

    def __init__(self, base_path: str = "/") -> None:
        self.base_path = base_path
        self.targets: dict[str, str] = {}

    def add(self, page: str, content: str | bytes) -> None:
        if not page.endswith(".html"):
            return
        text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
        for target in link_targets(page, text, self.base_path):
            self.targets.setdefault(target, page)

    def merge(self, targets: dict[str, str]) -> None:
        for target, page in targets.items():
            self.targets.setdefault(target, page)

    def check(self, planned: Iterable[str]) -> None:
        """Raises BrokenLinks when a target is not among the planned output paths."""
        made = set(planned)
        broken = sorted((page, target) for target, page in self.targets.items() if target not in made)
        if broken:
            shown = "; ".join(f"{page} → {target}" for page, target in broken[:5])
            count = f"{len(broken)} link points" if len(broken) == 1 else f"{len(broken)} links point"
            raise BrokenLinks(f"{count} at pages this build does not make: {shown}")
