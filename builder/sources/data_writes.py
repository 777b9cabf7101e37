"""The one rule for every write into a data folder (`scorecards add`, `index`, `new`).

A data folder can come from a pull request. A folder inside it that is a symbolic link (`servers/`,
a server's folder, `sessions/`, a provider's `_gradings/`) would carry a write to wherever the link
points, anywhere the operator can write. So a write never follows a link below the data folder:

- each parent is opened one name at a time from the data folder with `O_NOFOLLOW | O_DIRECTORY`
  (a missing one is made); a link, or something that is not a folder, refuses the write with one
  line naming it (`RefusedWrite`). The data folder itself is the operator's to name: a link there
  is followed, as any path they type is.
- the file is written whole to a temporary name in its own folder (`.<name>.<pid>.tmp`), flushed
  to disk, and renamed into place; an append is written the same way (the old bytes and the new
  rows, as one new file). A kill leaves the old file or the new one, and at worst a temporary file,
  which the next `add` finds and removes (`leftovers`).
- a file that must not replace another (`replace=False`) is put in place with `link`, which fails
  when the name is taken meanwhile, instead of a rename, which would replace it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.tmp$")


class RefusedWrite(Exception):
    """A write the data folder cannot take as it is: one line naming the path and the reason."""


def _parts(relative: str) -> list[str]:
    parts = relative.split("/")
    if not relative or any(part in ("", ".", "..") for part in parts):
        raise RefusedWrite(f"{relative!r} is not a path inside the data folder")
    return parts


def _refusal(data: Path, parts: list[str], found: os.stat_result | None) -> RefusedWrite:
    where = data.joinpath(*parts)
    if found is not None and stat.S_ISLNK(found.st_mode):
        return RefusedWrite(f"{where} is a symbolic link; scorecards never writes through a link in the data folder")
    return RefusedWrite(f"{where} is in the way and is not a folder")


def _lstat(name: str, folder: int) -> os.stat_result | None:
    try:
        return os.lstat(name, dir_fd=folder)
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def _open_folder(data: Path, parts: list[str], *, make: bool) -> Iterator[int | None]:
    """The folder `data/parts…` open without following a link below `data`; None when a part is
    missing and `make` is False."""
    descriptor = _walk(data, parts, make=make)
    try:
        yield descriptor
    finally:
        if descriptor is not None:
            os.close(descriptor)


def _walk(data: Path, parts: list[str], *, make: bool) -> int | None:
    descriptor = os.open(data, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for depth, name in enumerate(parts):
            inner = _open_part(data, parts[: depth + 1], descriptor)
            if inner is None:
                if not make:
                    os.close(descriptor)
                    return None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o777, dir_fd=descriptor)
                inner = _open_part(data, parts[: depth + 1], descriptor)
                if inner is None:
                    raise FileNotFoundError(errno.ENOENT, "removed while it was made", str(data.joinpath(*parts)))
            os.close(descriptor)
            descriptor = inner
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _open_part(data: Path, parts: list[str], folder: int) -> int | None:
    """The folder `parts[-1]` inside the open `folder`, not followed if it is a link; None if missing."""
    try:
        return os.open(parts[-1], _FOLDER_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _refusal(data, parts, _lstat(parts[-1], folder)) from None
        raise


def check_target(data: Path, relative: str) -> None:
    """Refuses (`RefusedWrite`) a write to `data/relative` that would go through a link or onto
    something that is not a file; writes nothing. What is missing is fine: it would be made."""
    parts = _parts(relative)
    with _open_folder(data, parts[:-1], make=False) as folder:
        if folder is None:
            return
        found = _lstat(parts[-1], folder)
        if found is not None and not stat.S_ISREG(found.st_mode):
            if stat.S_ISLNK(found.st_mode):
                raise _refusal(data, parts, found)
            raise RefusedWrite(f"{data.joinpath(*parts)} is in the way and is not a file")


def read_target(data: Path, relative: str, max_bytes: int) -> bytes | None:
    """The bytes of the regular file `data/relative` (None when there is none), read without
    following a link; more than `max_bytes` refuses."""
    parts = _parts(relative)
    with _open_folder(data, parts[:-1], make=False) as folder:
        if folder is None:
            return None
        try:
            handle = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise _refusal(data, parts, _lstat(parts[-1], folder)) from None
            raise
        with os.fdopen(handle, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise RefusedWrite(f"{data.joinpath(*parts)} is in the way and is not a file")
            if info.st_size > max_bytes:
                raise RefusedWrite(f"{data.joinpath(*parts)} is {info.st_size:,} bytes, more than the "
                                   f"{max_bytes:,} a data file can have")
            return file.read(max_bytes + 1)


def write_file(data: Path, relative: str, content: bytes | Iterable[bytes], *, replace: bool) -> None:
    """Writes `content` (the bytes, or pieces of them as they are made) as `data/relative`, whole
    or not at all. `replace`: whether it may take the place of a file already there (else
    FileExistsError)."""
    parts = _parts(relative)
    name = parts[-1]
    with _open_folder(data, parts[:-1], make=True) as folder:
        assert folder is not None
        temporary = f".{name}.{os.getpid()}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666,
                         dir_fd=folder)
        try:
            with os.fdopen(handle, "wb") as file:
                file.writelines([content] if isinstance(content, bytes) else content)
                file.flush()
                os.fsync(file.fileno())
            if replace:
                os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
            else:
                os.link(temporary, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder)
        os.fsync(folder)


def leftovers(data: Path, relative: str) -> list[str]:
    """Temporary files beside `data/relative` that a killed write left (their process is gone),
    as paths relative to the data folder."""
    parts = _parts(relative)
    with _open_folder(data, parts[:-1], make=False) as folder:
        if folder is None:
            return []
        found = []
        for entry in os.listdir(folder):
            match = _TEMPORARY.match(entry)
            if match and match["name"] == parts[-1] and not _running(int(match["pid"])):
                found.append("/".join((*parts[:-1], entry)))
        return found


def remove(data: Path, relative: str) -> None:
    """Removes the file `data/relative` (a leftover), without following a link."""
    parts = _parts(relative)
    with _open_folder(data, parts[:-1], make=False) as folder:
        if folder is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(parts[-1], dir_fd=folder)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
