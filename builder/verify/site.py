"""A site to verify, wherever it is: a folder, a tar (a GitHub Pages artifact) or a URL.

Each gives its top manifest's bytes (None when it has none), its parts' bytes (`read`) and its files' digests, read the same way
the build read them (builder.engine.published). Over HTTP nothing lists a site's files: only those
the manifest lists are fetched (a 404 is a missing file), so an extra file cannot be seen there.
"""

from __future__ import annotations

import hashlib
import tarfile
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

from builder.engine.published import Published, folder_files, tar_files
from builder.urls import MANIFEST

TIMEOUT = 30
"""Seconds a URL has to answer."""


class Unreachable(Exception):
    """The site could not be read: a URL that does not answer, a tar that is not one."""


class Site:
    name: str

    def manifest(self) -> bytes | None:
        return self.read([MANIFEST]).get(MANIFEST)

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:  # pragma: no cover - abstract
        """The bytes of each of `paths` that the site has (the manifest's parts)."""
        raise NotImplementedError

    def files(self, listed: Iterable[str]) -> Iterator[Published]:  # pragma: no cover - abstract
        """Every file of the site but the manifest (over HTTP: those of `listed` that answer)."""
        raise NotImplementedError


class FolderSite(Site):
    def __init__(self, root: Path) -> None:
        self.root, self.name = root, str(root)

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        return {path: (self.root / path).read_bytes() for path in paths if (self.root / path).is_file()}

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        return folder_files(self.root, MANIFEST)


class TarSite(Site):
    def __init__(self, tar: Path) -> None:
        self.tar, self.name = tar, str(tar)
        self._members: dict[str, tuple[int, int]] | None = None
        """Where each file member's bytes are (offset, size): the tar's headers are read once, and
        every later read seeks (a registry's tar has hundreds of thousands of members)."""

    def _index(self) -> dict[str, tuple[int, int]]:
        if self._members is None:
            members = {}
            try:
                with tarfile.open(self.tar, "r:") as archive:
                    for member in archive:
                        if member.isfile():
                            members[member.name.removeprefix("./")] = (member.offset_data, member.size)
            except (tarfile.TarError, OSError) as error:
                raise Unreachable(f"{self.name}: not a readable tar ({error})") from error
            self._members = members
        return self._members

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        index, found = self._index(), {}
        try:
            with open(self.tar, "rb") as file:
                for name in sorted(set(paths) & index.keys()):
                    offset, size = index[name]
                    file.seek(offset)
                    found[name] = file.read(size)
        except OSError as error:
            raise Unreachable(f"{self.name}: not a readable tar ({error})") from error
        return found

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        try:
            yield from tar_files(self.tar, MANIFEST)
        except (tarfile.TarError, OSError) as error:
            raise Unreachable(f"{self.name}: not a readable tar ({error})") from error


class UrlSite(Site):
    def __init__(self, url: str) -> None:
        self.base = url if url.endswith("/") else url + "/"
        self.name = self.base

    def _get(self, path: str) -> bytes | None:
        """The bytes at `path` under the site; None on a 404."""
        url = self.base + quote(path)
        try:
            with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
                return bytes(answer.read())
        except urllib.error.HTTPError as error:
            if error.code in (404, 410):
                return None
            raise Unreachable(f"{url}: HTTP {error.code} {error.reason}") from error
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise Unreachable(f"{url}: did not answer ({reason})") from error

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        return {path: data for path in sorted(paths) if (data := self._get(path)) is not None}

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        for path in sorted(listed):
            data = self._get(path)
            if data is not None:
                yield path, hashlib.sha256(data).hexdigest(), len(data)


def open_site(source: str) -> Site:
    """The site at `source`: an http(s) URL, a tar file or a folder. ValueError when it is none."""
    if urlsplit(source).scheme in ("http", "https"):
        return UrlSite(source)
    path = Path(source)
    if path.is_dir():
        return FolderSite(path)
    if path.is_file():
        return TarSite(path)
    raise ValueError(f"site not found: {source} (give a folder, a .tar or an http(s) URL)")
