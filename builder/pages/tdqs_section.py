"""Reading the TDQS part of a data directory for a build: every server read, summarised and
planned — its own pages listed — where it was read.

A registry (`OWNED_FROM` servers or more, on a machine with several cores) is read by forked
workers (builder.owners): each keeps the servers it read, with their pages, and returns their
summaries, its problems and the badges its pages use. The build later asks each worker to render
its servers' pages (`Owned` outputs). A small corpus is read the same way in the build's own
process, whose pages are then ordinary outputs. Either way the parent's corpus-wide outputs are
made from the summaries alone, so both give the same site.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from builder.config import SiteConfig
from builder.owners import Owners
from builder.pages.page import DataFile, Owned, Page
from builder.pages.tdqs import server_outputs
from builder.pages.tdqs_summary import ServerSummary, summarise
from builder.problems import Problem, ProblemLog
from builder.publish.badges import Badge, BadgeSet
from builder.render import Renderer
from builder.sources.jsonfile import read_json
from builder.sources.tdqs import layout
from builder.sources.tdqs.reader import STAND_IN_PREFIX, SYSTEM, read_server
from builder.sources.tdqs.registry_index import compare_index

OWNED_FROM = 400
"""Below this many servers, forking readers costs more than it saves."""
CHUNK = 100
"""Servers per task handed to a worker."""


@dataclass
class TdqsSection:
    summaries: list[ServerSummary]
    """Every server read, in data-folder order."""
    outputs: list[Page | DataFile | Owned]
    """Each server's own pages and files: ordinary outputs, or `Owned` by the worker that read it."""
    badges: BadgeSet
    owners: Owners | None

    @property
    def models(self) -> list[str]:
        return sorted({model for s in self.summaries for model in s.models} - {""})

    @property
    def stand_in_models(self) -> list[str]:
        return [model for model in self.models if model.startswith(STAND_IN_PREFIX)]

    @property
    def data_as_of(self) -> str | None:
        return max((s.newest for s in self.summaries), default=None)


@dataclass(frozen=True)
class _Chunk:
    start: int
    """Where the chunk's outputs begin in the reader's list of outputs."""
    summaries: list[ServerSummary]
    outputs: list[tuple[str, str | None, bool]]
    """(path, key, is a page) of each output, in the reader's order."""
    log: ProblemLog
    badges: dict[str, Badge]


def _problems_by_file(log: ProblemLog) -> dict[str, list[Problem]]:
    """As the build's problems table returns them: by file, then JSON path and reason as text."""
    grouped: dict[str, list[Problem]] = {}
    for problem in sorted(log.problems, key=lambda p: (p.file, p.json_path, p.reason)):
        grouped.setdefault(problem.file, []).append(problem)
    return grouped


def _read_chunk(state: dict[str, Any], argument: tuple[Path, SiteConfig, list[layout.ServerFiles]]) -> _Chunk:
    """Reads, summarises and plans some servers; their outputs stay in `state`."""
    data_dir, config, found = argument
    log = ProblemLog()
    outputs: list[Page | DataFile] = state.setdefault("outputs", [])
    badges: BadgeSet = state.setdefault("badges", BadgeSet())
    before = badges.used()
    start = len(outputs)
    servers = [server for files in found if (server := read_server(files, data_dir, log)) is not None]
    problems = _problems_by_file(log)
    renderer: Renderer = state.setdefault("renderer", Renderer(config, {}))
    summaries = []
    for server in servers:
        summary = summarise(server)
        doc = summary.search
        # Rendered here, on the worker's core: the search document depends on the server alone.
        html = renderer.render_string(doc.template, doc=doc.context)
        summaries.append(replace(summary, search=replace(doc, context=None, html=html)))
        outputs.extend(server_outputs(server, problems, config, badges))
    planned = [(o.path, o.key, isinstance(o, Page)) for o in outputs[start:]]
    fresh = {path: badge for path, badge in badges.used().items() if path not in before}
    return _Chunk(start, summaries, planned, log, fresh)


def read_section(data_dir: Path, log: ProblemLog, config: SiteConfig) -> TdqsSection | None:
    found = layout.discover(data_dir)
    index_path = data_dir / layout.INDEX_FILE
    if not found and not index_path.exists():
        return None
    workers = os.cpu_count() or 1
    chunks = [(data_dir, config, found[i : i + CHUNK]) for i in range(0, len(found), CHUNK)]
    section = TdqsSection([], [], BadgeSet(), None)
    if workers > 1 and len(found) >= OWNED_FROM:
        section.owners = Owners(workers)
        results = section.owners.share(_read_chunk, chunks)
        section.owners.planned = section.outputs  # filled below: all Owned
    else:
        state: dict[str, Any] = {}
        results = [(-1, _read_chunk(state, chunk)) for chunk in chunks]
        section.outputs = state.get("outputs", [])
    for owner, chunk in results:
        log.merge(chunk.log)
        section.badges.add(chunk.badges)
        section.summaries.extend(chunk.summaries)
        if owner >= 0:
            section.outputs.extend(
                Owned(path, key, page, owner, chunk.start + offset)
                for offset, (path, key, page) in enumerate(chunk.outputs)
            )
    stored_index = read_json(index_path, data_dir, SYSTEM, log) if index_path.exists() else None
    compare_index(stored_index, [s.index_entry for s in section.summaries], log)
    return section
