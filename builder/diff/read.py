"""A build to compare, wherever it is, and the API files two builds differ in.

A build is known by its manifest (builder.publish.manifest): it lists every published file with
the SHA-256 of its bytes. Two builds' manifests say which API files differ, so only those are
read (from a folder, a tar in one pass, or a URL one request each), and each is checked against
its manifest's digest: a registry of thousands whose pull request changes one server reads two
files. What a build grades is known by the API files each system publishes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder import urls
from builder.publish.manifest import Manifest, ManifestError, parse
from builder.urls import MANIFEST, manifest_part, manifest_part_file
from builder.verify.site import Site, Unreachable, open_site

SYSTEM_FILES = {"tdqs": "api/server-list.json", "flowmcp": urls.FLOWMCP_API, "cleo": urls.CLEO_SESSIONS_API}
"""The file each grading system publishes whenever a build has its data."""

TDQS_SERVERS = "api/servers/"
"""Where each TDQS server's API file is (`urls.server_api`)."""

DATA_NAMES = ("servers", "sessions", "grading-data", "scoring-reports", "index.json")
"""What a data folder holds at its top (and a build folder has a manifest instead)."""


class NotABuild(Exception):
    """BASE or HEAD cannot be compared: the message names it and says why, in one line."""


@dataclass(frozen=True)
class Build:
    """A build's manifest and where to read its files from."""

    name: str
    site: Site
    manifest: Manifest

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(system for system, path in SYSTEM_FILES.items() if path in self.manifest.files)

    @property
    def data_as_of(self) -> str | None:
        value = self.manifest.head.get("dataAsOf")
        return value if isinstance(value, str) else None

    def read(self, paths: Iterable[str]) -> dict[str, Any]:
        """The JSON of each of `paths`, each checked against the manifest's digest."""
        wanted = sorted(set(paths) & set(self.manifest.files))
        if not wanted:
            return {}
        try:
            found = self.site.read(wanted)
        except Unreachable as error:
            raise NotABuild(str(error)) from error
        documents: dict[str, Any] = {}
        for path in wanted:
            data = found.get(path)
            if data is None:
                raise NotABuild(f"{self.name}: {path}: listed in its manifest, missing")
            if hashlib.sha256(data).hexdigest() != self.manifest.files[path][0]:
                raise NotABuild(f"{self.name}: {path}: its bytes are not those its manifest lists")
            try:
                documents[path] = json.loads(data)
            except ValueError as error:
                raise NotABuild(f"{self.name}: {path}: not JSON ({error})") from error
        return documents


def looks_like_data(folder: Path) -> bool:
    """A folder without a manifest that holds what a data folder holds."""
    return not (folder / MANIFEST).exists() and any((folder / name).exists() for name in DATA_NAMES)


def _folders_read() -> list[str]:
    """The folders whose manifest parts list what diff reads (the API files)."""
    return sorted({manifest_part(path) for path in (*SYSTEM_FILES.values(), TDQS_SERVERS + "x.json")})


def _with_parts(source: str, site: Site, top: Manifest) -> Manifest:
    """The top manifest with the parts of the folders diff reads taken in, each checked against
    the top's digest of it (a part the top does not list has nothing to give)."""
    paths = [path for path in map(manifest_part_file, _folders_read()) if path in top.parts]
    try:
        found = site.read(paths)
    except Unreachable as error:
        raise NotABuild(str(error)) from error
    for path in paths:
        data = found.get(path)
        if data is None:
            raise NotABuild(f"{source}: {path}: a part its manifest lists, missing")
        if hashlib.sha256(data).hexdigest() != top.parts[path][0]:
            raise NotABuild(f"{source}: {path}: its bytes are not those its manifest lists")
        try:
            top.add(parse(data, manifest_part(path)))
        except ManifestError as error:
            raise NotABuild(f"{source}/{path}: {error}") from error
    return top


def open_build(source: str) -> Build:
    """The build at `source` (a folder, a .tar or an http(s) URL): `NotABuild` when it has no
    usable manifest. Its manifest holds the top's lines and those of the parts diff reads."""
    try:
        site = open_site(source)
        raw = site.manifest()
    except (ValueError, Unreachable) as error:
        raise NotABuild(str(error)) from error
    if raw is None:
        raise NotABuild(f"{source}: no {MANIFEST}: not a scorecards build (nor a data folder)")
    try:
        manifest = parse(raw)
    except ManifestError as error:
        raise NotABuild(f"{source}/{MANIFEST}: {error}") from error
    return Build(source, site, _with_parts(source, site, manifest))


def differing(base: Build, head: Build, prefix: str) -> list[str]:
    """The files under `prefix` that one build has and the other has not, or has other bytes of."""
    files = {path for path in (*base.manifest.files, *head.manifest.files) if path.startswith(prefix)}
    return sorted(path for path in files if base.manifest.files.get(path) != head.manifest.files.get(path))
