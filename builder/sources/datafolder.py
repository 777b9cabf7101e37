"""The data folder is read without ever leaving it.

A data folder comes from a repository anyone can send a pull request to, so a symbolic link in it
may point anywhere: at a home folder, at `/etc`, at a FIFO. The rule is the simplest one that is
correct: no symbolic link in the data folder is ever followed (not a server folder, not
`servers/` or `grading-data/` themselves, not `index.json`), and nothing but a regular file is
ever opened — a FIFO would block the build forever, a device would be read without end. Each link
or special file a reader meets is reported (`skip_reason`), so nothing is left out silently.

Files are opened with `O_NOFOLLOW | O_NONBLOCK` and checked with `fstat` after opening, so a file
swapped for a link or a FIFO between listing and reading is refused too; and they are read only
up to the size limit, never whole, whatever `stat` said before.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from builder.engine.problems import ProblemLog
from builder.sources import input_files

Kind = Literal["file", "folder", "link", "special", "missing"]

LINK = "a symbolic link: links are never followed, so nothing outside the data folder is read"
SPECIAL = "not a regular file (a FIFO, socket or device): it is never opened"


class Unreadable(Exception):
    """A file that cannot be used, with the JSON path and a reason a person can act on."""

    def __init__(self, json_path: str, reason: str) -> None:
        super().__init__(reason)
        self.json_path = json_path
        self.reason = reason


def kind(path: Path) -> Kind:
    """What `path` itself is, its last component not followed."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "missing"
    return _kind(mode)


def _kind(mode: int) -> Kind:
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    return "special"


def entry_kind(entry: os.DirEntry[str]) -> Kind:
    """The same for a directory entry, from what the listing already knows (no `stat` on Linux)."""
    if entry.is_symlink():
        return "link"
    if entry.is_dir(follow_symlinks=False):
        return "folder"
    if entry.is_file(follow_symlinks=False):
        return "file"
    return "special"


def skip_reason(found: Kind) -> str | None:
    """Why a reader leaves an entry of this kind unread; None for files and folders."""
    return LINK if found == "link" else SPECIAL if found == "special" else None


def listing(folder: Path) -> list[os.DirEntry[str]]:
    """The entries of `folder`, sorted by name (the order a filesystem lists them in differs
    between ext4 and tmpfs, and the same data must build the same bytes)."""
    with os.scandir(folder) as entries:
        return sorted(entries, key=lambda entry: entry.name)


def entries(folder: Path, wanted: Kind, name_ok: Callable[[str], bool], skipped: list[Path]) -> list[Path] | None:
    """The entries of `folder` of kind `wanted` whose names pass `name_ok`, sorted; None when
    `folder` is not a real folder. Links and special files met on the way (the folder itself, or
    an entry with a wanted name) are added to `skipped`, never followed or opened."""
    found = kind(folder)
    if found != "folder":
        if skip_reason(found):
            skipped.append(folder)
        return None
    result = []
    for entry in listing(folder):
        if not name_ok(entry.name):
            continue
        entry_type = entry_kind(entry)
        if entry_type == wanted:
            result.append(folder / entry.name)
        elif skip_reason(entry_type):
            skipped.append(folder / entry.name)
    return result


def subfolders(folder: Path, skipped: list[Path]) -> list[Path]:
    """The real subfolders of `folder` (itself a real folder, else none), sorted, hidden ones left out."""
    return entries(folder, "folder", lambda name: not name.startswith("."), skipped) or []


def report_skipped(skipped: list[Path], data_dir: Path, system: str, log: ProblemLog) -> None:
    """Each link or special file a reader left unread, as a rejected file of the data folder."""
    for path in dict.fromkeys(skipped):  # a link met twice on the way is one problem
        reason = skip_reason(kind(path)) or "changed while it was read: it is left out"
        try:
            name = path.relative_to(data_dir).as_posix()
        except ValueError:
            name = path.as_posix()
        log.reject(name, system, "$", reason)


def read_regular(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes` of them: a link, a special file
    or a larger file raises `Unreadable` without being read (a special file is not even opened).
    While a source is read (`input_files.reading`), a file it read before is not read again, and
    each file read is recorded for the manifest."""
    reads = input_files.active()
    held = reads.held(path) if reads is not None else None
    if held is not None and len(held) <= max_bytes:
        return held
    raw = _read_regular(path, max_bytes)
    if reads is not None:
        reads.record(path, raw)
    return raw


def _read_regular(path: Path, max_bytes: int) -> bytes:
    found = kind(path)
    if found in ("link", "special"):
        raise Unreadable("$", LINK if found == "link" else SPECIAL)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Unreadable("$", LINK) from error
        raise Unreadable("$", f"cannot read the file: {error.strerror or error}") from error
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("$", SPECIAL)
        if info.st_size > max_bytes:
            raise Unreadable("$", too_large(info.st_size, max_bytes))
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(handle, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # it grew after fstat
            raise Unreadable("$", too_large(total, max_bytes, grew=True))
        return b"".join(chunks)
    except OSError as error:
        raise Unreadable("$", f"cannot read the file: {error.strerror or error}") from error
    finally:
        os.close(handle)


def too_large(size: int, max_bytes: int, *, grew: bool = False) -> str:
    said = f"more than {max_bytes:,} bytes" if grew else f"{size:,} bytes"
    return f"file is {said}, over the {max_bytes:,}-byte limit for one input file"
