"""What a reader keeps between builds, beside the output (`.<output>.cache/`), so that a rebuild
reads again only what changed."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_CHECK = 16


class ReadCache:
    """Entries in one file each, named by a content key. For TDQS (builder.engine.records, builder.tdqs.pages.section)
    an entry is what reading one server gave, under the hash of everything its read depends on (its
    id and slug, its files' bytes, the name and kind of every stray in its folder: reader.folder_digest),
    the builder's code and templates, and the site settings: a rebuild reads only the servers whose key is not here.
    An entry carries its files' rows of the manifest (builder.sources.input_files): the key covers their bytes.
    Each entry carries a count (how many outputs it plans) that can be had without unpickling it,
    and a hash of its bytes: an entry that was cut short or damaged is read as missing."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def load(self, key: str) -> tuple[int, bytes] | None:
        try:
            data = (self.folder / f"{key}.entry").read_bytes()
        except OSError:
            return None
        check, count, entry = data[:_CHECK], data[_CHECK : _CHECK + 4], data[_CHECK + 4 :]
        if len(count) < 4 or hashlib.sha256(count + entry).digest()[:_CHECK] != check:
            return None
        return int.from_bytes(count, "little"), entry

    def store(self, key: str, count: int, entry: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        temporary = self.folder / f".{key}.{os.getpid()}.tmp"
        data = count.to_bytes(4, "little") + entry
        temporary.write_bytes(hashlib.sha256(data).digest()[:_CHECK] + data)
        os.replace(temporary, self.folder / f"{key}.entry")

    def keep_only(self, keys: set[str]) -> None:
        """Removes the entries of servers that are gone or changed."""
        if not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            if path.name.removesuffix(".entry") not in keys:
                path.unlink(missing_ok=True)
