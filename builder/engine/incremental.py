"""Incremental rebuilds: a page whose inputs and templates did not change is not rendered again.

Every output that can be reused carries a `key`: a content hash of everything it is made from
(for a TDQS server's pages, the bytes of that server's files). Beside it counts the *engine*
hash — the builder's code, templates and static files, the versions of Python and of every dependency
that shapes the output (tdqs, Jinja2, markdown-it-py, DuckDB, pydantic, Pagefind …), the site settings and
the site-wide values every page shows (navigation, stand-in notice) — which the ledger of the
previous build records once: an output is lent when both are those of the previous build's output of
the same path. A match hard-links the previous file into the staging
folder instead of rendering; anything else is rendered. So a rebuild gives byte for byte the
site a cold build gives, and only changed servers cost rendering.

A file is lent only if it is still what was written: the ledger records the SHA-256 of each
output's bytes when it is written, and the writer hashes the previous file again before lending it
(`reuse`; in a tar, the member's header is checked against its path and size too). A page edited
or cut short on disk, or a byte flipped in the previous tar, is rendered again, not published
again (`git show ff15eda:docs/performance.md`, issue 34, measures what the hashing costs).

What the previous build wrote is read from its ledger (builder.engine.ledger), which lives beside
the output (`.<out>.cache/ledger.jsonl`), like the staging folder: it is build state, not part of
the published site, and it is read as a stream, so a rebuild holds nothing per output of the
previous build.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import stat
from collections.abc import Iterable, Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Protocol, TypeVar

from builder.config import SiteConfig
from builder.engine import ledger
from builder.engine.assets import TEMPLATES
from builder.engine.written import Row


class Keyed(Protocol):
    """An output as the manifest sees it: where it goes and what it is made from (None: unknown)."""

    @property
    def path(self) -> str: ...

    @property
    def key(self) -> str | None: ...


Planned = TypeVar("Planned", bound=Keyed)

_ROOT = Path(__file__).resolve().parents[1]
MANIFEST_VERSION = 4


def content_key(*parts: bytes | str) -> str:
    """A key for `parts`, each length-prefixed: SHA-256, cut to 128 bits."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()[:32]


def _tree(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in suffixes)


SHAPING = ("jinja2", "markupsafe", "markdown-it-py", "mdurl", "duckdb", "pydantic", "pydantic-core",
           "pagefind", "pagefind-bin")
"""The installed distributions whose version can change what any build writes: the template engine and
its escaping, Markdown, the store (its SQL and number formatting), the models that read the data, and
the search indexer. A grading system names its own besides (`RecordSystem.shaping`: a reference scorer
and its rubric). (tqdm and watchfiles never reach an output.)"""


def dependency_versions(shaping: Iterable[str] = ()) -> list[str]:
    """`name==version` of the Python that runs the build, of each SHAPING distribution and of each of
    `shaping` (the grading systems' own: `RecordSystem.shaping`), `absent` if it is not installed."""
    found = [f"python=={platform.python_implementation()}-{platform.python_version()}"]
    for name in (*SHAPING, *sorted(set(shaping))):
        try:
            found.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name}==absent")
    return found


def code_key(shaping: Iterable[str] = ()) -> str:
    """The builder's code, templates and static files, and the versions of what shapes its output
    (dependency_versions, with the grading systems' `shaping`): an upgrade of any of them renders
    every page again."""
    parts: list[bytes | str] = [str(MANIFEST_VERSION), *dependency_versions(shaping)]
    for path in _tree(_ROOT, (".py", ".sql")):
        parts += [path.relative_to(_ROOT).as_posix(), path.read_bytes()]
    for path in _tree(TEMPLATES, (".html", ".css", ".js", ".xml", ".svg")):
        parts += ["templates/" + path.relative_to(TEMPLATES).as_posix(), path.read_bytes()]
    return content_key(*parts)


def engine_key(config: SiteConfig, site: dict[str, Any], shaping: Iterable[str] = ()) -> str:
    """Everything besides an output's own data that can change its bytes (`shaping`: the
    distributions the grading systems built name: `RecordSystem.shaping`)."""
    site_json = json.dumps(site, default=lambda item: getattr(item, "__dict__", str(item)), sort_keys=True)
    return content_key(code_key(shaping), config.model_dump_json(), site_json)


def cache_folder(out: Path) -> Path:
    out = out.resolve()
    return out.parent / f".{out.name}.cache"


LEDGER = "ledger.jsonl"
CACHE_FILES = (LEDGER, "ledger.tmp", "store.duckdb", "store.duckdb.wal")
"""What the build keeps as files in its cache folder (this module, builder.engine.artifact, builder.store)."""
FORMER_FILES = ("manifest.json", "manifest.tmp", "members.json", "members.tmp", "search-source")
"""What earlier versions kept (instead of the ledger; the search documents): removed, as nothing
reads it any more."""
CACHE_FOLDERS = ("store.tmp", "store.files")
"""… and as folders (builder.store) …"""
SYSTEM_FOLDERS = (READ_CACHE_SUFFIX, SPOOL_SUFFIX) = ("-servers", "-spool")
"""… and a folder of each for every grading system that keeps one, named by the system: its read cache,
`<system>-servers` (builder.engine.read_cache; entries are files), and its spool, `<system>-spool`
(builder.store.spool)."""


def read_cache_folder(cache: Path, system: str) -> Path:
    return cache / f"{system}{READ_CACHE_SUFFIX}"


def spool_folder(cache: Path, system: str) -> Path:
    return cache / f"{system}{SPOOL_SUFFIX}"


def repair_cache(cache: Path) -> None:
    """Removes whatever in the cache folder has the wrong shape (a folder where a file belongs, a
    file where a folder does, a link or a special file anywhere it looks, an entry of the read cache
    that is not a file), so a damaged cache costs one rebuild of what it held instead of failing
    every build until someone removes it by hand. What is only wrong inside (bytes, JSON) is found
    by the one reading it, and read as missing."""
    for name in CACHE_FILES:
        _remove_unless(cache / name, folder=False)
    for name in FORMER_FILES:
        path = cache / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
    for name in CACHE_FOLDERS:
        _remove_unless(cache / name, folder=True)
    systems = sorted(p for suffix in SYSTEM_FOLDERS for p in cache.glob(f"?*{suffix}")) if cache.is_dir() else []
    for path in systems:
        _remove_unless(path, folder=True)
    for path in systems:
        if path.name.endswith(READ_CACHE_SUFFIX) and path.is_dir() and not path.is_symlink():
            with os.scandir(path) as listing:
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
    """The ledgers (builder.engine.ledger): the previous build's, read once as a stream to find which
    of the planned outputs it can lend, and this build's, written from the writer's rows. `engine`:
    what every output's bytes depend on besides its own inputs (`engine_key`), which both must share;
    `kind` and `size`: the writer's kind (`folder`, `tar`) and the previous tar's size, which the
    previous ledger must describe."""

    def __init__(self, out: Path, engine: str, kind: str, size: int | None = None) -> None:
        self.out = out.resolve()
        self.engine = engine
        self.kind = kind
        self.size = size
        self.path = cache_folder(out) / LEDGER
        self._prepared = self.path.with_suffix(".tmp")
        self._is_prepared = False

    def matched(self, outputs: Iterable[Planned]) -> Iterator[tuple[Planned, Row | None]]:
        """Every output of `outputs` (sorted by path, each path once), with the previous build's row
        of the same path, written from the same inputs (key and engine), or None: whether its bytes
        are still those is the writer's to check (`reuse`). One pass over the previous ledger."""
        previous = ledger.rows(self.path, self.kind, self.engine, self.size) if self.out.exists() else iter(())
        return ledger.matched(((output.path, output.key, output) for output in outputs), previous)

    def prepare(self, written: Iterable[Row] = ()) -> None:
        """Writes this build's ledger beside the previous one, all but its end: the build does it
        while Pagefind is still indexing. It describes the new site, so it takes the previous one's
        place only once that site is committed (`save`). `written`: every output written or lent,
        sorted by path (the writer's `written_rows`); those with a key are recorded (an output not
        among them is never lent by the next build)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        ledger.write(self._prepared, self.kind, self.engine, (row for row in written if row[1] is not None))
        self._is_prepared = True

    def save(self, written: Iterable[Row] = (), size: int | None = None) -> None:
        """Ends this build's ledger (`size`: the tar's) and puts it in the previous one's place."""
        if not self._is_prepared:  # a file a failed build left there is not this build's
            self.prepare(written)
        ledger.end(self._prepared, size)
        os.replace(self._prepared, self.path)
        self._is_prepared = False
