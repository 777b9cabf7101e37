"""The manifest every site publishes (`urls.MANIFEST`): what it was built from and what it holds.

It lets anyone check a published score (`scorecards verify`, builder.verify): every published file
(but itself) with the SHA-256 of its bytes, every input file of the data folder with its SHA-256
and, where it says when it was made (`generatedAt`), how many days before the data's as-of date,
the versions of scorecards, tdqs and each rubric, and the settings that change the output. One
JSON value a line, so it is read as a stream and a line cut short is seen:

    {"manifest": 1, "scorecards": …, "rubrics": {…}, "settings": {…}, "dataAsOf": …}   the header
    ["input", "servers/a/captures/x.json", "<sha256>", 2048, "2026-01-02T…", 3]   each input, by path
    ["file", "servers/a/index.html", "<sha256>", 5120]                            each file, by path
    {"end": {"inputs": 1, "files": 1}}                                           the trailer

Ages count from the data's as-of date, never the clock: the same data builds the same bytes. A
manifest without its trailer, or whose counts are not its rows', is cut short (`ManifestError`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from builder.running_wheel import DISTRIBUTION

VERSION = 1
RUBRICS = {"cleo": "CLEO-GRADE-SPEC 1.0.0", "flowmcp": "flowmcp/4"}
"""The rubric each grading system grades by, besides TDQS's (the installed tdqs' version)."""
CHUNK = 1 << 20


def sha256_file(path: Path) -> tuple[str, int]:
    """The SHA-256 of the file at `path` and its size, read a megabyte at a time."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


def header(settings: dict[str, Any], data_as_of: str | None) -> dict[str, Any]:
    """The manifest's first line: versions, settings and the data's as-of date."""
    tdqs = _version("tdqs")
    return {"manifest": VERSION, "scorecards": _version(DISTRIBUTION), "tdqs": tdqs,
            "rubrics": {"tdqs": tdqs, **RUBRICS}, "settings": settings, "dataAsOf": data_as_of}


@dataclass(frozen=True)
class Input:
    """An input file: its path in the data folder, SHA-256, size, and when it says it was made."""

    path: str
    sha256: str
    size: int
    generated_at: str | None = None

    def age_days(self, data_as_of: str | None) -> int | None:
        """Whole days from `generated_at` to `data_as_of` (None when either is unknown)."""
        made, as_of = _day(self.generated_at), _day(data_as_of)
        return None if made is None or as_of is None else (as_of - made).days


def _day(stamp: str | None) -> date | None:
    try:
        return date.fromisoformat(stamp[:10]) if stamp else None
    except ValueError:
        return None


def read_inputs(data_dir: Path) -> list[Input]:
    """Every file of the data folder (hidden names left out), sorted by path, each hashed; a JSON
    file's top-level `generatedAt` too, when it has one (a capture's, a report's)."""
    found: list[Input] = []
    for folder, folders, files in os.walk(data_dir):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in files:
            if name.startswith("."):
                continue
            path = Path(folder) / name
            if not path.is_file():
                continue
            digest, size = sha256_file(path)
            found.append(Input(path.relative_to(data_dir).as_posix(), digest, size, _generated_at(path)))
    return sorted(found, key=lambda i: i.path)


def _generated_at(path: Path) -> str | None:
    if path.suffix != ".json":
        return None
    try:
        value = json.loads(path.read_bytes()).get("generatedAt")
    except (ValueError, AttributeError, OSError):
        return None
    return value if isinstance(value, str) else None


def stale(inputs: Iterable[Input], data_as_of: str | None, days: int) -> list[tuple[str, Input, int]]:
    """Each folder of inputs whose newest dated input (`generatedAt`) is more than `days` days
    older than `data_as_of`, with that input and its age, by folder: a server whose newest capture
    is old, not every old capture of its history."""
    newest: dict[str, tuple[int, Input]] = {}
    for item in inputs:
        age = item.age_days(data_as_of)
        folder = item.path.rpartition("/")[0]
        if age is not None and (folder not in newest or age < newest[folder][0]):
            newest[folder] = (age, item)
    return [(folder, item, age) for folder, (age, item) in sorted(newest.items()) if age > days]


def lines(head: dict[str, Any], inputs: Iterable[Input], files: Iterable[tuple[str, str, int]]) -> Iterator[str]:
    """The manifest's lines: `head`, the inputs, the files (path, SHA-256, size; sorted), the trailer."""
    yield _dump(head)
    counts = {"inputs": 0, "files": 0}
    for item in inputs:
        counts["inputs"] += 1
        yield _dump(["input", item.path, item.sha256, item.size, item.generated_at,
                     item.age_days(head.get("dataAsOf"))])
    for path, digest, size in files:
        counts["files"] += 1
        yield _dump(["file", path, digest, size])
    yield _dump({"end": counts})


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


class ManifestError(Exception):
    """A manifest that is not whole: cut short, or not a scorecards manifest."""


@dataclass
class Manifest:
    """A manifest as read back (`parse`)."""

    head: dict[str, Any]
    inputs: dict[str, Input] = field(default_factory=dict)
    files: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each published file's SHA-256 and size, by path."""


def parse(data: bytes) -> Manifest:
    """Reads a manifest; `ManifestError` names the first line that is wrong, or that it was cut short."""
    text = data.decode("utf-8", errors="replace")
    rows = text.split("\n")
    if not text.endswith("\n"):
        raise ManifestError("it is cut short (its last line is not whole)")
    head = _load(rows[0], 1)
    if not isinstance(head, dict) or head.get("manifest") != VERSION:
        raise ManifestError(f"line 1 is not the header of a version {VERSION} scorecards manifest")
    manifest = Manifest(head)
    for number, line in enumerate(rows[1:-1], start=2):
        item = _load(line, number)
        if isinstance(item, dict) and set(item) == {"end"}:
            if number != len(rows) - 1:
                raise ManifestError(f"line {number}: lines follow its end")
            if item["end"] != {"inputs": len(manifest.inputs), "files": len(manifest.files)}:
                raise ManifestError(f"line {number}: it ends with counts that are not those of its lines")
            return manifest
        if isinstance(item, list) and len(item) == 6 and item[0] == "input":
            manifest.inputs[item[1]] = Input(item[1], item[2], item[3], item[4])
        elif isinstance(item, list) and len(item) == 4 and item[0] == "file":
            manifest.files[item[1]] = (item[2], item[3])
        else:
            raise ManifestError(f"line {number} is neither an input, a file nor the end")
    raise ManifestError("it is cut short (it has no end line)")


def _load(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        raise ManifestError(f"line {number} is not JSON (cut short?)") from None
