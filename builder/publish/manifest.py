"""The manifest every site publishes: what it was built from and what it holds, in two levels.

It lets anyone check a published score (`scorecards verify`, builder.verify). A registry's site
has hundreds of thousands of files, and a SHA-256 does not compress: listed in one file they weigh
tens of megabytes. So the manifest is a tree of two levels (as a Merkle tree is), and who checks one
server fetches the top and that server's part only:

- the top, `manifest.jsonl` at the site's root (`urls.MANIFEST`): the versions of scorecards, tdqs
  and each rubric, the settings that change the output, the data's as-of date, the files and
  inputs at the top of the site and of the data folder, and each *part* by its SHA-256;
- a part, `manifest.jsonl` inside a folder of the site (`urls.manifest_part`: each server's folder
  `servers/<id>/`, and each other top-level folder): every published file under that folder with
  the SHA-256 of its bytes, and every input file under the data folder's folder of the same name
  with its SHA-256 and, where it says when it was made (`generatedAt`), how many days before the
  data's as-of date.

One JSON value a line, so each is read as a stream and a line cut short is seen:

    {"manifest": 2, "scorecards": …, "rubrics": {…}, "settings": {…}, "dataAsOf": …}   the top's header
    ["input", "index.json", "<sha256>", 2048, null, null]                        each input, by path
    ["part", "servers/a/manifest.jsonl", "<sha256>", 912]                        each part, by path
    ["file", "index.html", "<sha256>", 5120]                                     each file, by path
    {"end": {"files": 1, "inputs": 1, "parts": 1}}                               the trailer

    {"manifest": 2, "part": "servers/a/"}                                         a part's header
    ["input", "servers/a/x.score.json", "<sha256>", 2048, "2026-01-02T…", 3]
    ["file", "servers/a/index.html", "<sha256>", 5120]
    {"end": {"files": 1, "inputs": 1}}

No manifest lists itself or another part but through the top. Ages count from the data's as-of
date, never the clock: the same data builds the same bytes. A manifest without its trailer, or
whose counts are not its rows', is cut short (`ManifestError`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from builder.running_wheel import DISTRIBUTION
from builder.sources.input_files import Input, generated_at, named_at
from builder.urls import manifest_part, manifest_part_file

VERSION = 2
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


def input_paths(data_dir: Path) -> list[str]:
    """Every file of the data folder (hidden names left out), relative to it, sorted."""
    found: list[str] = []
    for folder, folders, files in os.walk(data_dir):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        base = Path(folder)
        found.extend((base / name).relative_to(data_dir).as_posix() for name in files
                     if not name.startswith(".") and (base / name).is_file())
    return sorted(found)


def read_inputs(data_dir: Path, read: Iterable[Input] = ()) -> list[Input]:
    """Every file of the data folder (`input_paths`), each hashed, with when it says it was made
    (`input_files.generated_at`). `read`: what the build's readers read of it
    (builder.sources.input_files), taken as they read it; only the other files are read here."""
    known = {item.path: item for item in read}
    found: list[Input] = []
    for relative in input_paths(data_dir):
        item = known.get(relative)
        found.append(item if item is not None else _read_input(data_dir, relative))
    return found


def part_files(paths: Iterable[str]) -> set[str]:
    """Where the parts that list `paths` (of the site, or of the data folder) are published."""
    return {manifest_part_file(folder) for folder in {manifest_part(path) for path in paths} if folder}


def _read_input(data_dir: Path, relative: str) -> Input:
    """The manifest's row for a file no reader read: a JSON file read whole (its `generatedAt`),
    any other hashed a megabyte at a time (its date is in its name, if anywhere)."""
    path = data_dir / relative
    if path.suffix != ".json":
        return Input(relative, *sha256_file(path), named_at(relative))
    raw = path.read_bytes()
    return Input(relative, hashlib.sha256(raw).hexdigest(), len(raw), generated_at(relative, raw))


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


Published = tuple[str, str, int]
"""A published file: its path in the site, the SHA-256 of its bytes, its size."""


def files_and_parts(head: dict[str, Any], inputs: Iterable[Input], files: Iterable[Published]
                    ) -> Iterator[tuple[str, str]]:
    """The manifest: each part (where it goes, its text), the top last. `files`: every published
    file but the manifest's, sorted by path, read as a stream: a server's part is made as soon as
    its files have gone by; the top-level folders' parts (whose files other parts' come between:
    `servers/a/…`, `servers/index.html`, `servers/b/…`), and those of inputs only, at the end."""
    as_of = head.get("dataAsOf")
    waiting: dict[str, list[Input]] = {}
    for item in inputs:
        waiting.setdefault(manifest_part(item.path), []).append(item)
    made: list[Published] = []
    later: dict[str, list[Published]] = {}
    current = ""
    rows: list[Published] = []
    for row in files:
        folder = manifest_part(row[0])
        if folder.count("/") < 2:  # the top's, or a top-level folder's
            later.setdefault(folder, []).append(row)
            continue
        if folder != current and rows:
            yield _part(current, waiting.pop(current, []), rows, as_of, made)
            rows = []
        current = folder
        rows.append(row)
    if rows:
        yield _part(current, waiting.pop(current, []), rows, as_of, made)
    for folder in sorted({*later, *waiting} - {""}):
        yield _part(folder, waiting.pop(folder, []), later.pop(folder, []), as_of, made)
    yield manifest_part_file(""), _lines(head, waiting.get("", []), sorted(made), later.get("", []))


def _part(folder: str, inputs: list[Input], files: list[Published], as_of: str | None, made: list[Published]
          ) -> tuple[str, str]:
    """A part's path and text; its path, SHA-256 and size appended to `made`."""
    text = _lines({"manifest": VERSION, "part": folder}, inputs, [], files, as_of)
    data = text.encode("utf-8")
    path = manifest_part_file(folder)
    made.append((path, hashlib.sha256(data).hexdigest(), len(data)))
    return path, text


def _lines(head: dict[str, Any], inputs: Iterable[Input], parts: Iterable[Published], files: Iterable[Published],
           as_of: str | None = None) -> str:
    """A manifest's text: `head`, the inputs, the parts, the files, the trailer (counts of each)."""
    as_of = head.get("dataAsOf", as_of)
    out = [_dump(head)]
    counts = {"inputs": 0, "files": 0} if "part" in head else {"inputs": 0, "parts": 0, "files": 0}
    for item in inputs:
        counts["inputs"] += 1
        out.append(_dump(["input", item.path, item.sha256, item.size, item.generated_at, item.age_days(as_of)]))
    for path, digest, size in parts:
        counts["parts"] += 1
        out.append(_dump(["part", path, digest, size]))
    for path, digest, size in files:
        counts["files"] += 1
        out.append(_dump(["file", path, digest, size]))
    out.append(_dump({"end": counts}))
    return "".join(out)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


class ManifestError(Exception):
    """A manifest that is not whole: cut short, or not a scorecards manifest (or part)."""


@dataclass
class Manifest:
    """A manifest as read back (`parse`): the top's, or a part's, or the whole (`add`)."""

    head: dict[str, Any]
    inputs: dict[str, Input] = field(default_factory=dict)
    files: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each published file's SHA-256 and size, by path."""
    parts: dict[str, tuple[str, int]] = field(default_factory=dict)
    """The top's: each part's SHA-256 and size, by path."""

    def add(self, part: Manifest) -> None:
        """Takes in what a part lists."""
        self.inputs.update(part.inputs)
        self.files.update(part.files)


def parse(data: bytes, part: str | None = None) -> Manifest:
    """Reads the top manifest (`part` None) or the part of the folder `part`; `ManifestError`
    names the first line that is wrong, or that it was cut short."""
    text = data.decode("utf-8", errors="replace")
    rows = text.split("\n")
    if not text.endswith("\n"):
        raise ManifestError("it is cut short (its last line is not whole)")
    head = _load(rows[0], 1)
    if part is None and (not isinstance(head, dict) or head.get("manifest") != VERSION or "part" in head):
        raise ManifestError(f"line 1 is not the header of a version {VERSION} scorecards manifest")
    if part is not None and head != {"manifest": VERSION, "part": part}:
        raise ManifestError(f"line 1 is not the header of the version {VERSION} manifest part of {part}")
    manifest = Manifest(head)
    for number, line in enumerate(rows[1:-1], start=2):
        item = _load(line, number)
        if isinstance(item, dict) and set(item) == {"end"}:
            if number != len(rows) - 1:
                raise ManifestError(f"line {number}: lines follow its end")
            counts = {"inputs": len(manifest.inputs), "files": len(manifest.files)}
            if part is None:
                counts["parts"] = len(manifest.parts)
            if item["end"] != counts:
                raise ManifestError(f"line {number}: it ends with counts that are not those of its lines")
            return manifest
        if isinstance(item, list) and len(item) == 6 and item[0] == "input" and _within(item[1], part):
            manifest.inputs[item[1]] = Input(item[1], item[2], item[3], item[4])
        elif isinstance(item, list) and len(item) == 4 and item[0] == "file" and _within(item[1], part):
            manifest.files[item[1]] = (item[2], item[3])
        elif (part is None and isinstance(item, list) and len(item) == 4 and item[0] == "part"
              and isinstance(item[1], str) and is_part(item[1])):
            manifest.parts[item[1]] = (item[2], item[3])
        else:
            raise ManifestError(f"line {number} is neither an input, {'' if part else 'a part, '}a file nor the end")
    raise ManifestError("it is cut short (it has no end line)")


def is_part(path: str) -> bool:
    """`path` is where a part is published (not the top's)."""
    folder = manifest_part(path)
    names = path.split("/")
    return bool(folder) and manifest_part_file(folder) == path and not {".", ".."} & set(names)


def _within(path: Any, part: str | None) -> bool:
    """A path the manifest (the top: `part` None) or part may list: its own, not another part's."""
    return isinstance(path, str) and manifest_part(path) == (part or "")


def _load(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        raise ManifestError(f"line {number} is not JSON (cut short?)") from None
