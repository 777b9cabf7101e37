"""Build a data folder in memory and read pages back with a real HTML parser."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from builder.build import BuildResult, build
from builder.config import SiteConfig
from builder.engine.write import MemoryWriter


def build_in_memory(data: Path, config: SiteConfig | None = None) -> tuple[MemoryWriter, BuildResult]:
    """`build` into memory: the site, and what the build says of it."""
    writer = MemoryWriter()
    result = build(data, writer, config or SiteConfig(), search=False)
    return writer, result


def api(writer: MemoryWriter, path: str) -> Any:
    return json.loads(writer.text(path))


class Page(HTMLParser):
    """Text, links and element ids of one HTML page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[str] = []
        self.sources: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self._skip = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"] or "")
        if tag in ("script", "img", "link") and (attributes.get("src") or attributes.get("href")):
            self.sources.append(attributes.get("src") or attributes.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def output_digests(out: Path) -> dict[str, str]:
    """Every file of a built site, a folder or a Pages tar, as its path → the sha256 of its bytes."""
    import hashlib
    import tarfile

    from snapshot import site_digests

    if out.suffix == ".tar":
        with tarfile.open(out) as tar:
            return {m.name: hashlib.sha256(tar.extractfile(m).read()).hexdigest()  # type: ignore[union-attr]
                    for m in tar.getmembers() if m.isfile()}
    return site_digests(out)
