"""What differs between a site and its manifest, or between two manifests: one finding a path.

Both sides come sorted by path or as maps, so the findings come sorted by path, each once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Finding = tuple[str, str]
"""A kind (a key of builder.verify.CODES) and the path it is about."""


def files(listed: Mapping[str, tuple[str, int]], found: Iterable[tuple[str, str, int]]) -> list[Finding]:
    """The files `found` against those `listed` (path → SHA-256, size): each that differs, each
    listed and not found (missing), each found and not listed (extra)."""
    seen: set[str] = set()
    findings: list[Finding] = []
    for path, digest, size in found:
        seen.add(path)
        if path not in listed:
            findings.append(("extra", path))
        elif listed[path] != (digest, size):
            findings.append(("differs", path))
    findings.extend(("missing", path) for path in listed if path not in seen)
    return sorted(findings, key=lambda f: (f[1], f[0]))


def maps(published: Mapping[str, object], rebuilt: Mapping[str, object]) -> list[tuple[str, str]]:
    """The paths whose entries differ between two maps: 'differs', 'only-published', 'only-rebuilt'."""
    found = [("differs", p) for p in published if p in rebuilt and published[p] != rebuilt[p]]
    found += [("only-published", p) for p in published if p not in rebuilt]
    found += [("only-rebuilt", p) for p in rebuilt if p not in published]
    return sorted(found, key=lambda f: (f[1], f[0]))
