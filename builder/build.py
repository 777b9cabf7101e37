"""The build, in two phases.

1. Read every grading system's files (problems are logged, never raised), load the records into
   DuckDB, and build every output: each page with its typed context, each data file. Output
   paths are checked to be unique and safe before anything is written.
2. Render each page and write everything through one writer into a staging folder beside the
   output, then swap it into place. A failed or interrupted build leaves the previous site whole.
   An output named `*.tar` is written as a GitHub Pages artifact instead (builder.engine.artifact).

With more than one worker (the default: one per core; `workers` is the build's only knob) a
corpus is read by worker processes (builder.engine.owners): its servers' pages are `Owned`
outputs, which the workers that read them render, starting as soon as phase 1 knows the site-wide
values, while this process computes the statistics. With one, everything happens in this process.

The same data always builds the same bytes: nothing reads the clock, and everything is sorted.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder import urls
from builder.config import SiteConfig
from builder.engine.artifact import TarWriter, WorkerSpec, open_worker_writer
from builder.engine.grading_system import GradingSystem
from builder.engine.heap import kept, settle
from builder.engine.incremental import Manifest, cache_folder, engine_key
from builder.engine.links import LinkLog
from builder.engine.output import MARKER, MARKER_TEXT, claimed
from builder.engine.owners import Owners, die_with_parent
from builder.engine.problems import ProblemLog
from builder.engine.render import TEMPLATES, Renderer
from builder.engine.search import SHARD_DOCS, SearchDoc, SearchIndex
from builder.engine.write import FolderWriter, Writer
from builder.pages.common import fallback_home, not_found_page, search_page
from builder.pages.page import DataFile, NavItem, Output, Owned, Page
from builder.pages.problems import problems_pages
from builder.publish.sitemap import robots_txt, sitemap_files
from builder.store.tables import load_rows, opened
from builder.systems import all_systems

SiteWriter = FolderWriter | TarWriter
"""The writers a build publishes through: a folder, or a GitHub Pages artifact tar (`-o site.tar`)."""

Progress = Callable[[str, int, int], None]


@dataclass
class Model:
    """Everything phase 1 produced: what phase 2 renders and writes."""

    outputs: list[Output]
    log: ProblemLog
    site: dict[str, Any]
    systems: list[str]
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per stage: load (read, validate, DuckDB), statistics (queries and page contexts),
    search (handing the search documents to Pagefind, when the build indexes)."""
    owners: Owners | None = None
    """The worker processes that hold the `Owned` outputs and their inputs (builder.engine.owners)."""
    owned_reused: int | None = None
    """How many `Owned` outputs the previous build lent, once the workers were set rendering the
    others (`start_owned`); None until then."""

    def close(self) -> None:
        if self.owners is not None:
            self.owners.close()


SearchStart = Callable[[list[Iterable[SearchDoc]], list[Page], dict[str, Any]], None]
"""Called once the corpus is loaded, with what the search index needs: every system's search
documents, the pages of systems without them, and the site-wide values. The build starts Pagefind
there, so it runs while the statistics are computed."""
OwnedStart = Callable[[Owners, dict[str, Any]], int]
"""Called once the site-wide values are known, with the workers holding `Owned` outputs: the build
sets them rendering there, while this process computes the statistics and Pagefind indexes;
returns how many outputs the previous build lent."""


def read_and_plan(
    data_dir: Path, config: SiteConfig, systems: Iterable[GradingSystem] | None = None,
    *, start_search: SearchStart | None = None, start_owned: OwnedStart | None = None, cache: Path | None = None,
    workers: int = 1,
) -> Model:
    """Phase 1. `workers`: how many processes read (and later render) a system's records; 1 reads
    them in this process, which then holds their pages as ordinary outputs (as tests and the
    benchmarks that render outputs themselves want)."""
    started = time.perf_counter()
    log = ProblemLog()
    present: list[tuple[GradingSystem, Any]] = []
    try:
        for system in systems if systems is not None else all_systems():
            corpus = system.read(data_dir, log, config, cache, workers)
            if corpus is not None:
                present.append((system, corpus))
        # DuckDB is opened after reading: a reader may fork workers, which must not inherit its threads.
        with opened(cache) as con:
            return _plan(con, log, config, present, start_search, start_owned, started)
    except BaseException:
        for system, corpus in present:
            if (owners := system.owners(corpus)) is not None:
                owners.close()
        raise


def _plan(
    con: Any, log: ProblemLog, config: SiteConfig, present: list[tuple[GradingSystem, Any]],
    start_search: SearchStart | None, start_owned: OwnedStart | None, started: float,
) -> Model:
    # Systems without search documents first: their pages go into the search index as they are.
    # Pagefind and the reading workers are set going before the systems with search documents (a
    # registry) are loaded into DuckDB, so that load runs beside them.
    first = [(system, corpus) for system, corpus in present if system.search_docs is None]
    later = [(system, corpus) for system, corpus in present if system.search_docs is not None]
    _load_problems(con, log)
    for system, corpus in first:
        system.load(con, corpus)
    begun = time.perf_counter()
    later_loading = 0.0
    nav: list[NavItem] = [item for system, corpus in present for item in system.nav(corpus)]
    stand_ins = sorted({m for system, corpus in present for m in system.stand_in_models(corpus)})
    stamps = [s for system, corpus in present if (s := system.data_as_of(corpus))]
    site = {"nav": nav, "stand_in_models": stand_ins, "data_as_of": max(stamps) if stamps else None}
    produced: dict[str, list[Output]] = {}
    for system, corpus in first:
        produced[system.key] = list(system.outputs(con, corpus, config))
    search_docs = [system.search_docs(corpus) for system, corpus in later if system.search_docs is not None]
    searchable = [o for outputs in produced.values() for o in outputs if isinstance(o, Page)]
    search_started = time.perf_counter()
    if start_search is not None:
        start_search(search_docs, searchable, site)
    search_started = time.perf_counter() - search_started
    owners = [o for system, corpus in present if (o := system.owners(corpus)) is not None]
    if len(owners) > 1:
        raise ValueError("only one grading system can read its corpus in worker processes")
    owned_reused = start_owned(owners[0], site) if owners and start_owned is not None else None
    for system, corpus in later:
        loading_from = time.perf_counter()
        system.load(con, corpus)
        later_loading += time.perf_counter() - loading_from
        produced[system.key] = list(system.outputs(con, corpus, config))
    outputs: list[Output] = [o for system, _ in present for o in produced[system.key]]
    if not any(isinstance(o, Page) and o.path == urls.HOME for o in outputs):
        outputs.insert(0, fallback_home(nav))
    outputs.append(search_page())
    outputs.extend(problems_pages(log))
    outputs.append(not_found_page())
    outputs.append(DataFile(urls.BUILD_REPORT, build_report_json(log)))
    outputs.append(robots_txt(config))
    pages = [o.path for o in outputs if isinstance(o, Page) or (isinstance(o, Owned) and o.page)]
    dates = {folder: date for system, corpus in present for folder, date in system.page_dates(con, corpus).items()}
    outputs.extend(sitemap_files(pages, config, dates=dates, default_date=site["data_as_of"]))
    _check_paths(outputs)
    timings = {
        "load": begun - started + later_loading,
        "statistics": time.perf_counter() - begun - search_started - later_loading,
        "search": search_started,
    }
    model = Model(outputs, log, site, [system.key for system, _ in present], timings, owners[0] if owners else None,
                  owned_reused)
    settle()  # the model lives to the end of the build (builder.engine.heap)
    return model


def _load_problems(con: Any, log: ProblemLog) -> None:
    load_rows(
        con, "problems",
        {"file": "VARCHAR", "json_path": "VARCHAR", "reason": "VARCHAR", "severity": "VARCHAR",
         "system": "VARCHAR", "code": "VARCHAR"},
        ((p.file, p.json_path, p.reason, p.severity, p.system, p.code) for p in log.problems),
    )


def _check_paths(outputs: list[Output]) -> None:
    """Before anything is written: every output path is safe and claimed once, and every link a
    page declares (`Page.links`) points at an output or a static file of this build."""
    seen: set[str] = set()
    for output in outputs:
        urls.check_output_path(output.path)
        if output.path in seen:
            raise ValueError(f"two outputs want the same path: {output.path}")
        seen.add(output.path)
    seen.update(path for path, _ in static_files())
    for output in outputs:
        if isinstance(output, Page):
            missing = [link for link in output.links if link not in seen]
            if missing:
                raise ValueError(f"{output.path} links to pages this build does not make: {', '.join(missing)}")


def build_report_json(log: ProblemLog) -> str:
    """Indented like `json.dumps(indent=2)` down to the records, each file and problem on a line of
    its own: as easy to read and diff, and each record encoded by pydantic's own serializer
    (`json.dumps` with `indent` falls back to pure Python: seconds for a registry's report)."""
    files = log.files
    summary = {
        "filesRead": len(files),
        "accepted": sum(1 for f in files if f.status in ("accepted", "accepted-with-warnings")),
        "partlyRejected": sum(1 for f in files if f.status == "partly-rejected"),
        "rejected": sum(1 for f in files if f.status == "rejected"),
        "errors": log.error_count,
        "warnings": len(log) - log.error_count,
    }

    def records(items: list[Any]) -> str:
        if not items:
            return "[]"
        lines = ",\n".join("    " + item.model_dump_json(by_alias=True) for item in items)
        return "[\n" + lines + "\n  ]"

    summary_json = json.dumps(summary, indent=2).replace("\n", "\n  ")
    return (f'{{\n  "summary": {summary_json},\n  "files": {records(files)},\n'
            f'  "problems": {records(log.problems)}\n}}\n')


def static_files() -> list[tuple[str, Path]]:
    return [(f"static/{p.name}", p) for p in sorted((TEMPLATES / "static").iterdir()) if p.is_file()]


CHUNK = 1000


def render_and_write(
    model: Model, config: SiteConfig, writer: Writer, progress: Progress | None = None, workers: int | None = None,
    manifest: Manifest | None = None,
) -> dict[str, float]:
    """Renders every output that the previous build cannot lend (see builder.engine.incremental) and
    writes it; returns seconds spent rendering and writing, and how many outputs were reused.
    Outputs held by reader workers are rendered there (`start_owned`); the others, with more than
    one worker, by forked workers (`_render_in_workers`), else in this process."""
    outputs = model.outputs
    if model.owners is not None and model.owned_reused is None:
        if not isinstance(writer, SiteWriter):
            raise TypeError("outputs held by worker processes need a folder or tar writer")
        model.owned_reused = start_owned(model.owners, model.site, config, writer, manifest)
    local = [index for index, output in enumerate(outputs) if not isinstance(output, Owned)]
    todo = local
    if progress:
        progress("render", 0, len(local))  # the stage starts: its rate and ETA count from here
    reused = model.owned_reused or 0
    linking = time.perf_counter()
    if manifest is not None and isinstance(writer, SiteWriter):
        todo = []
        for index in local:
            output = outputs[index]
            if manifest.reusable(output.path, output.key):
                writer.reuse(output.path)
                reused += 1
            else:
                todo.append(index)
    linking = time.perf_counter() - linking
    workers = workers or os.cpu_count() or 1
    links = LinkLog(config.base_path)
    if model.owners is not None:
        # The workers are rendering their own outputs; the few corpus-wide ones are done here.
        started = time.perf_counter()
        timings = _render_indices(Renderer(config, model.site), outputs, todo, writer, links=links)
        _collect_owned(model.owners, writer, timings, links)
        timings["render"] = time.perf_counter() - started - timings["write"]
        if progress:
            progress("render", len(todo), len(todo))
    elif isinstance(writer, SiteWriter) and workers > 1 and todo:
        timings = _render_in_workers(model, config, writer, workers, todo, progress, links)
    else:
        timings = _render_indices(Renderer(config, model.site), outputs, todo, writer, progress, links)
    started = time.perf_counter()
    for path, source in static_files():
        writer.copy(path, source)
    writer.write(".nojekyll", b"")
    writer.write(MARKER, MARKER_TEXT)  # what lets the next build know it may replace this site
    timings["write"] += time.perf_counter() - started
    # Every link of every page rendered above, wherever it was rendered, before anything is
    # committed (a page lent by the previous build was checked when it was rendered, and its
    # inputs have not changed since).
    links.check(writer.paths)
    timings["link"] = linking
    timings["reused"] = float(reused)
    return timings


def _render_indices(
    renderer: Renderer, outputs: list[Output], indices: list[int], writer: Writer,
    progress: Progress | None = None, links: LinkLog | None = None,
) -> dict[str, float]:
    rendering = writing = 0.0
    for done, index in enumerate(indices, start=1):
        output = outputs[index]
        began = time.perf_counter()
        if isinstance(output, Owned):
            raise TypeError(f"{output.path} is held by a worker process")
        content = renderer.render(output) if isinstance(output, Page) else output.data()
        rendered = time.perf_counter()
        writer.write(output.path, content)
        if links is not None and isinstance(output, Page):
            links.add(output.path, content)
        rendering += rendered - began
        writing += time.perf_counter() - rendered
        if progress and (done % 500 == 0 or done == len(indices)):
            progress("render", done, len(indices))
    return {"render": rendering, "write": writing}


_SHARED: dict[str, Any] = {}
"""What forked workers inherit: the model, the site writer and the list of outputs to render.
Set just before the fork, so nothing is pickled but chunk bounds going in and timings (and, for a
tar, where each member landed) coming back."""


def _worker_chunk(bounds: tuple[int, int]) -> tuple[int, float, float, list[Any], dict[str, str]]:
    writer = _SHARED.get("own_writer")
    if writer is None:
        writer = _SHARED["own_writer"] = _SHARED["writer"].worker_writer()
    renderer = _SHARED.setdefault("renderer", Renderer(_SHARED["config"], _SHARED["model"].site))
    indices = _SHARED["todo"][bounds[0] : bounds[1]]
    links = LinkLog(_SHARED["config"].base_path)
    timings = _render_indices(renderer, _SHARED["model"].outputs, indices, writer, links=links)
    return len(indices), timings["render"], timings["write"], writer.drain(), links.targets


def _render_in_workers(
    model: Model, config: SiteConfig, writer: SiteWriter, workers: int, todo: list[int], progress: Progress | None,
    links: LinkLog,
) -> dict[str, float]:
    """Every output path to render is registered with the writer first (so duplicates still fail
    before anything is written), then forked workers render chunks of them into the staging
    folder (or their own tar segments). Fork shares the model copy-on-write; `gc.freeze` keeps the
    collector from touching, and so copying, every inherited object."""
    for index in todo:
        writer.reserve(model.outputs[index].path)
    _SHARED.clear()
    _SHARED.update(model=model, config=config, writer=writer, todo=todo)
    chunks = [(start, min(start + CHUNK, len(todo))) for start in range(0, len(todo), CHUNK)]
    started = time.perf_counter()
    done = 0
    write_total = 0.0
    gc.collect()
    settle()
    try:
        with multiprocessing.get_context("fork").Pool(workers, die_with_parent, (os.getpid(),)) as pool:
            for count, _, wrote, written, targets in pool.imap_unordered(_worker_chunk, chunks):
                done += count
                write_total += wrote
                writer.adopt(written)
                links.merge(targets)
                if progress:
                    progress("render", done, len(todo))
    finally:
        _SHARED.clear()
    wall = time.perf_counter() - started
    write_share = write_total / workers
    return {"render": wall - write_share, "write": write_share}


def _render_owned_task(state: dict[str, Any], argument: tuple[dict[str, Any], SiteConfig, WorkerSpec, list[int]]
                       ) -> tuple[int, float, float, list[Any], dict[str, str]]:
    """In a worker of builder.engine.owners: renders the given outputs of its own; hands back where they
    were written and the links they hold."""
    site, config, spec, indices = argument
    writer = open_worker_writer(spec)
    links = LinkLog(config.base_path)
    try:
        timings = _render_indices(Renderer(config, site), state.get("outputs", []), indices, writer, links=links)
        return len(indices), timings["render"], timings["write"], writer.drain(), links.targets
    finally:
        writer.close()


def start_owned(
    owners: Owners, site: dict[str, Any], config: SiteConfig, writer: SiteWriter, manifest: Manifest | None
) -> int:
    """Sets each worker rendering those of its own outputs that the previous build cannot lend;
    returns how many it lends."""
    theirs: list[list[int]] = [[] for _ in range(owners.count)]
    reused = 0
    for output in owners.planned:
        if manifest is not None and manifest.reusable(output.path, output.key):
            writer.reuse(output.path)
            reused += 1
        else:
            writer.reserve(output.path)
            theirs[output.owner].append(output.index)
    owners.start_each(_render_owned_task, [(site, config, writer.worker_spec(), indices) for indices in theirs])
    return reused


def _collect_owned(owners: Owners, writer: SiteWriter, timings: dict[str, float], links: LinkLog) -> None:
    """Waits for the workers' rendering; their writing time is added as a share of the wall time."""
    wrote = 0.0
    for _, _, writing, written, targets in owners.collect():
        wrote += writing
        writer.adopt(written)
        links.merge(targets)
    timings["write"] += wrote / owners.count


@dataclass(frozen=True)
class BuildResult:
    log: ProblemLog
    files_written: int
    systems: list[str]
    timings: dict[str, float]
    """Seconds per stage: load, statistics, link (reusing unchanged outputs), render, write, search,
    swap; and `reused`, the number of outputs taken from the previous build."""


def build(
    data_dir: Path, out: str | os.PathLike[str], config: SiteConfig, progress: Progress | None = None, *,
    search: bool = True, shard_docs: int = SHARD_DOCS, workers: int | None = None,
) -> BuildResult:
    """Builds `data_dir` into `out`, which is checked and locked first (builder.engine.output): a build
    replaces only an empty or missing output or a previous scorecards site, and raises
    `UnsafeOutput` before any work otherwise. `shard_docs`: the most documents one Pagefind run
    indexes (builder.engine.search). `workers`: the processes that read and render (default: one
    per core; 1 does everything in this process, for debugging). The site is the same for any
    number."""
    workers = workers or os.cpu_count() or 1
    with claimed(out, data_dir) as target:
        writer: SiteWriter = TarWriter(target) if target.suffix == ".tar" else FolderWriter(target)
        with kept():
            return _build(data_dir, target, config, writer, progress, search, shard_docs, workers)


def _build(
    data_dir: Path, out: Path, config: SiteConfig, writer: SiteWriter, progress: Progress | None, search: bool,
    shard_docs: int, workers: int,
) -> BuildResult:
    search_index: list[SearchIndex] = []

    def start_search(docs: list[Iterable[SearchDoc]], pages: list[Page], site: dict[str, Any]) -> None:
        renderer = Renderer(config, site)
        index = SearchIndex(writer.staging / "pagefind", cache_folder(out) / "search-source", shard_docs)
        search_index.append(index)
        index.add(
            ((doc.path, doc.html if doc.html is not None else renderer.render_string(doc.template, doc=doc.context))
             for group in docs for doc in group),
            ((page.path, renderer.render(page)) for page in pages),
        )
        if len(index.folders) > 1:  # the search page merges the other shards (templates/search.html)
            site["search_shards"] = [f"{folder.name}/pagefind.js" for folder in index.folders[1:]]
        index.start()

    manifests: list[Manifest] = []

    def manifest_for(site: dict[str, Any]) -> Manifest:
        if not manifests:
            engine = engine_key(config, {k: v for k, v in site.items() if k != "data_as_of"})
            manifests.append(Manifest(out, engine, writer.has_previous))
        return manifests[0]

    def start_owned_render(owners: Owners, site: dict[str, Any]) -> int:
        return start_owned(owners, site, config, writer, manifest_for(site))

    model: Model | None = None
    try:
        model = read_and_plan(
            data_dir, config, start_search=start_search if search else None, start_owned=start_owned_render,
            cache=cache_folder(out), workers=workers,
        )
        timings = dict(model.timings)
        manifest = manifest_for(model.site)
        # Pagefind runs while the statistics are computed and the site is rendered (by the workers
        # that read a registry, too); "search" is the time spent waiting for it after that.
        timings.update(render_and_write(model, config, writer, progress, workers, manifest))
        model.close()  # the workers' memory is free before the tar is put together
        settle()  # and what the writer holds, where each member is, lives to the end too
        started = time.perf_counter()
        if isinstance(writer, TarWriter):
            writer.assemble()  # every page into the tar while Pagefind may still be indexing
        manifest.prepare()  # also while Pagefind may still be indexing
        timings["swap"] = time.perf_counter() - started
        started = time.perf_counter()
        for index in search_index:
            index.wait()
            if isinstance(writer, TarWriter):
                for folder in index.folders:
                    writer.add_tree(folder.name, folder)
            if progress:
                progress("search", 1, 1)
        timings["search"] += time.perf_counter() - started
        started = time.perf_counter()
        writer.commit()
        manifest.save()
        writer.finish()
        timings["swap"] += time.perf_counter() - started
    except BaseException:
        for index in search_index:
            index.close()
        if model is not None:
            model.close()
        writer.abort()
        raise
    return BuildResult(model.log, len(writer.paths), model.systems, timings)
