"""Incremental rebuilds: a page whose inputs and templates did not change is not rendered again.

Every output that can be reused carries a `key`: a content hash of everything it is made from
(for a TDQS server's pages, the bytes of that server's files). The build folds in the *engine*
hash — the builder's code, templates and static files, the tdqs version, the site settings and
the site-wide values every page shows (navigation, stand-in notice) — and compares the result
with the manifest of the previous build. A match hard-links the previous file into the staging
folder instead of rendering; anything else is rendered. So a rebuild gives byte for byte the
site a cold build gives, and only changed servers cost rendering.

A file is lent only if it is still what was written: the manifest records each output's check
(builder.engine.write.output_check, a hash of its bytes, or of its record in a tar) when it is
written, and the writer hashes the previous file again before lending it (`reuse`). A page edited
or cut short on disk, or a byte flipped in the previous tar, is rendered again, not published
again (docs/performance.md measures what the hashing costs).

The manifest lives beside the output (`<out>.cache/manifest.json`), like the staging folder: it
is build state, not part of the published site.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from builder.config import SiteConfig
from builder.engine.assets import TEMPLATES

_ROOT = Path(__file__).resolve().parents[1]
MANIFEST_VERSION = 2


def content_key(*parts: bytes | str) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def _tree(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in suffixes)


def code_key() -> str:
    """The builder's code, templates and static files, and the tdqs version."""
    parts: list[bytes | str] = [str(MANIFEST_VERSION), version("tdqs")]
    for path in _tree(_ROOT, (".py", ".sql")):
        parts += [path.relative_to(_ROOT).as_posix(), path.read_bytes()]
    for path in _tree(TEMPLATES, (".html", ".css", ".js", ".xml", ".svg")):
        parts += ["templates/" + path.relative_to(TEMPLATES).as_posix(), path.read_bytes()]
    return content_key(*parts)


def engine_key(config: SiteConfig, site: dict[str, Any]) -> str:
    """Everything besides an output's own data that can change its bytes."""
    site_json = json.dumps(site, default=lambda item: getattr(item, "__dict__", str(item)), sort_keys=True)
    return content_key(code_key(), config.model_dump_json(), site_json)


def cache_folder(out: Path) -> Path:
    out = out.resolve()
    return out.parent / f".{out.name}.cache"


CACHE_FILES = ("manifest.json", "manifest.tmp", "members.json", "members.tmp", "store.duckdb", "store.duckdb.wal")
"""What the build keeps as files in its cache folder (this module, builder.engine.artifact, builder.store)."""
CACHE_FOLDERS = ("tdqs-servers", "tdqs-spool", "cleo-spool", "flowmcp-spool", "search-source", "store.tmp")
"""… and as folders (builder.engine.read_cache, builder.store.spool: one per system, builder.engine.search,
builder.store)."""


def repair_cache(cache: Path) -> None:
    """Removes whatever in the cache folder has the wrong shape (a folder where a file belongs, a
    file where a folder does, a link or a special file anywhere it looks, an entry of the read cache
    that is not a file), so a damaged cache costs one rebuild of what it held instead of failing
    every build until someone removes it by hand. What is only wrong inside (bytes, JSON) is found
    by the one reading it, and read as missing."""
    for name in CACHE_FILES:
        _remove_unless(cache / name, folder=False)
    for name in CACHE_FOLDERS:
        _remove_unless(cache / name, folder=True)
    entries = cache / "tdqs-servers"
    if entries.is_dir():
        with os.scandir(entries) as listing:
            for entry in listing:
                if not entry.is_file(follow_symlinks=False):
                    _remove_unless(Path(entry.path), folder=False)


def _remove_unless(path: Path, *, folder: bool) -> None:
    """Removes `path` unless it is a folder (`folder`) or a regular file (not), not a link."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if (stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)):
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        path.unlink()


class Manifest:
    """Output path → the key it was built from and the check of its bytes, for the previous build
    and the one under way. `exists` tells whether the previous site still has a path (a file in the
    folder, a member of the tar)."""

    def __init__(self, out: Path, engine: str, exists: Callable[[str], bool]) -> None:
        self.out = out.resolve()
        self.engine = engine
        self._exists = exists
        self.path = cache_folder(out) / "manifest.json"
        self.current: dict[str, str] = {}
        self._full: dict[str, str] = {}
        self._prepared = self.path.with_suffix(".tmp")
        self._is_prepared = False
        self.previous, self.checks = _previous_outputs(self.path) if self.out.exists() else ({}, {})

    def full_key(self, key: str) -> str:
        # A server's pages share its key: each distinct key is hashed once.
        full = self._full.get(key)
        if full is None:
            full = self._full[key] = content_key(self.engine, key)
        return full

    def reusable(self, path: str, key: str | None) -> bool:
        """True when the previous build wrote `path` from the same inputs and the file is still
        there (whether its bytes are still those written is the writer's to check: `check`)."""
        if key is None:
            return False
        full = self.full_key(key)
        self.current[path] = full
        self._is_prepared = False
        return self.previous.get(path) == full and self._exists(path)

    def check(self, path: str) -> str | None:
        """The check of `path`'s bytes as the previous build wrote them."""
        return self.checks.get(path)

    def prepare(self, checks: dict[str, str] | None = None) -> None:
        """Writes this build's manifest beside the previous one, not yet in its place: the build
        does it while Pagefind is still indexing. It describes the new site, so it takes the
        previous one's place only once that site is committed (`save`). `checks`: the writer's,
        for every output written or lent (an output without one is never lent by the next build)."""
        checks = checks or {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        outputs = dict(sorted(self.current.items()))
        self._prepared.write_text(json.dumps({
            "version": MANIFEST_VERSION, "outputs": outputs,
            "checks": {path: checks[path] for path in outputs if path in checks},
        }), encoding="utf-8")
        self._is_prepared = True

    def save(self, checks: dict[str, str] | None = None) -> None:
        if not self._is_prepared:  # a file a failed build left there is not this build's
            self.prepare(checks)
        os.replace(self._prepared, self.path)
        self._is_prepared = False


def _previous_outputs(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The outputs the manifest at `path` lists, and their checks; none when it is missing,
    unreadable or of any other shape than this build writes."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, {}
    if not isinstance(document, dict) or document.get("version") != MANIFEST_VERSION:
        return {}, {}
    outputs, checks = document.get("outputs"), document.get("checks")
    for table in (outputs, checks):
        if not isinstance(table, dict) or not all(isinstance(value, str) for value in table.values()):
            return {}, {}
    return outputs, checks  # type: ignore[return-value]
