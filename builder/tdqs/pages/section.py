"""Reading the TDQS part of a data directory for a build: every server read, summarised and
planned — its own pages listed — where it was read.

With more than one worker (a build's default on a machine with several cores: the number of
workers is the build's only knob) the servers are read by forked workers (builder.engine.owners):
each returns the summaries of the servers it read, its problems and the badges its pages use, and
later renders those servers' pages (`Owned` outputs) once the build knows the site-wide values. The
build's process keeps no summary: it appends each server's rows, search document and index.json
entry to its spool and gathers the few values needed before the store is loaded (`_take_summary`).
A worker does not hold the servers it read until it renders them: that grew its memory with the
corpus (gigabytes at registry scale). It reads each server's files again when it renders its pages
(`_Outputs`), which costs about a tenth of rendering them. With one worker
(`workers=1`, for debugging and for tests that render the outputs themselves) the servers are read
the same way in the build's own process, which holds their pages as ordinary outputs. Either way
the parent's corpus-wide outputs are made from the store and what was taken of the summaries, so
both give the same site.

`system()` is the section's entry for `builder.systems.all_systems()`.

Workers also keep each server's entry (summary, plan, problems) in a `ReadCache` under a key made
of the server's files, the builder's code and the settings: a rebuild reads only the servers whose
files changed.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from builder.config import SiteConfig
from builder.engine.grading_system import GradingSystem, ReadContext
from builder.engine.heap import settle
from builder.engine.incremental import code_key, content_key
from builder.engine.owners import Owners
from builder.engine.problems import Problem, ProblemLog
from builder.engine.read_cache import ReadCache
from builder.engine.render import Renderer
from builder.engine.search import SearchDoc
from builder.newest import Newest
from builder.pages.page import DataFile, Owned, Page
from builder.publish.badges import Badge, BadgeSet
from builder.publish.feeds import MAX_ENTRIES, FeedEntry, entry_order
from builder.sources.datafolder import kind, report_skipped
from builder.sources.jsonfile import read_json
from builder.store.spool import Spool
from builder.store.tables import load_file
from builder.tdqs import layout
from builder.tdqs.pages import outputs as section_outputs
from builder.tdqs.pages.outputs import server_outputs
from builder.tdqs.pages.publish import CHANGES_SHOWN, ChangeRow, change_order, change_rows, server_entries
from builder.tdqs.pages.summary import ServerSummary, search_doc, summarise
from builder.tdqs.pages.unscored import (
    UnscoredSummary,
    unscored_search_doc,
    unscored_server_outputs,
    unscored_summary,
)
from builder.tdqs.reader import (
    STAND_IN_PREFIX,
    SYSTEM,
    Server,
    folder_digest,
    read_server,
    report_clashes,
)
from builder.tdqs.registry_index import compare_index
from builder.tdqs.store import CAPTURE_COLUMNS, SERVER_COLUMNS, TOOL_COLUMNS, ServerRows, server_rows
from builder.tdqs.unscored import UnscoredServer, read_unscored_server

CHUNK = 100
"""Servers per task handed to a worker."""


ROW_TABLES = ("tdqs_servers", "tdqs_captures", "tdqs_tools")
ROW_COLUMNS = (SERVER_COLUMNS, CAPTURE_COLUMNS, TOOL_COLUMNS)
"""The spool's files of DuckDB rows, in the order of `ServerRows`."""
SEARCH_DOCS = "search-docs"
"""The spool's file of search documents: [path, rendered HTML] a line."""
INDEX_ENTRIES = "index-entries"
"""The spool's file of index.json entries: [server id, the entry as JSON] a line."""


@dataclass
class TdqsSection:
    outputs: list[Page | DataFile | Owned]
    """Each server's own pages and files: ordinary outputs, or `Owned` by the worker that read it."""
    badges: BadgeSet
    owners: Owners | None
    spool: Spool
    """Each server's DuckDB rows and search document, appended as they were read (builder.store.spool)."""
    unscored: list[UnscoredSummary] = field(default_factory=list)
    """Servers captured but without a usable score: a row in the list and a "not scored yet" page."""
    changes: Newest[ChangeRow] = field(default_factory=lambda: Newest(CHANGES_SHOWN, change_order))
    """The newest changes of every server's, for the changes page."""
    feed: Newest[FeedEntry] = field(default_factory=lambda: Newest(MAX_ENTRIES, entry_order))
    """The newest entries of every server's feed, for the site feed."""
    server_count: int = 0
    """Scored servers read. Their summaries are not kept: what the corpus-wide pages show of each
    server they query from the store, and what is needed before it is loaded is gathered here."""
    all_models: set[str] = field(default_factory=set)
    """The model of every capture ('' where a capture names none)."""
    all_spec_versions: set[str] = field(default_factory=set)
    newest: str | None = None
    """The newest capture's generatedAt, over every server."""

    def index_entries(self) -> Iterator[tuple[str, str]]:
        """Every scored server's id and index.json entry as JSON (`index_entry_json`), in
        data-folder order (asked for before `load`, which removes the spool)."""
        for record in self.spool.records(INDEX_ENTRIES):
            server_id, entry = record
            yield server_id, entry

    def search_docs(self) -> Iterator[SearchDoc]:
        """Every server's search document, rendered, in data-folder order (asked for before `load`,
        which removes the spool)."""
        if not self.spool.folder.exists():
            raise RuntimeError("the search documents are asked for after the section was loaded")
        for path, html in self.spool.records(SEARCH_DOCS):
            yield SearchDoc(path, "", None, html)

    def load(self, con: duckdb.DuckDBPyConnection) -> None:
        """The tables tdqs_servers, tdqs_captures and tdqs_tools, from the spool; then the spool is
        removed (the build's cache keeps only what the next build uses)."""
        for table, columns in zip(ROW_TABLES, ROW_COLUMNS, strict=True):
            load_file(con, table, columns, self.spool.path(table), self.spool.longest.get(table, 0))
        self.spool.remove()

    @property
    def models(self) -> list[str]:
        return sorted(self.all_models - {""})

    @property
    def spec_versions(self) -> list[str]:
        return sorted(self.all_spec_versions)

    @property
    def stand_in_models(self) -> list[str]:
        return [model for model in self.models if model.startswith(STAND_IN_PREFIX)]

    @property
    def data_as_of(self) -> str | None:
        return self.newest


@dataclass(frozen=True)
class _Chunk:
    start: int
    """Where the chunk's outputs begin in the reader's list of outputs."""
    keys: list[str]
    """Each server's cache key."""
    entries: list[bytes]
    """Each server's `_Entry`, pickled: what the parent needs of it (and what the cache keeps)."""


@dataclass(frozen=True)
class _Entry:
    """What the build's process takes of a server read, pickled by the worker that read it (and
    kept by the read cache). The process keeps the summary, appends the rows and the search
    document to its spool, and keeps only the newest changes and feed entries of all servers'."""

    summary: ServerSummary | UnscoredSummary | None
    """An UnscoredSummary when the server has no usable score; None when it is no server at all."""
    rows: ServerRows | None
    """Its DuckDB rows, when scored."""
    search: tuple[str, str] | None
    """Its search document: path, rendered HTML."""
    changes: list[ChangeRow]
    feed: list[FeedEntry]
    planned: list[tuple[str, str | None, bool]]
    """Its outputs: path, key, whether it is a page."""
    log: ProblemLog
    """The problems its files raised."""
    badges: dict[str, Badge]
    """The badges its pages show."""


def _problems_by_file(log: ProblemLog) -> dict[str, list[Problem]]:
    """As the build's problems table returns them: by file, then JSON path and reason as text."""
    grouped: dict[str, list[Problem]] = {}
    for problem in sorted(log.problems, key=lambda p: (p.file, p.json_path, p.reason)):
        grouped.setdefault(problem.file, []).append(problem)
    return grouped


@dataclass(frozen=True)
class _Reading:
    """What reading a server needs besides its files."""

    data_dir: Path
    config: SiteConfig
    code: str
    """builder.engine.incremental.code_key() with the site settings: part of every cache key (empty when
    there is no cache)."""
    cache: Path | None
    """Where each server's entry is kept between builds, under its content key (`ReadCache`)."""
    hold: bool
    """Whether the outputs of a server read are held until they are rendered: in the build's own
    process, for a small corpus, yes; in a worker, no (`_Outputs`)."""


def _outputs_of(files: layout.ServerFiles, digest: str, reading: _Reading, log: ProblemLog,
                badges: BadgeSet) -> tuple[Server | UnscoredServer | None, list[Page | DataFile]]:
    server = read_server(files, reading.data_dir, log, digest)
    if server is None:
        unscored = read_unscored_server(files, reading.data_dir, log, digest)
        return (unscored, list(unscored_server_outputs(unscored))) if unscored is not None else (None, [])
    return server, list(server_outputs(server, _problems_by_file(log), reading.config, badges))


def _read_one(files: layout.ServerFiles, digest: str, reading: _Reading, renderer: Renderer
              ) -> tuple[bytes, list[Page | DataFile]]:
    log = ProblemLog()
    badges = BadgeSet()
    server, outputs = _outputs_of(files, digest, reading, log, badges)
    summary: ServerSummary | UnscoredSummary | None = None
    rows: ServerRows | None = None
    doc: SearchDoc | None = None
    changes: list[ChangeRow] = []
    feed: list[FeedEntry] = []
    if isinstance(server, UnscoredServer):
        summary, doc = unscored_summary(server), unscored_search_doc(server)
    elif server is not None:
        summary, rows = summarise(server), server_rows(server)
        doc = search_doc(server, summary.scores)
        changes, feed = change_rows(server), server_entries(server)
    # Rendered here, on the worker's core: the search document depends on the server alone.
    search = (doc.path, renderer.render_string(doc.template, doc=doc.context)) if doc is not None else None
    planned = [(o.path, o.key, isinstance(o, Page)) for o in outputs]
    entry = _Entry(summary, rows, search, changes, feed, planned, log, badges.used())
    return pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL), outputs


@dataclass(frozen=True)
class _Deferred:
    """The outputs of one server, not held: made again from its files when one of them is asked
    for (to render it, or because the previous build cannot lend it)."""

    files: layout.ServerFiles
    digest: str
    reading: _Reading
    start: int
    count: int


class _Outputs(list):  # type: ignore[type-arg]
    """A worker's outputs. A worker holds no server it read: every server's outputs are
    `_Deferred`, and only the server whose outputs were asked for last is made again and held, so
    a worker's memory does not grow with the servers it read. Outputs are rendered in the order
    they were planned, so each server is read again once (a tenth of what rendering its pages
    costs), and a cached server is read only if one of its pages must be rendered after all."""

    def __init__(self) -> None:
        super().__init__()
        self._made: tuple[int, list[Page | DataFile]] = (-1, [])
        """The server's outputs asked for last: where they begin, and them."""

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        if not isinstance(item, _Deferred):
            return item
        if self._made[0] != item.start:
            _, made = _outputs_of(item.files, item.digest, item.reading, ProblemLog(), BadgeSet())
            if len(made) != item.count:
                raise RuntimeError(f"{item.files.folder}: the cached plan does not match the data")
            self._made = (item.start, made)
        return self._made[1][index - item.start]


def _read_chunk(state: dict[str, Any], argument: tuple[_Reading, list[layout.ServerFiles]]) -> _Chunk:
    """Reads (or takes from the cache), summarises and plans some servers; their outputs stay in
    `state`."""
    reading, found = argument
    outputs: _Outputs = state.setdefault("outputs", _Outputs())
    renderer: Renderer = state.setdefault("renderer", Renderer(reading.config, {}))
    cache = ReadCache(reading.cache) if reading.cache is not None else None
    start = len(outputs)
    keys, entries = [], []
    for files in found:
        digest = folder_digest(files)
        key = content_key(reading.code, digest)
        cached = cache.load(key) if cache is not None else None
        if cached is not None:
            count, entry = cached
        else:
            entry, made = _read_one(files, digest, reading, renderer)
            count = len(made)
            if cache is not None:
                cache.store(key, count, entry)
        if cached is None and reading.hold:
            outputs.extend(made)
        else:
            outputs.extend([_Deferred(files, digest, reading, len(outputs), count)] * count)
        keys.append(key)
        entries.append(entry)
    return _Chunk(start, keys, entries)


def _take_in(section: TdqsSection, log: ProblemLog, results: Iterable[tuple[int, _Chunk]]) -> set[str]:
    """Takes each chunk's entries into `section` (and, for a worker's, plans them as `Owned`);
    returns the cache keys seen."""
    keys: set[str] = set()
    for owner, chunk in results:
        position = chunk.start
        keys.update(chunk.keys)
        for data in chunk.entries:
            entry: _Entry = pickle.loads(data)
            summary, planned = entry.summary, entry.planned
            if entry.rows is not None:
                for table, encoded in zip(ROW_TABLES, entry.rows, strict=True):
                    section.spool.append(table, encoded)
            if entry.search is not None:
                section.spool.append_json(SEARCH_DOCS, entry.search)
            section.changes.add(entry.changes)
            section.feed.add(entry.feed)
            log.merge(entry.log)
            section.badges.add(entry.badges)
            if isinstance(summary, UnscoredSummary):
                section.unscored.append(summary)
            elif summary is not None:
                _take_summary(section, summary)
            if owner >= 0:
                section.outputs.extend(
                    Owned(path, key, page, owner, position + offset) for offset, (path, key, page) in enumerate(planned)
                )
            position += len(planned)
        settle()  # the outputs planned are kept to the end of the build (builder.engine.heap)
    return keys


def _take_summary(section: TdqsSection, summary: ServerSummary) -> None:
    """Takes in what the build needs of a scored server's summary before the store is loaded; the
    summary itself is not kept (fifteen thousand of them were a tenth of the build's memory)."""
    section.server_count += 1
    section.all_models.update(summary.models)
    section.all_spec_versions.update(summary.spec_versions)
    section.newest = summary.newest if section.newest is None else max(section.newest, summary.newest)
    section.spool.append_json(INDEX_ENTRIES, [summary.server_id, summary.index_entry])


def _spool(cache: Path | None) -> Spool:
    """In the build's cache; without one (a build planned in memory, as tests do), in a temporary
    folder removed with the spool."""
    if cache is not None:
        return Spool(cache / "tdqs-spool")
    scratch = Path(tempfile.mkdtemp(prefix="scorecards-spool-"))
    spool = Spool(scratch / "spool")
    weakref.finalize(spool, shutil.rmtree, scratch, True)
    return spool


def read_section(data_dir: Path, log: ProblemLog, config: SiteConfig, cache: Path | None = None, workers: int = 1
                 ) -> TdqsSection | None:
    """`cache`: the build's cache folder, where each server's entry is kept for the next build
    (when the corpus is read by workers); `workers`: how many processes read it (1: this one)."""
    skipped: list[Path] = []
    found = layout.discover(data_dir, skipped)
    report_skipped(skipped, data_dir, SYSTEM, log)
    report_clashes(found, data_dir, log)
    index_path = data_dir / layout.INDEX_FILE
    if not found and kind(index_path) == "missing":
        return None
    owned = workers > 1
    folder = cache / "tdqs-servers" if cache is not None and owned else None
    code = content_key(code_key(), config.model_dump_json()) if folder is not None else ""
    reading = _Reading(data_dir, config, code, folder, hold=not owned)
    chunks = [(reading, found[i : i + CHUNK]) for i in range(0, len(found), CHUNK)]
    section = TdqsSection([], BadgeSet(), None, _spool(cache))
    if owned:
        section.owners = Owners(workers)
        section.owners.planned = section.outputs  # filled by _take_in: all Owned
        try:
            # The workers go on reading while the first chunks are taken in here.
            keys = _take_in(section, log, section.owners.share(_read_chunk, chunks))
        except BaseException:
            section.owners.close()
            raise
    else:
        state: dict[str, Any] = {}
        keys = _take_in(section, log, [(-1, _read_chunk(state, chunk)) for chunk in chunks])
        section.outputs = list(state.get("outputs", []))
    section.spool.finish()
    if folder is not None:
        ReadCache(folder).keep_only(keys)
    stored_index = read_json(index_path, data_dir, SYSTEM, log) if kind(index_path) != "missing" else None
    compare_index(stored_index, section.index_entries(), log)
    return section


def read(context: ReadContext) -> TdqsSection | None:
    return read_section(context.data_dir, context.log, context.config, context.cache, context.workers)


def system() -> GradingSystem:
    return GradingSystem(
        key=SYSTEM,
        read=read,
        load=lambda con, section: section.load(con),
        outputs=section_outputs.outputs,
        nav=section_outputs.nav,
        stand_in_models=lambda section: section.stand_in_models,
        data_as_of=lambda section: section.data_as_of,
        page_dates=section_outputs.page_dates,
        owners=lambda section: section.owners,
        search_docs=lambda section: section.search_docs(),
        indexes_pages=False,
    )
