"""The record protocol: how every grading system's inputs are read, the same way for all.

A system describes its inputs (`RecordSystem`): it discovers its sources (small, picklable: a
server's folder, a file), reads one source into a record (problems logged, never raised), and says
what a record contributes (`Contribution`): its DuckDB rows, its search document, the outputs it
plans for itself and the small values the build's process gathers (`Gathering`). Everything else
is the engine's, here: the chunks, the read cache (builder.engine.read_cache), the spool
(builder.store.spool), handing the chunks to worker processes (builder.engine.workers) and taking
their contributions in (`_take_in`), and the rows of the outputs the workers hold
(builder.engine.plan.OwnedRows).

Each source is read once per build. A worker that read a source keeps what rendering its outputs
needs on its own disk (`_OutputStore`: the outputs, their contexts resolved, pickled and appended
to a per-worker file) and renders from there, so its memory does not grow with what it read. A
source taken from the read cache was not read in this build: should one of its outputs be rendered
after all, it is read then (`_Deferred`).

With one worker (or for a system whose records plan no outputs of their own: their pages are
corpus-wide, planned from the gathered values and the store) the sources are read in the build's
own process by the same functions, which then holds the outputs as ordinary outputs.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

import duckdb

from builder.config import SiteConfig
from builder.engine import batches, model_pickle
from builder.engine.heap import paused
from builder.engine.incremental import code_key, content_key, read_cache_folder, spool_folder
from builder.engine.plan import OwnedRows
from builder.engine.problems import ProblemLog
from builder.engine.read_cache import ReadCache
from builder.engine.render import Renderer
from builder.engine.search import SearchDoc
from builder.engine.workers import Workers
from builder.pages.page import DataFile, Output, Page
from builder.sources import input_files
from builder.sources.input_files import Input
from builder.store.spool import Spool
from builder.store.tables import load_file

SEARCH_DOCS = "search-docs"
"""The spool's file of search documents: [path, rendered HTML] a line."""


@dataclass(frozen=True)
class ReadContext:
    """What reading a system's inputs is given."""

    data_dir: Path
    log: ProblemLog
    """Where the problems of the files read are logged (never raised)."""
    config: SiteConfig
    """The site settings: a system's records may plan their own pages as they are read (TDQS's do)."""
    cache: Path | None = None
    """The build's cache folder (None when there is none), where what was read is kept for the
    next build."""
    workers: int = 1
    """How many processes may read the corpus (and later render what they read); 1: this one."""


@dataclass(frozen=True)
class Table:
    """A DuckDB table a system's records contribute rows to, as JSON Lines."""

    name: str
    columns: dict[str, str]


@dataclass(frozen=True)
class Contribution:
    """What one record gives the build."""

    rows: tuple[bytes, ...] = ()
    """JSON Lines for each of the system's `tables`, in their order."""
    search: SearchDoc | None = None
    """Its search document (rendered by the engine where the record was read)."""
    outputs: list[Page | DataFile] = field(default_factory=list)
    """The outputs it plans for itself (rendered by the worker that read it)."""
    gathered: Any = None
    """The small values the build's process takes in (`Gathering.take`); picklable."""


class Gathering:
    """What the build's process gathers of a system's contributions, as they come in."""

    def take(self, gathered: Any, spool: Spool) -> None:
        """Takes in one record's `Contribution.gathered` (in the sources' order); may append to
        the spool."""

    def finish(self, context: ReadContext, outputs: list[Output], spool: Spool) -> Any | None:
        """Once every record is taken in: the system's corpus, as its pages read it (None: the
        system has nothing to show after all). `outputs`: those the records planned."""
        return None


S = TypeVar("S")
R = TypeVar("R")


class RecordSystem(Generic[S, R]):
    """How a grading system's inputs are read. Subclasses describe; the engine reads."""

    name: str = ""
    """Names the system's spool and read cache in the build's cache folder."""
    tables: tuple[Table, ...] = ()
    chunk: int = 100
    """Sources per task handed to a worker."""
    shaping: tuple[str, ...] = ()
    """The installed distributions, besides the engine's (builder.engine.incremental.SHAPING), whose
    version can change what its records and pages are (a reference scorer and its rubric): in every
    cache key of a build that reads it."""
    plans_outputs: bool = False
    """Whether its records plan outputs of their own: then, with more than one worker, workers read
    them and hold those outputs (a system whose pages are all corpus-wide is read in the build's
    process)."""

    def discover(self, data_dir: Path, log: ProblemLog) -> list[S] | None:
        """Its sources, in data-folder order; None when the data folder has none of its data."""
        raise NotImplementedError

    def digest(self, source: S) -> str:
        """A hash of everything reading `source` depends on (the read cache's key)."""
        raise NotImplementedError

    def read(self, source: S, data_dir: Path, log: ProblemLog, digest: str | None) -> R | None:
        """The source's record (None when there is none); problems logged, never raised."""
        raise NotImplementedError

    def contribute(self, record: R | None, log: ProblemLog, config: SiteConfig) -> Contribution:
        """What the record gives the build; `log`: the problems its source raised."""
        raise NotImplementedError

    def gathering(self) -> Gathering:
        raise NotImplementedError


@dataclass
class Records:
    """A system's inputs, read (`read_records`)."""

    corpus: Any
    """What the system's pages read (`Gathering.finish`)."""
    outputs: list[Output]
    """What its records planned that this process holds (with one worker: all of them)."""
    owned: OwnedRows | None
    """What its records planned that the workers which read them hold, as rows on disk."""
    tables: tuple[Table, ...]
    spool: Spool
    """Each record's DuckDB rows and search document, appended as they were read."""
    owners: Workers | None
    """The workers that hold `owned`: both are set, or neither."""
    inputs: Iterable[Input] = ()
    """Each file of the data folder its sources read, as the manifest lists it (read once:
    builder.sources.input_files): kept on disk (`InputLog`), asked for once, at the end."""

    def search_docs(self) -> Iterator[tuple[str, str]]:
        """Every record's search document, rendered, in the sources' order: its page's path and its
        HTML (asked for once, before `close`, which removes the spool)."""
        if SEARCH_DOCS not in self.spool.longest:
            return
        if not self.spool.folder.exists():
            raise RuntimeError("the search documents are asked for after the records were closed")
        yield from self.spool.records(SEARCH_DOCS)

    def load(self, con: duckdb.DuckDBPyConnection) -> None:
        """The records' tables, from the spool; each table's file is removed once loaded."""
        self.spool.finish()
        for table in self.tables:
            path = self.spool.path(table.name)
            load_file(con, table.name, table.columns, path, self.spool.longest.get(table.name, 0))
            path.unlink(missing_ok=True)

    def close(self) -> None:
        """Ends the workers that hold the records' outputs, if any, and removes the spool."""
        if self.owners is not None:
            self.owners.close()
        self.spool.remove()


@dataclass(frozen=True)
class _Reading:
    """What reading a source needs besides the source, handed to the workers."""

    system: RecordSystem[Any, Any]
    data_dir: Path
    config: SiteConfig
    code: str
    """builder.engine.incremental.code_key() with the site settings: part of every cache key (empty when
    there is no cache)."""
    cache: Path | None
    """Where each source's entry is kept between builds, under its content key (`ReadCache`)."""
    spill: Path | None
    """Where a worker keeps the outputs it planned (`_OutputStore`); None: they are held."""


@dataclass(frozen=True)
class _Entry:
    """What the build's process takes of a source read, pickled where it was read (and kept by
    the read cache)."""

    rows: tuple[bytes, ...]
    search: tuple[str, str] | None
    """Its search document: path, rendered HTML."""
    planned: list[tuple[str, str | None, bool]]
    """Its outputs: path, key, whether it is a page."""
    log: ProblemLog
    gathered: Any
    inputs: tuple[Input, ...] = ()
    """The files of the data folder the source read, as the manifest lists them (the read cache's
    key covers their bytes, so a cached entry's are still right)."""


@dataclass(frozen=True)
class _Chunk:
    start: int
    """Where the chunk's outputs begin in the reader's list of outputs."""
    keys: list[str]
    """Each source's cache key."""
    entries: list[bytes]
    """Each source's `_Entry`, pickled."""


def read_source(system: RecordSystem[S, R], source: S, data_dir: Path, config: SiteConfig, digest: str | None,
                renderer: Renderer | None) -> tuple[_Entry, list[Page | DataFile]]:
    """Reads one source and takes its contribution: the only place a source is read. `renderer`
    renders its search document; None for a source read again for its outputs alone (`_Deferred`),
    whose entry is not taken in."""
    log = ProblemLog()
    record = system.read(source, data_dir, log, digest)
    contribution = system.contribute(record, log, config)
    doc = contribution.search
    search = None
    if doc is not None and renderer is not None:
        search = (doc.path, renderer.render_string(doc.template, doc=doc.context))
    planned = [(o.path, o.key, isinstance(o, Page)) for o in contribution.outputs]
    return _Entry(contribution.rows, search, planned, log, contribution.gathered), contribution.outputs


def _resolved(output: Page | DataFile) -> Page | DataFile:
    """The output with what it is made from computed: picklable (no closures), and what rendering needs."""
    if isinstance(output, Page):
        return Page(output.path, output.template, output.resolved(), output.key)
    return DataFile(output.path, output.data(), output.key)


class _OutputStore:
    """A worker's file of the outputs it planned, each source's appended as one pickle. Anonymous
    (removed from its folder as it is made): the disk is freed when the worker ends."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._file: IO[bytes] = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 (lives with the worker)
        self._end = 0

    def append(self, outputs: list[Page | DataFile]) -> tuple[int, int]:
        data = model_pickle.dumps([_resolved(o) for o in outputs])
        self._file.seek(self._end)
        self._file.write(data)
        offset, self._end = self._end, self._end + len(data)
        return offset, len(data)

    def load(self, offset: int, length: int) -> list[Page | DataFile]:
        self._file.seek(offset)
        data = self._file.read(length)
        # Unpickling makes many objects at once: the collector's walks of them cost more than
        # the unpickling (they are short-lived and hold no cycles).
        with paused():
            loaded: list[Page | DataFile] = pickle.loads(data)
        return loaded


@dataclass(frozen=True)
class _Stored:
    """The outputs of one source, on the worker's disk."""

    store: _OutputStore
    offset: int
    length: int
    start: int


@dataclass(frozen=True)
class _Deferred:
    """The outputs of one source taken from the read cache: read when one of them is asked for."""

    source: Any
    digest: str
    reading: _Reading
    start: int
    count: int


class _Outputs(list):  # type: ignore[type-arg]
    """A worker's outputs: every source's `_Stored` or `_Deferred`, so a worker's memory does not
    grow with the sources it read; only the source whose outputs were asked for last is held.
    Outputs are rendered in the order they were planned, so each source's are loaded once."""

    def __init__(self) -> None:
        super().__init__()
        self._made: tuple[int, list[Page | DataFile]] = (-1, [])

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        if not isinstance(item, _Stored | _Deferred):
            return item
        if self._made[0] != item.start:
            if isinstance(item, _Stored):
                made = item.store.load(item.offset, item.length)
            else:
                reading = item.reading
                _, made = read_source(reading.system, item.source, reading.data_dir, reading.config,
                                      item.digest, None)
                if len(made) != item.count:
                    raise RuntimeError(f"{item.source}: the cached plan does not match the data")
            self._made = (item.start, made)
        return self._made[1][index - item.start]


@paused()
def _read_chunk(state: dict[str, Any], argument: tuple[_Reading, list[Any]]) -> _Chunk:
    """Reads (or takes from the cache) some sources; their outputs stay in `state`. The collector
    is paused meanwhile (builder.engine.heap): a chunk's objects are short-lived, and its automatic
    collections cost about 0.5 ms a server."""
    reading, sources = argument
    system = reading.system
    outputs: _Outputs = state.setdefault("outputs", _Outputs())
    renderer: Renderer = state.setdefault("renderer", Renderer(reading.config, {}))
    cache = ReadCache(reading.cache) if reading.cache is not None else None
    store: _OutputStore | None = None
    if reading.spill is not None:
        store = state.get("store")
        if store is None:
            store = state["store"] = _OutputStore(reading.spill)
    start = len(outputs)
    keys, entries = [], []
    for source in sources:
        # Each file is read once: hashing the source for its key reads its files, and reading it
        # takes the bytes held (builder.sources.input_files).
        with input_files.reading(reading.data_dir) as reads:
            digest = system.digest(source) if cache is not None else None
            key = content_key(reading.code, digest) if digest is not None else ""
            cached = cache.load(key) if cache is not None else None
            if cached is None or digest is None:
                entry, made = read_source(system, source, reading.data_dir, reading.config, digest, renderer)
                entry = replace(entry, inputs=reads.inputs())
        if cached is not None and digest is not None:
            count, data = cached
            outputs.extend([_Deferred(source, digest, reading, len(outputs), count)] * count)
        else:
            data = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
            if cache is not None:
                cache.store(key, len(made), data)
            if store is None:
                outputs.extend(made)
            elif made:
                offset, length = store.append(made)
                outputs.extend([_Stored(store, offset, length, len(outputs))] * len(made))
        keys.append(key)
        entries.append(data)
    return _Chunk(start, keys, entries)


class InputLog:
    """The input files a system's sources read (builder.sources.input_files), on disk as they come,
    in batches (builder.engine.batches): a registry reads 60,000, which the build's process would
    otherwise hold from the read to the manifest, written last. An anonymous file: it outlives the
    spool's folder, and goes with this object."""

    def __init__(self, folder: Path) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 - closed with the object
        self._batch: list[tuple[str, str, int, str | None]] = []

    def extend(self, items: Iterable[Input]) -> None:
        self._batch.extend((i.path, i.sha256, i.size, i.generated_at) for i in items)
        if len(self._batch) >= batches.BATCH:
            self._flush()

    def _flush(self) -> None:
        self._file.seek(0, 2)
        batches.write(self._file, self._batch)
        self._batch = []

    def __iter__(self) -> Iterator[Input]:
        self._flush()
        self._file.seek(0)
        for path, sha256, size, generated_at in batches.read(self._file):
            yield Input(path, sha256, size, generated_at)


def _take_in(system: RecordSystem[Any, Any], gathering: Gathering, spool: Spool, owned: OwnedRows | None,
             log: ProblemLog, results: Iterable[tuple[int, _Chunk]], inputs: InputLog) -> set[str]:
    """Takes each chunk's entries in (and, for a worker's, adds the outputs it holds to `owned`;
    the files each read, to `inputs`); returns the cache keys seen."""
    keys: set[str] = set()
    for owner, chunk in results:
        position = chunk.start
        keys.update(chunk.keys)
        for data in chunk.entries:
            entry: _Entry = pickle.loads(data)
            for table, encoded in zip(system.tables, entry.rows, strict=False):
                spool.append(table.name, encoded)
            if entry.search is not None:
                spool.append_json(SEARCH_DOCS, entry.search)
            log.merge(entry.log)
            gathering.take(entry.gathered, spool)
            inputs.extend(entry.inputs)
            if owner >= 0 and owned is not None:
                owned.add([(path, key, page, owner, position + offset)
                           for offset, (path, key, page) in enumerate(entry.planned)])
            position += len(entry.planned)
    return keys


def _spool(cache: Path | None, name: str) -> Spool:
    """In the build's cache; without one (a build planned in memory, as tests do), in a temporary
    folder removed with the spool."""
    if cache is not None:
        return Spool(spool_folder(cache, name))
    scratch = Path(tempfile.mkdtemp(prefix="scorecards-spool-"))
    spool = Spool(scratch / "spool")
    weakref.finalize(spool, shutil.rmtree, scratch, True)
    return spool


def read_records(system: RecordSystem[Any, Any], context: ReadContext) -> Records | None:
    """Reads a system's sources; None when the data folder has none of its data. With more than
    one worker, a system whose records plan outputs is read by forked workers that keep them."""
    sources = system.discover(context.data_dir, context.log)
    if sources is None:
        return None
    owned = context.workers > 1 and system.plans_outputs
    cache = context.cache
    folder = read_cache_folder(cache, system.name) if cache is not None and owned else None
    code = content_key(code_key(system.shaping), context.config.model_dump_json()) if folder is not None else ""
    spill = (cache if cache is not None else Path(tempfile.gettempdir())) if owned else None
    reading = _Reading(system, context.data_dir, context.config, code, folder, spill)
    chunks = [(reading, sources[i : i + system.chunk]) for i in range(0, len(sources), system.chunk)]
    spool = _spool(cache, system.name)
    gathering = system.gathering()
    inputs = InputLog(spool.folder)
    owners = Workers(context.workers) if owned else None
    held_by_workers = OwnedRows(spool.folder / "owned") if owned else None
    state: dict[str, Any] = {}  # what reading in this process keeps, as a worker keeps its own
    records: Records | None = None
    try:
        # The workers go on reading while the first chunks are taken in here; or each chunk is read here.
        results = (owners.share(_read_chunk, chunks) if owners is not None
                   else ((-1, _read_chunk(state, chunk)) for chunk in chunks))
        keys = _take_in(system, gathering, spool, held_by_workers, context.log, results, inputs)
        outputs: list[Output] = list(state.get("outputs", []))
        spool.finish()
        if folder is not None:
            ReadCache(folder).keep_only(keys)
        with input_files.reading(context.data_dir) as reads:  # what finishing reads (TDQS: index.json)
            corpus = gathering.finish(context, outputs, spool)
        inputs.extend(reads.inputs())
        if corpus is not None:
            if held_by_workers is not None:
                held_by_workers.finish()
            records = Records(corpus, outputs, held_by_workers, system.tables, spool, owners, inputs)
    finally:
        # Failed (a full disk, a bug) or nothing to build: the workers end now, whatever step it was
        # (they hold the output's lock, and a pool left running races the interpreter's exit), and
        # the spool goes.
        if records is None:
            if owners is not None:
                owners.close()
            spool.remove()
    return records
