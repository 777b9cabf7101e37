"""Where a build may write, and what it may replace.

A build once replaced a home folder with the site. So, before any work:

- An output is replaced only when it is empty, missing, or provably a previous scorecards output:
  a folder holding the `.scorecards-site` marker every build writes, or a tar whose first members
  include it. A folder of the user's cannot hold that file with that text by accident.
- Some places are never an output, whatever is in them: an empty path (an unset variable), a
  filesystem root or mount point, the home folder or anything above it, the current folder or
  anything above it, the data folder, anything inside it or above it.
- A symbolic link given as the output is refused: replacing it would follow it into its target.
- Builds into one output take a lock beside it (`.<name>.lock`), so a second build refuses
  instead of deleting the first one's staging folder.
- Staging and old folders beside the output are made inside a folder this module creates and
  marks (`.scorecards-staging`, naming the folder), and removed with their mark last. The next
  build into the output removes what a killed build left: a folder named as this module names
  them that carries the mark, or that holds nothing but a mark being written or nothing at all
  (the build was killed between making the folder and marking it, or after its contents were
  removed); never a folder because of its name alone, never through a symbolic link. A previous
  site a killed build had moved aside, with no site in its place, is put back first.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from builder.engine.incremental import cache_folder, repair_cache

MARKER = ".scorecards-site"
MARKER_TEXT = (
    "This folder was written by `scorecards build`. The next build into it replaces all of it;\n"
    "delete this file to keep scorecards from ever replacing the folder.\n"
)
STAGING_MARKER = ".scorecards-staging"
CACHE_MARKER = ".scorecards-cache"
TAR_MARKER_WITHIN = 8
"""A scorecards tar's members are sorted: the marker is among its first few (after `.nojekyll`)."""


class UnsafeOutput(Exception):
    """The output may not be written: the message says which path, why, and what to do."""


def _marker_says(marker: Path, text: str) -> bool:
    """Whether `marker` is a regular file, not a symbolic link, that holds exactly `text`."""
    try:
        return marker.is_file() and not marker.is_symlink() and marker.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def _is_marked_folder(folder: Path) -> bool:
    return _marker_says(folder / MARKER, MARKER_TEXT)


def is_scorecards_tar(path: Path) -> bool:
    """Whether `path` is a tar a scorecards build wrote: its first members include the marker."""
    try:
        with tarfile.open(path, "r:") as tar:
            for _ in range(TAR_MARKER_WITHIN):
                member = tar.next()
                if member is None:
                    return False
                if member.name == MARKER and member.isfile():
                    extracted = tar.extractfile(member)
                    return extracted is not None and extracted.read(len(MARKER_TEXT) + 1) == MARKER_TEXT.encode()
    except (OSError, tarfile.TarError, UnicodeDecodeError):
        return False
    return False


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_output(out: str | os.PathLike[str], data_dir: Path) -> Path:
    """The resolved output path, if a build may write it; raises UnsafeOutput otherwise."""
    given = os.fspath(out)
    if not given.strip():
        raise UnsafeOutput("the output path is empty (an unset variable?); name the folder, e.g. -o site")
    path = Path(given)
    if path.is_symlink():
        raise UnsafeOutput(f"refusing to write {given}: it is a symbolic link; name a real folder instead")
    resolved = path.resolve()
    is_tar = resolved.suffix == ".tar"
    data = data_dir.resolve()
    cwd = Path.cwd().resolve()
    homes = {Path(os.path.expanduser("~")).resolve()}
    if os.environ.get("HOME"):
        homes.add(Path(os.environ["HOME"]).resolve())
    if resolved == Path(resolved.anchor) or os.path.ismount(resolved):
        raise UnsafeOutput(f"refusing to write {resolved}: it is a filesystem root or mount point; name a folder inside it")
    where = (
        "is the data folder" if resolved == data else "is inside the data folder" if _within(resolved, data)
        else "holds the data folder" if _within(data, resolved) else None
    )
    if where is not None:
        raise UnsafeOutput(f"refusing to write {resolved}: it {where} {data}; name a folder beside the data, e.g. -o site")
    if _within(cwd, resolved):
        where = "is the current folder" if cwd == resolved else f"holds the current folder {cwd}"
        raise UnsafeOutput(f"refusing to write {resolved}: it {where}; name a new folder inside it, e.g. -o site")
    for home in sorted(homes):
        if _within(home, resolved):
            where = "is the home folder" if home == resolved else f"holds the home folder {home}"
            raise UnsafeOutput(f"refusing to write {resolved}: it {where}; name a new folder inside it")
    if not os.path.lexists(resolved):
        return resolved
    if is_tar:
        if resolved.is_dir():
            raise UnsafeOutput(f"refusing to write {resolved}: it is a folder, and an output ending in .tar is a file")
        if not resolved.is_file():
            raise UnsafeOutput(f"refusing to write {resolved}: it is not a regular file")
        if resolved.stat().st_size and not is_scorecards_tar(resolved):
            raise UnsafeOutput(
                f"refusing to replace {resolved}: it is not a tar that scorecards built; "
                "choose another name or remove it yourself"
            )
        return resolved
    if not resolved.is_dir():
        raise UnsafeOutput(f"refusing to replace {resolved}: it is a file, not a folder; choose another name")
    with os.scandir(resolved) as entries:
        empty = next(entries, None) is None
    if not empty and not _is_marked_folder(resolved):
        raise UnsafeOutput(
            f"refusing to replace {resolved}: it is not empty and has no {MARKER} marker, so it is not a "
            "previous scorecards site; choose a new or empty folder, or remove it yourself"
        )
    return resolved


class OutputLock:
    """An exclusive lock on `.<name>.lock` beside the output, held for the whole build."""

    def __init__(self, out: Path) -> None:
        self.path = out.parent / f".{out.name}.lock"
        self._fd: int | None = None

    def __enter__(self) -> OutputLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise UnsafeOutput(f"refusing to use the lock {self.path}: it is a symbolic link") from error
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            os.close(fd)
            raise UnsafeOutput(
                f"another build is writing {self.path.parent / self.path.name[1:-5]} (it holds {self.path}); "
                "wait for it to finish"
            ) from error
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock; the empty file stays, as Hugo's does
            self._fd = None


def _staging_text(folder: Path) -> str:
    return f"scorecards staging folder {folder.name}: removed by the next build into this output\n"


STAGING_KINDS = ("tmp", "old")
"""The build's staging area (builder.engine.write, builder.engine.artifact) and the previous site
moved aside while the new one is swapped in."""


def make_staging(out: Path, kind: str) -> Path:
    """A new folder `.<name>.<kind>-*` beside `out`, marked as this tool's."""
    folder = Path(tempfile.mkdtemp(prefix=f".{out.name}.{kind}-", dir=out.parent))
    try:
        (folder / STAGING_MARKER).write_text(_staging_text(folder), encoding="utf-8")
    except BaseException:  # a full disk: the folder, unmarked, would be left for good
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def remove_staging(folder: Path) -> None:
    """Removes a folder `make_staging` made, its mark last: a build killed meanwhile leaves it
    marked, or empty. A part that cannot be removed keeps the mark, for the next build to try."""
    with contextlib.suppress(FileNotFoundError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name == STAGING_MARKER:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
    with contextlib.suppress(OSError):
        if os.listdir(folder) == [STAGING_MARKER]:
            os.unlink(folder / STAGING_MARKER)
        os.rmdir(folder)  # only when empty


def is_our_staging(folder: Path) -> bool:
    return folder.is_dir() and not folder.is_symlink() and _marker_says(folder / STAGING_MARKER, _staging_text(folder))


def _is_unfinished(folder: Path) -> bool:
    """A staging folder a build was killed while making or removing: nothing in it, or only its
    mark, not yet whole (`make_staging` was writing it). Removing it loses nothing."""
    try:
        if folder.is_symlink() or not folder.is_dir():
            return False
        inside = os.listdir(folder)
        if not inside:
            return True
        marker = folder / STAGING_MARKER
        if inside != [STAGING_MARKER] or marker.is_symlink() or not marker.is_file():
            return False
        return _staging_text(folder).encode().startswith(marker.read_bytes())
    except OSError:
        return False


def leftovers(out: Path) -> list[Path]:
    """The staging folders beside `out` that builds into it made and did not remove: named as
    `make_staging` names them (its prefix and `mkdtemp`'s eight characters), and marked or
    unfinished (`_is_unfinished`). Sorted by name."""
    kinds = "|".join(re.escape(f".{out.name}.{kind}-") for kind in STAGING_KINDS)
    pattern = re.compile(f"(?:{kinds})[a-z0-9_]{{8}}")
    try:
        names = sorted(n for n in os.listdir(out.parent) if pattern.fullmatch(n))
    except FileNotFoundError:
        return []
    return [out.parent / n for n in names if is_our_staging(out.parent / n) or _is_unfinished(out.parent / n)]


def remove_leftovers(out: Path) -> None:
    """Removes the staging folders of builds into `out` that were killed before they could
    (`leftovers`). Call it holding the lock: a build's own staging folder is never another's
    leftover."""
    found = leftovers(out)
    _restore(out, found)
    for leftover in found:
        if is_our_staging(leftover):
            remove_staging(leftover)
        else:
            with contextlib.suppress(OSError):
                (leftover / STAGING_MARKER).unlink(missing_ok=True)
                os.rmdir(leftover)


def _restore(out: Path, found: list[Path]) -> None:
    """A build killed between moving the previous site aside and moving its own in left no site at
    `out`: the previous one goes back from its old folder, as if that build had not run (the
    cache's ledger still describes it). Only a marked site in a marked old folder, and only when
    there is one."""
    if os.path.lexists(out):
        return
    sites = [
        folder / "site" for folder in found
        if folder.name.startswith(f".{out.name}.old-") and is_our_staging(folder)
        and not (folder / "site").is_symlink() and _is_marked_folder(folder / "site")
    ]
    if len(sites) == 1:
        os.replace(sites[0], out)


def prepare_cache(out: Path) -> Path:
    """The build cache `.<name>.cache` beside the output: made and marked by this tool, or refused."""
    cache = cache_folder(out)
    if cache.is_symlink():
        raise UnsafeOutput(f"refusing to use the build cache {cache}: it is a symbolic link")
    if cache.exists():
        marker = cache / CACHE_MARKER
        if not cache.is_dir() or not marker.is_file() or marker.is_symlink():
            raise UnsafeOutput(
                f"refusing to use {cache} as the build cache: scorecards did not make it; remove or rename it"
            )
        repair_cache(cache)
        return cache
    cache.mkdir()
    (cache / CACHE_MARKER).write_text("scorecards build cache: safe to delete\n", encoding="utf-8")
    return cache


@contextlib.contextmanager
def claimed(out: str | os.PathLike[str], data_dir: Path) -> Iterator[Path]:
    """Checks the output, makes its parent, locks it, clears marked leftovers and the cache; yields
    the resolved output path. Everything a build writes goes below it or beside it."""
    resolved = check_output(out, data_dir)
    resolved.parent.mkdir(parents=True, exist_ok=True)
    with OutputLock(resolved):
        check_output(out, data_dir)  # again, now that no other build can be changing it
        remove_leftovers(resolved)
        prepare_cache(resolved)
        yield resolved
