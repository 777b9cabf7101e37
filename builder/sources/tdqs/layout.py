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
from dataclasses import dataclass
from pathlib import Path

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


def discover(data_dir: Path) -> list[ServerFiles]:
    root = data_dir / SERVERS_DIR
    if not root.is_dir():
        return []
    found: list[ServerFiles] = []
    for folder in sorted(root.iterdir(), key=lambda p: p.name):
        if not folder.is_dir() or folder.is_symlink():
            continue
        scores: dict[str, Path] = {}
        tools: dict[str, Path] = {}
        strays: list[Path] = []
        meta: Path | None = None
        for path in sorted(folder.iterdir(), key=lambda p: p.name):
            if path.is_symlink() or not path.is_file():
                strays.append(path)
            elif path.name == SERVER_META:
                meta = path
            elif path.name.endswith(SCORE_SUFFIX):
                scores[path.name[: -len(SCORE_SUFFIX)]] = path
            elif path.name.endswith(TOOLS_SUFFIX):
                tools[path.name[: -len(TOOLS_SUFFIX)]] = path
            elif not path.name.startswith("."):
                strays.append(path)
        captures = tuple(
            CaptureFiles(capture_id=cid, score=scores.get(cid), tools=tools.get(cid))
            for cid in sorted(set(scores) | set(tools))
        )
        found.append(ServerFiles(folder.name, folder, meta, captures, tuple(strays)))
    return found


def capture_id_for(generated_at: str) -> str:
    """`2026-05-14T09:30:00.000Z` → `2026-05-14T09-30-00Z`: sortable and safe on every filesystem."""
    stamp = generated_at.split(".")[0].rstrip("Z")
    return stamp.replace(":", "-") + "Z"
