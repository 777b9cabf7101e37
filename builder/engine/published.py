"""What a built site holds, read back: each published file's path, SHA-256 and size, sorted by path.

`scorecards verify` reads a site it is given this way: a folder's files from disk, a tar's regular
members from the tar, in one pass. A build lists what it wrote from what its writer recorded as it
wrote (builder.engine.written), and reads back only what Pagefind wrote into a folder.
"""

from __future__ import annotations

import hashlib
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path

from builder.publish.manifest import sha256_file

Published = tuple[str, str, int]
"""A published file: its path in the site, the SHA-256 of its bytes, its size."""


def folder_files(root: Path, leave_out: str = "", prefix: str = "") -> Iterator[Published]:
    """Every file under `root` (but `leave_out`), sorted by path, each path after `prefix`."""
    found: list[str] = []
    for folder, folders, files in os.walk(root):
        folders.sort()
        base = Path(folder).relative_to(root).as_posix()
        found.extend(name if base == "." else f"{base}/{name}" for name in files)
    for path in sorted(found):
        if path != leave_out and (root / path).is_file():
            yield (prefix + path, *sha256_file(root / path))


def tar_files(tar: Path, leave_out: str = "") -> Iterator[Published]:
    """Every regular member of the tar at `tar` (but `leave_out`), sorted by path. A tar cut short
    raises `tarfile.TarError`."""
    found: list[Published] = []
    with tarfile.open(tar, "r:") as archive:
        for member in archive:
            if not member.isfile() or member.name == leave_out:
                continue
            digest = hashlib.sha256()
            handle = archive.extractfile(member)
            assert handle is not None
            size = 0
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
            if size != member.size:
                raise tarfile.TarError(f"{member.name} is cut short")
            found.append((member.name.removeprefix("./"), digest.hexdigest(), size))
    yield from sorted(found)
