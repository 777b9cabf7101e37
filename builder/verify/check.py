"""A site against its manifest: the top, then each part against the top, then each file against its part.

The top manifest lists each part by its SHA-256 (builder.publish.manifest), so a part is trusted
only when its bytes are those the top lists: a part missing or changed is named, and the files of
its folder are not checked against it (nothing says what they should be). A part the top does not
list is a file it does not list: named as extra, and so is each file of its folder.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from builder.publish.manifest import Manifest, ManifestError, parse
from builder.urls import MANIFEST, manifest_part, manifest_part_file
from builder.verify import compare
from builder.verify.compare import Finding
from builder.verify.site import Site


class PartError(ManifestError):
    """A part whose bytes are those the top lists but that is no manifest part: `path` says which."""

    def __init__(self, path: str, error: ManifestError) -> None:
        super().__init__(str(error))
        self.path = path


@dataclass
class Checked:
    """What `check` found: the whole manifest (the top with every part it could trust taken in,
    each part among its files) and each finding."""

    manifest: Manifest
    findings: list[Finding] = field(default_factory=list)
    untrusted: set[str] = field(default_factory=set)
    """The folders whose part is missing or changed: their files are not checked."""


def whole(site: Site, top: bytes, only: str | None = None) -> Checked:
    """The top manifest `top` and every part it lists (`only`: the part of that folder alone, and
    none of the top's own files), read from `site` and checked against the top. `ManifestError`
    when the top is not whole, or lists no part for `only`; `PartError` when a part that is the
    one listed is not."""
    manifest = parse(top)
    if only is not None:
        manifest.files.clear()
        manifest.inputs.clear()
        manifest.parts = {p: e for p, e in manifest.parts.items() if p == manifest_part_file(only)}
        if not manifest.parts:
            raise ManifestError(f"it lists no part for {only} (a folder of the site: servers/<id>/, api/ …)")
    findings: list[Finding] = []
    untrusted: set[str] = set()
    found = site.read(manifest.parts)
    for path, listed in sorted(manifest.parts.items()):
        data = found.get(path)
        if data is None or (hashlib.sha256(data).hexdigest(), len(data)) != listed:
            findings.append(("missing" if data is None else "differs", path))
            untrusted.add(manifest_part(path))
            continue
        try:
            manifest.add(parse(data, manifest_part(path)))
        except ManifestError as error:
            raise PartError(path, error) from None
    manifest.files.update(manifest.parts)  # a part is a published file too, as the top lists it
    return Checked(manifest, findings, untrusted)


def check(site: Site, top: bytes, only: str | None = None) -> Checked:
    """Every file of `site` against its manifest (`top`, the top's bytes, and its parts): each file
    that differs, is missing or is extra, and each part, sorted by path. `only`: the files of that
    folder of the site alone (`servers/<id>/`), against its part."""
    checked = whole(site, top, only)
    manifest, untrusted = checked.manifest, checked.untrusted
    listed = {path: entry for path, entry in manifest.files.items() if path not in manifest.parts}
    found = ((path, digest, size) for path, digest, size in site.files(listed)
             if path != MANIFEST and path not in manifest.parts and manifest_part(path) not in untrusted
             and (only is None or manifest_part(path) == only))
    findings = checked.findings + compare.files(listed, found)
    checked.findings = sorted(findings, key=lambda f: (f[1], f[0]))
    return checked
