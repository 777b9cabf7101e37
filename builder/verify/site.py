"""A site to verify, wherever it is: a folder, a tar (a GitHub Pages artifact) or a URL.

Each gives its manifest's bytes (None when it has none) and its files' digests, read the same way
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

    def manifest(self) -> bytes | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def files(self, listed: Iterable[str]) -> Iterator[Published]:  # pragma: no cover - abstract
        """Every file of the site but the manifest (over HTTP: those of `listed` that answer)."""
        raise NotImplementedError

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:  # pragma: no cover - abstract
        """The bytes of each of `paths` the site has (`scorecards diff` reads only the files that differ)."""
        raise NotImplementedError


class FolderSite(Site):
    def __init__(self, root: Path) -> None:
        self.root, self.name = root, str(root)

    def manifest(self) -> bytes | None:
        path = self.root / MANIFEST
        return path.read_bytes() if path.is_file() else None

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        return folder_files(self.root, MANIFEST)

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        found = {}
        for path in paths:
            file = self.root / path
            if file.is_file():
                found[path] = file.read_bytes()
        return found


class TarSite(Site):
    def __init__(self, tar: Path) -> None:
        self.tar, self.name = tar, str(tar)
        self._members: dict[str, tuple[int, int]] = {}
        """Where each file member's bytes are (offset, size), as far as `manifest` read the tar."""
        self._indexed = False
        """Whether `_members` lists every member (the manifest is the last: a scorecards tar's is)."""

    def manifest(self) -> bytes | None:
        try:
            with tarfile.open(self.tar, "r:") as archive:
                for member in archive:
                    if not member.isfile():
                        continue
                    name = member.name.removeprefix("./")
                    self._members[name] = (member.offset_data, member.size)
                    if name == MANIFEST:
                        self._indexed = archive.next() is None
                        handle = archive.extractfile(member)
                        return handle.read() if handle is not None else None
        except (tarfile.TarError, OSError) as error:
            raise Unreachable(f"{self.name}: not a readable tar ({error})") from error
        return None

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        try:
            yield from tar_files(self.tar, MANIFEST)
        except (tarfile.TarError, OSError) as error:
            raise Unreachable(f"{self.name}: not a readable tar ({error})") from error

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The members asked for: read where `manifest` saw them when it read the whole tar (no second
        pass over a registry's tens of thousands of headers), else in one pass."""
        wanted, found = set(paths), {}
        if self._indexed:
            try:
                with open(self.tar, "rb") as file:
                    for name in sorted(wanted & set(self._members)):
                        offset, size = self._members[name]
                        file.seek(offset)
                        found[name] = file.read(size)
            except OSError as error:
                raise Unreachable(f"{self.name}: not a readable tar ({error})") from error
            return found
        try:
            with tarfile.open(self.tar, "r:") as archive:
                for member in archive:
                    name = member.name.removeprefix("./")
                    if member.isfile() and name in wanted:
                        handle = archive.extractfile(member)
                        if handle is not None:
                            found[name] = handle.read()
                        if len(found) == len(wanted):
                            break
        except (tarfile.TarError, OSError) as error:
            raise Unreachable(f"{self.name}: not a readable tar ({error})") from error
        return found


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

    def manifest(self) -> bytes | None:
        return self._get(MANIFEST)

    def files(self, listed: Iterable[str]) -> Iterator[Published]:
        for path in sorted(listed):
            data = self._get(path)
            if data is not None:
                yield path, hashlib.sha256(data).hexdigest(), len(data)

    def read(self, paths: Iterable[str]) -> dict[str, bytes]:
        found = {}
        for path in sorted(paths):
            data = self._get(path)
            if data is not None:
                found[path] = data
        return found


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
