"""Where TDQS files live in the data directory, and how their names are read.

```
servers/<server-id>/server.json                 optional: display name, description, links
servers/<server-id>/<capture-id>.score.json     a ScoreReport as `tdqs score --format json` writes it
servers/<server-id>/<capture-id>.tools.json     optional: the tools/list result that was scored
index.json                                      the registry rollup, rebuilt by `scorecards index`
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from builder.sources.datafolder import entry_kind, kind, listing, skip_reason
from builder.urls import distinct_slugs

SERVERS_DIR = "servers"
INDEX_FILE = "index.json"
SERVER_META = "server.json"
SCORE_SUFFIX = ".score.json"
TOOLS_SUFFIX = ".tools.json"
SERVER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


@dataclass(frozen=True)
class CaptureFiles:
    capture_id: str
    score: Path | None
    tools: Path | None


@dataclass(frozen=True)
class ServerFiles:
    server_id: str
    folder: Path
    meta: Path | None
    captures: tuple[CaptureFiles, ...]
    """Sorted by capture id; the reader orders them by the reports' own timestamps."""
    strays: tuple[Path, ...]
    """Files in the folder that are none of the above, reported rather than ignored."""
    slug: str = ""
    """The server's path segment, distinct among the folders found (`urls.distinct_slugs`)."""


def discover(data_dir: Path, skipped: list[Path] | None = None) -> list[ServerFiles]:
    """Every server folder with its files. Listed with `os.scandir`, whose entries know their own
    type, so a registry's hundreds of thousands of files are not each asked with `stat`. No link
    is followed (builder.sources.datafolder): a linked or special `servers/` or server folder is
    added to `skipped`; one inside a server folder is among its strays."""
    root = data_dir / SERVERS_DIR
    skipped = [] if skipped is None else skipped
    found_kind = kind(root)
    if found_kind != "folder":
        if skip_reason(found_kind):
            skipped.append(root)
        return []
    found: list[ServerFiles] = []
    for folder_entry in listing(root):
        folder_kind = entry_kind(folder_entry)
        if folder_kind != "folder":
            if skip_reason(folder_kind):
                skipped.append(root / folder_entry.name)
            continue
        folder = root / folder_entry.name
        scores: dict[str, Path] = {}
        tools: dict[str, Path] = {}
        strays: list[Path] = []
        meta: Path | None = None
        for entry in listing(folder):
            name = entry.name
            path = folder / name
            if entry_kind(entry) != "file":
                strays.append(path)
            elif name == SERVER_META:
                meta = path
            elif name.endswith(SCORE_SUFFIX):
                scores[name[: -len(SCORE_SUFFIX)]] = path
            elif name.endswith(TOOLS_SUFFIX):
                tools[name[: -len(TOOLS_SUFFIX)]] = path
            elif not name.startswith("."):
                strays.append(path)
        captures = tuple(
            CaptureFiles(capture_id=cid, score=scores.get(cid), tools=tools.get(cid))
            for cid in sorted(set(scores) | set(tools))
        )
        found.append(ServerFiles(folder_entry.name, folder, meta, captures, tuple(strays)))
    slugs = distinct_slugs(files.server_id for files in found)
    return [replace(files, slug=slugs[files.server_id]) for files in found]


def capture_id_for(generated_at: str) -> str:
    """`2026-05-14T09:30:00.000Z` → `2026-05-14T09-30-00Z`: sortable and safe on every filesystem."""
    stamp = generated_at.split(".")[0].rstrip("Z")
    return stamp.replace(":", "-") + "Z"
