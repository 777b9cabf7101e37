"""A server folder with captures but no usable score is still a server: it gets a "not scored yet"
page and a row in the list, with the reason, never an absence.

`read_server` leaves such a folder out of the scored corpus, since there is nothing to grade. This
reads what the folder does have (its server.json and its newest readable tools/list) and says why
there is no score: only a tools/list was captured, or every score file was rejected (the reasons
are the problems those files raised, already in the server's log).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder.engine.problems import ProblemLog
from builder.sources.jsonfile import relative_name
from builder.tdqs import layout
from builder.tdqs.models import ServerMeta
from builder.tdqs.reader import Definition, _read_definitions, _read_meta, _stamp, folder_digest
from builder.urls import distinct_slugs, slug

MAX_REASONS = 3
"""Rejected score files named in the reason; the data problems page lists them all."""


@dataclass(frozen=True)
class UnscoredServer:
    server_id: str
    slug: str
    meta: ServerMeta
    reason: str
    captured_at: str
    """When the newest capture (a score file or a tools/list) was made, from its capture id."""
    tools_capture: str | None
    """The capture id of the newest readable tools/list, when there is one."""
    tools: dict[str, Definition]
    """That tools/list: every tool in it is a tool without a score."""
    tool_slugs: dict[str, str]
    digest: str

    @property
    def display_name(self) -> str:
        return self.meta.display_name or self.server_id


def _reason(server_files: layout.ServerFiles, data_dir: Path, log: ProblemLog) -> str:
    scores = [relative_name(c.score, data_dir) for c in server_files.captures if c.score is not None]
    if not scores:
        return "only a tools/list has been captured; it has not been scored yet"
    rejected = []
    for name in scores[-MAX_REASONS:]:
        reason = next((p.reason for p in log.problems if p.file == name and p.severity == "error"), None)
        rejected.append(f"{name}: {reason}" if reason else name)
    more = f" (and {len(scores) - MAX_REASONS} more)" if len(scores) > MAX_REASONS else ""
    what = "the only score capture was" if len(scores) == 1 else f"all {len(scores)} score captures were"
    return f"{what} rejected{more}: " + "; ".join(rejected)


def read_unscored_server(
    server_files: layout.ServerFiles, data_dir: Path, log: ProblemLog, digest: str | None = None
) -> UnscoredServer | None:
    """The folder as an unscored server, or None when it holds no capture at all (or is not a
    server folder). Call it only where `read_server` returned None: it reads the files again
    into a scratch log, so their problems are not counted twice."""
    if not server_files.captures or not layout.SERVER_ID.match(server_files.server_id):
        return None
    scratch = ProblemLog()
    meta = _read_meta(server_files, data_dir, scratch)
    tools: dict[str, Definition] = {}
    tools_capture = None
    for files in reversed(server_files.captures):
        if files.tools is not None and (found := _read_definitions(files.tools, data_dir, scratch)):
            tools, tools_capture = found, files.capture_id
            break
    return UnscoredServer(
        server_id=server_files.server_id,
        slug=server_files.slug or slug(server_files.server_id),
        meta=meta,
        reason=_reason(server_files, data_dir, log),
        captured_at=max(_stamp(c.capture_id) for c in server_files.captures),
        tools_capture=tools_capture,
        tools=tools,
        tool_slugs=distinct_slugs(tools),
        digest=digest or folder_digest(server_files),
    )
