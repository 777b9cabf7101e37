"""Byte-for-byte comparison of two built sites, and the page sets two generators produced.

The incremental target is only met if a rebuild produces exactly what a cold build of the same
data produces, so the rebuilt tree is compared with a cold one file by file: names first, then
sizes, then bytes. Differences are summarised per top-level folder (so "every page differs"
and "the search index differs" read differently) with a few examples of each kind.

The change's footprint answers the other half of the question: of all the outputs, how many
does a 1% change really alter? A manifest (path → hash) of the cold build before the change is
compared with the cold build after it; that is the least an incremental rebuild has to write.
"""

from __future__ import annotations

import filecmp
import hashlib
import re
import tarfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.measure import site_files

EXAMPLES = 10
SERVER_PAGE = re.compile(r"servers/[^/]+/index\.html")
TOOL_PAGE = re.compile(r"servers/[^/]+/tools/[^/]+/index\.html")
LIST_PAGE = re.compile(r"servers/index\.html|servers-by/.+/index\.html")
"""Every page of the servers list, in every view (builder.urls.server_list_page)."""
SECTION_PAGES = frozenset({"index.html", "changes/index.html"})
"""The TDQS section's other pages that Hugo renders too: the home and changes pages."""
COMPARE_PAGE = re.compile(r"compare/(?:[^/]+/)?index\.html")
"""The comparison a visitor chooses (`compare/index.html`) and each scored server's (builder.urls.compare_page)."""
CATEGORY_PAGE = re.compile(r"categories/(?:[^/]+/(?:\d+/)?)?index\.html")
"""The list of categories and every page of each category (builder.urls.category_page)."""


def by_top(paths: list[str]) -> dict[str, int]:
    """How many of `paths` are in each top-level folder (or are top-level files)."""
    return dict(sorted(Counter(path.split("/", 1)[0] for path in paths).items()))


def files_under(folder: Path) -> set[str]:
    """Paths of the files of a site: a folder, or an artifact tar."""
    return {path for path, _ in site_files(folder)}


@dataclass
class TreeDiff:
    files_a: int
    files_b: int
    only_in_a: list[str] = field(default_factory=list)
    only_in_b: list[str] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not (self.only_in_a or self.only_in_b or self.differing)

    def summary(self) -> dict[str, object]:
        return {
            "identical": self.identical,
            "filesA": self.files_a,
            "filesB": self.files_b,
            "onlyInA": {"count": len(self.only_in_a), "byTop": by_top(self.only_in_a), "examples": self.only_in_a[:EXAMPLES]},
            "onlyInB": {"count": len(self.only_in_b), "byTop": by_top(self.only_in_b), "examples": self.only_in_b[:EXAMPLES]},
            "differing": {"count": len(self.differing), "byTop": by_top(self.differing), "examples": self.differing[:EXAMPLES]},
        }


def compare_trees(a: Path, b: Path) -> TreeDiff:
    if a.is_file() and b.is_file():  # two artifact tars: the same bytes, or compare their members
        if filecmp.cmp(a, b, shallow=False):
            count = len(files_under(a))
            return TreeDiff(count, count)
        in_a, in_b = manifest(a), manifest(b)
        diff = TreeDiff(len(in_a), len(in_b), sorted(set(in_a) - set(in_b)), sorted(set(in_b) - set(in_a)))
        diff.differing = sorted(path for path in set(in_a) & set(in_b) if in_a[path] != in_b[path])
        return diff
    in_a, in_b = files_under(a), files_under(b)
    diff = TreeDiff(len(in_a), len(in_b), sorted(in_a - in_b), sorted(in_b - in_a))
    for path in sorted(in_a & in_b):
        if not filecmp.cmp(a / path, b / path, shallow=False):
            diff.differing.append(path)
    return diff


@dataclass(frozen=True)
class PageSets:
    ours_servers: int
    ours_tools: int
    hugo_servers: int
    hugo_tools: int
    missing_in_hugo: list[str]
    extra_in_hugo: list[str]
    ours_lists: int = 0
    hugo_lists: int = 0
    ours_other: int = 0
    hugo_other: int = 0
    """Pages of the servers list, and the home and changes pages."""
    ours_compare: int = 0
    hugo_compare: int = 0
    ours_categories: int = 0
    hugo_categories: int = 0
    """Comparison pages, and the category pages (the list of categories and each category's pages)."""
    missing_count: int = 0
    extra_count: int = 0
    missing_by_top: dict[str, int] = field(default_factory=dict)
    extra_by_top: dict[str, int] = field(default_factory=dict)
    """How many pages only one side has, in all and per top-level folder (the lists above are examples)."""

    @property
    def equal(self) -> bool:
        return not (self.missing_in_hugo or self.extra_in_hugo)

    def summary(self) -> dict[str, object]:
        return {
            "equal": self.equal, "oursServers": self.ours_servers, "oursTools": self.ours_tools,
            "hugoServers": self.hugo_servers, "hugoTools": self.hugo_tools,
            "oursLists": self.ours_lists, "hugoLists": self.hugo_lists,
            "oursOther": self.ours_other, "hugoOther": self.hugo_other,
            "oursCompare": self.ours_compare, "hugoCompare": self.hugo_compare,
            "oursCategories": self.ours_categories, "hugoCategories": self.hugo_categories,
            "missingInHugo": self.missing_in_hugo, "extraInHugo": self.extra_in_hugo,
            "missingCount": self.missing_count, "extraCount": self.extra_count,
            "missingByTop": self.missing_by_top, "extraByTop": self.extra_by_top,
        }


def page_sets(ours: Path, hugo: Path) -> PageSets:
    """The TDQS pages both sites render, by output path: server and tool pages (scored or not),
    every page of the servers list, the home and changes pages, the comparisons and the category
    pages; and the pages of these kinds that only one side has."""
    def pages(site: Path) -> tuple[set[str], ...]:
        paths = files_under(site)
        servers = {p for p in paths if SERVER_PAGE.fullmatch(p)}
        tools = {p for p in paths if TOOL_PAGE.fullmatch(p)}
        lists = {p for p in paths if LIST_PAGE.fullmatch(p)}
        compare = {p for p in paths if COMPARE_PAGE.fullmatch(p)}
        categories = {p for p in paths if CATEGORY_PAGE.fullmatch(p)}
        return servers, tools, lists, paths & SECTION_PAGES, compare, categories

    ours_sets, hugo_sets = pages(ours), pages(hugo)
    ours_all, hugo_all = set().union(*ours_sets), set().union(*hugo_sets)
    missing, extra = sorted(ours_all - hugo_all), sorted(hugo_all - ours_all)
    return PageSets(
        len(ours_sets[0]), len(ours_sets[1]), len(hugo_sets[0]), len(hugo_sets[1]),
        missing[:EXAMPLES], extra[:EXAMPLES],
        len(ours_sets[2]), len(hugo_sets[2]), len(ours_sets[3]), len(hugo_sets[3]),
        len(ours_sets[4]), len(hugo_sets[4]), len(ours_sets[5]), len(hugo_sets[5]),
        len(missing), len(extra), by_top(missing), by_top(extra),
    )


def manifest(folder: Path) -> dict[str, bytes]:
    """Every file's path and a hash of its bytes (held instead of the files: 500,000 small
    digests fit in memory, a second copy of the site would not). A folder or an artifact tar."""
    found: dict[str, bytes] = {}
    if folder.is_file():
        with tarfile.open(folder) as tar:
            for member in tar:
                if member.isfile():
                    handle = tar.extractfile(member)
                    assert handle is not None
                    found[member.name] = hashlib.blake2b(handle.read(), digest_size=16).digest()
        return found
    for path in files_under(folder):
        digest = hashlib.blake2b(digest_size=16)
        with open(folder / path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        found[path] = digest.digest()
    return found


def footprint(before: dict[str, bytes], after: dict[str, bytes]) -> dict[str, object]:
    """What changed between two builds, per top-level folder, and how many of those are pages."""
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(path for path in set(before) & set(after) if before[path] != after[path])

    def pages(paths: list[str]) -> int:
        return sum(path.endswith(".html") for path in paths)

    return {
        "files": len(after),
        "added": {"count": len(added), "pages": pages(added), "byTop": by_top(added), "examples": added[:EXAMPLES]},
        "removed": {"count": len(removed), "pages": pages(removed), "byTop": by_top(removed), "examples": removed[:EXAMPLES]},
        "changed": {"count": len(changed), "pages": pages(changed), "byTop": by_top(changed), "examples": changed[:EXAMPLES]},
    }
