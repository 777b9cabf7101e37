"""A warning on each data file whose capture changed a score or added a server, so a pull request shows
it on that file.

The same workflow command `scorecards check` writes for a problem (builder.annotations):
`::warning file=data/servers/x/….score.json,title=…::…`, its properties and message escaped as the
runner unescapes them. The file is the head build's capture, named relative to the repository root.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from builder.annotations import escape_data, escape_property, in_github_actions
from builder.diff.model import Finding, ScoreMove, TdqsDiff, ToolSeen, delta_text, score_text


def _what(changes: TdqsDiff, server_id: str) -> str:
    """What changed for one server, in a few words."""
    parts = []
    for move in changes.tiers:
        if move.server.id == server_id:
            parts.append(f"tier {move.before or 'none'} → {move.after or 'none'}")
    for score in changes.overall:
        if score.server.id == server_id:
            parts.append(f"overall {score_text(score.before)} → {score_text(score.after)} ({delta_text(score.delta)})")
    counts: list[tuple[Sequence[ScoreMove | ToolSeen | Finding], str]] = [(changes.tools, "tool scores changed"), (changes.tools_added, "tools newly scored"),
              (changes.tools_removed, "tools no longer scored"), (changes.new_smells, "new smells"),
              (changes.new_flags, "new flags")]
    for items, label in counts:
        count = sum(1 for item in items if item.server.id == server_id)
        if count:
            parts.append(f"{count} {label}")
    if any(move.server.id == server_id for move in changes.coverage):
        parts.append("coverage crossed 80%")
    return "; ".join(parts) or "scores changed"


def diff_annotations(changes: TdqsDiff | None, data: Path, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The annotation lines when running on GitHub Actions (the repository root is
    `GITHUB_WORKSPACE`, else the current folder); none anywhere else, nor for a server whose file
    the data folder does not have."""
    if changes is None or not in_github_actions(environ):
        return []
    root = Path(environ.get("GITHUB_WORKSPACE") or os.getcwd())
    said = [(server, f"Score change: {server.id}", _what(changes, server.id)) for server in changes.changed]
    said += [(seen.server, f"New server: {seen.server.id}",
              f"tier {seen.tier or 'none'}, overall {score_text(seen.score)}, {seen.tools} tools")
             for seen in changes.added]
    lines = []
    for server, title, what in said:
        if server.file is None or not (data / server.file).is_file():
            continue
        path = Path(os.path.relpath(os.path.abspath(data / server.file), os.path.abspath(root))).as_posix()
        message = f"{server.name} ({server.id}): {what}"
        lines.append(f"::warning file={escape_property(path)},title={escape_property(title)}::{escape_data(message)}")
    return lines
