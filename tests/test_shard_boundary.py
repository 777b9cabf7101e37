"""A registry that grows past a multiple of `shard_docs` search documents gets one more search shard
(builder.engine.search), and only the search page says where the shards are: every other output
the previous build wrote from the same inputs is still lent, and the site is the one a cold build
gives (issue 46: built from 990 servers, then from 1,010, nothing was reused).

What "unchanged" means is found without the build's keys: the outputs two cold builds, before and
after the growth, wrote with the same bytes. What was lent is found without the build's report
too: a lent file is the previous build's file, hard-linked (builder.engine.write.FolderWriter.reuse),
so it keeps its inode."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from builder.build import build
from builder.config import SiteConfig
from scorecards_demo.generate import generate_demo

SHARD_DOCS = 20
BEFORE, AFTER = 19, 22
"""Servers before and after the growth: a registry's search documents are one per server, so the
first build has one shard and the second two (checked below)."""


def of_a_server(path: str, names: set[str]) -> bool:
    """Whether `path` is one of the outputs of a server named in `names` (its pages, API file, badge,
    feed, tool pages, comparison: every path with the server's name as a folder or a file's stem),
    rather than a corpus-wide output, which has no key and is always rendered."""
    return any(part.split(".")[0] in names for part in path.split("/"))


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}


def shards(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("pagefind"))


@pytest.fixture(scope="module")
def registries(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, set[str]]:
    """The first BEFORE and the first AFTER servers of one generated registry, each a data folder,
    and the names of the first BEFORE."""
    root = tmp_path_factory.mktemp("registry")
    generate_demo(root / "demo", servers=AFTER, tools=4 * AFTER, seed=46, workers=1)
    names = sorted(p.name for p in (root / "demo" / "servers").iterdir())
    assert len(names) == AFTER
    folders = []
    for count in (BEFORE, AFTER):
        data = root / f"data-{count}"
        for name in names[:count]:
            shutil.copytree(root / "demo" / "servers" / name, data / "servers" / name)
        folders.append(data)
    return folders[0], folders[1], set(names[:BEFORE])


def test_growing_past_a_shard_boundary_lends_the_unchanged_outputs(
    registries: tuple[Path, Path, set[str]], tmp_path: Path,
) -> None:
    before, after, names = registries
    config = SiteConfig(site_url="https://example.org")
    build(before, tmp_path / "cold-before", config, shard_docs=SHARD_DOCS)
    build(after, tmp_path / "cold-after", config, shard_docs=SHARD_DOCS)
    assert shards(tmp_path / "cold-before") == ["pagefind"]
    assert shards(tmp_path / "cold-after") == ["pagefind", "pagefind-2"]
    old, new = tree(tmp_path / "cold-before"), tree(tmp_path / "cold-after")
    unchanged = {path for path, digest in old.items() if new.get(path) == digest and of_a_server(path, names)}
    assert len(unchanged) > 0.8 * sum(of_a_server(path, names) for path in old)  # the growth touched few of them

    out = tmp_path / "site"
    first = build(before, out, config, shard_docs=SHARD_DOCS)
    assert first.timings["reused"] == 0
    previous = inodes(out)
    grown = build(after, out, config, shard_docs=SHARD_DOCS)
    now = inodes(out)
    lent = {path for path, inode in now.items() if previous.get(path) == inode}

    assert grown.timings["reused"] == len(lent)
    assert all(old[path] == new[path] for path in lent)  # nothing whose bytes changed was lent
    assert len(lent & unchanged) >= 0.9 * len(unchanged), (
        f"{len(lent & unchanged)} of {len(unchanged)} unchanged outputs of a server lent; "
        f"rendered again: {sorted(unchanged - lent)[:10]}")
    assert tree(out) == new  # byte for byte the cold build of the grown registry
    assert os.path.exists(out / "pagefind-2" / "pagefind.js")


def test_only_the_search_page_reads_where_the_shards_are() -> None:
    """The shards are left out of every key (builder.build.UNKEYED_SITE_VALUES): that holds only while
    no template of a page with a key reads them. The search page has none: it is always rendered."""
    from builder.engine.assets import TEMPLATES
    from builder.pages.common import search_page

    readers = sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")
                     if "search_shards" in p.read_text(encoding="utf-8"))
    assert readers == [search_page().template]
    assert search_page().key is None
