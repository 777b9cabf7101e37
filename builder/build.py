"""The build: `build()`, the one way to build a site, into a folder, a tar or memory, read top to
bottom in `_build`:

claim → read → load → plan → check → lend → render → links → search → weigh → commit

1. **claim** the output (builder.engine.output): a build replaces only an empty or missing output
   or a previous scorecards site.
2. **read** every grading system's files through the one interface they all implement
   (builder.engine.grading_system); problems are logged, never raised.
3. **load** the records into DuckDB and **plan** every output: each page with its typed context,
   each data file (those a worker holds are rows on disk: builder.engine.plan).
4. **check** that every output path, a worker's too, is unique and safe, before anything is
   rendered anywhere.
5. **lend** what the previous build wrote from the same inputs, its bytes unchanged
   (builder.engine.incremental), and claim through the writer every path a worker holds: the
   worker lends those the previous build wrote from the same inputs, if their bytes are unchanged,
   and renders the rest (builder.engine.offers);
   **render** the rest and write everything through one writer into a staging folder beside the
   output; the **links** of every page rendered are then checked against what was written.
6. **search**: wait for Pagefind, which indexed meanwhile; **weigh** the site (what every file
   weighs was noted as it was written: builder.engine.weight) and write `build-report.json`
   (builder.publish.report), with what the site weighs and a warning when it is too big for GitHub
   Pages; then **commit**: swap the staging folder into place. A failed or interrupted build leaves
   the previous site whole. An output named `*.tar` is written as a GitHub Pages artifact instead
   (builder.engine.artifact).

Two steps are started and waited for later, so that they overlap without calling back into the
build. Pagefind indexes in the background as soon as everything it indexes exists: the search
documents right after the read when they are all it indexes (a registry), otherwise once this
process has rendered the pages it indexes too, each rendered once, for the site and the index
alike. And with more than one worker (the default: one per core; `workers` is the build's only
knob) the records that plan outputs of their own (a registry's servers) are read in worker
processes, forked before any thread or pipe of the build exists (builder.engine.workers), which
keep what they read and render it themselves while this process renders the corpus-wide outputs.
Every other output is rendered in this process, and with one worker everything is. No step depends
on which grading system is being built: they are all read, loaded and planned in turn, the same way.

The same data always builds the same bytes: nothing reads the clock, and everything is sorted.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any

from builder import tier_colours, urls
from builder.config import SiteConfig
from builder.engine import background
from builder.engine.artifact import TarWriter, WorkerSpec, open_worker_writer, worker_scratch
from builder.engine.grading_system import GradingSystem
from builder.engine.heap import kept, release, settle
from builder.engine.incremental import Manifest, cache_folder, engine_key
from builder.engine.links import LinkLog
from builder.engine.offers import Offers, taken
from builder.engine.output import MARKER, MARKER_TEXT, claimed
from builder.engine.plan import HELD, OwnedRows, Plan
from builder.engine.problems import FileOwner, ProblemLog
from builder.engine.records import ReadContext, Records, read_records
from builder.engine.render import TEMPLATES, Renderer
from builder.engine.search import SHARD_DOCS, SearchIndex
from builder.engine.weight import PAGES_SUPPORTED, SiteWeight, size_warning
from builder.engine.workers import Workers
from builder.engine.write import FolderWriter, Writer
from builder.pages.common import fallback_home, not_found_page, search_page
from builder.pages.page import DataFile, NavItem, Output, Page
from builder.pages.problems import problems_pages
from builder.publish import manifest as manifest_format
from builder.publish.report import build_report_json
from builder.publish.sitemap import robots_txt, sitemap_files
from builder.store.tables import load_rows, opened, remove_files_folder
from builder.systems import all_systems

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Corpus:
    """A grading system and what the engine read of it (builder.engine.records)."""

    system: GradingSystem
    read: Records
    """What was read; its `corpus` is what the system's pages read (the corpus its records gathered)."""


@dataclass
class Planned:
    """What the first half of a build (`plan_site`) hands the second; and, planned in this process
    and not rendered (`read_and_plan`), what tests, `scorecards check` and the Hugo export read."""

    log: ProblemLog
    present: list[Corpus]
    site: dict[str, Any]
    by_system: dict[str, list[Output]]
    """The outputs this process holds, by system."""
    outputs: list[Output]
    """… and all of them in plan order, with the site's own."""
    plan: Plan
    """… checked, with those the workers hold (builder.engine.plan)."""
    timings: dict[str, float]
    """Seconds per stage: load (read, validate, DuckDB), statistics (queries and page contexts)."""


def plan_site(
    data_dir: Path, config: SiteConfig, log: ProblemLog, systems: Iterable[GradingSystem], cache: Path | None,
    workers: int, after_read: Callable[[list[Corpus], dict[str, Any]], None] | None = None,
) -> Planned:
    """read → load → plan → check: the first half of every build (`build`). `after_read`: what the
    build starts as soon as everything is read (Pagefind, when it indexes search documents only).
    What reading left running is closed here if a later step fails."""
    started = time.perf_counter()
    # read: a system may fork workers that read its records and keep them to render later.
    present = read(systems, ReadContext(data_dir, log, config, cache, workers))
    try:
        site = site_values(present)
        was_read = time.perf_counter()
        if after_read is not None:
            after_read(present, site)
        planning = time.perf_counter()
        # load, plan: every system in turn. DuckDB is opened after reading: a reader's forked
        # workers must not inherit its threads.
        with opened(cache) as con:
            load_problems(con, log)
            by_system, loading = load_and_plan(con, config, present)
            dates = page_dates(con, present)
        outputs = site_outputs(present, by_system, log, site, config, dates)
        release()  # what DuckDB freed goes back to the system (builder.engine.heap)
        # check: every output path, the workers' too, is safe and unique before any is rendered.
        # The workers' are rows on disk, merged with this process's by path (builder.engine.plan).
        plan = Plan(outputs, owned_rows(present))
        plan.check()
        settle()  # the plan lives to the end of the build (builder.engine.heap)
    except BaseException:
        close(present)
        raise
    timings = {"load": was_read - started + loading, "statistics": time.perf_counter() - planning - loading}
    return Planned(log, present, site, by_system, outputs, plan, timings)


def read_and_plan(
    data_dir: Path, config: SiteConfig, systems: Iterable[GradingSystem] | None = None, *, cache: Path | None = None,
) -> Planned:
    """The first half of a build (`plan_site`) in this process, nothing rendered, and what reading
    left on disk removed: what `scorecards check` reports, and what tests and the Hugo export read
    of a plan."""
    planned = plan_site(data_dir, config, ProblemLog(), systems if systems is not None else all_systems(), cache, 1)
    close(planned.present)
    return planned


def read(systems: Iterable[GradingSystem], context: ReadContext) -> list[Corpus]:
    """Every system that has files under the data directory, with what was read of it, each read
    by the engine the same way (builder.engine.records). A system may be read by forked workers
    (`context.workers`): they are closed here if a later system fails."""
    present: list[Corpus] = []
    try:
        for system in systems:
            records = read_records(system.records, context)
            if records is not None:
                present.append(Corpus(system, records))
    except BaseException:
        close(present)
        raise
    return present


def close(present: Iterable[Corpus]) -> None:
    """Ends what reading left running or on disk: the workers that hold outputs, the spools."""
    for corpus in present:
        corpus.read.close()


UNKEYED_SITE_VALUES = frozenset({"data_as_of", "search_shards"})
"""The site-wide values only pages without a key read (pages always rendered: builder.pages.page.Page.key),
left out of every other output's key: the newest date (the TDQS home page's), and where the search index's
other shards are (the search page's, `start_search`). A registry that grows past a multiple of
`shard_docs` documents changes the second; every server's pages are still lent (issue 46)."""


def site_values(present: list[Corpus]) -> dict[str, Any]:
    """What every page shows of the whole site, known from what was read."""
    nav: list[NavItem] = [item for c in present for item in c.system.nav(c.read.corpus)]
    stand_ins = sorted({m for c in present for m in c.system.stand_in_models(c.read.corpus)})
    stamps = [s for c in present if (s := c.system.data_as_of(c.read.corpus))]
    return {"nav": nav, "stand_in_models": stand_ins, "data_as_of": max(stamps) if stamps else None}


def load_problems(con: Any, log: ProblemLog) -> None:
    load_rows(
        con, "problems",
        {"file": "VARCHAR", "json_path": "VARCHAR", "reason": "VARCHAR", "severity": "VARCHAR",
         "system": "VARCHAR", "code": "VARCHAR"},
        ((p.file, p.json_path, p.reason, p.severity, p.system, p.code) for p in log.problems),
    )


def load_and_plan(con: Any, config: SiteConfig, present: list[Corpus]) -> tuple[dict[str, list[Output]], float]:
    """Loads each system into DuckDB and plans its outputs, in the order of the systems; returns
    them by system, and the seconds spent loading."""
    planned: dict[str, list[Output]] = {}
    loading = 0.0
    for c in present:
        began = time.perf_counter()
        c.read.load(con)
        c.system.load(con, c.read.corpus)
        loading += time.perf_counter() - began
        planned[c.system.key] = list(c.system.outputs(con, c.read.corpus, config))
    return planned, loading


def page_dates(con: Any, present: list[Corpus]) -> dict[str, str]:
    """When each system's pages were captured, by folder (`GradingSystem.page_dates`): the
    sitemap's lastmod."""
    return {folder: date for c in present for folder, date in c.system.page_dates(con, c.read.corpus).items()}


def site_outputs(
    present: list[Corpus], planned: dict[str, list[Output]], log: ProblemLog, site: dict[str, Any], config: SiteConfig,
    dates: dict[str, str],
) -> list[Output]:
    """Every system's outputs in the order of the systems, and the site's own beside them."""
    outputs: list[Output] = [o for c in present for o in planned[c.system.key]]
    if not any(isinstance(o, Page) and o.path == urls.HOME for o in outputs):
        outputs.insert(0, fallback_home(site["nav"]))
    outputs.append(search_page())
    outputs.extend(problems_pages(log, file_owners(present)))
    outputs.append(not_found_page())
    outputs.append(DataFile(urls.BUILD_REPORT, partial(build_report_json, log)))  # made when written
    outputs.append(robots_txt(config))
    pages = [path for path in Plan(outputs, owned_rows(present)).page_paths() if not path.startswith(urls.PROBLEM_FILES)]
    outputs.extend(sitemap_files(pages, config, dates=dates, default_date=site["data_as_of"]))
    return outputs


def file_owners(present: list[Corpus]) -> dict[str, FileOwner]:
    """Whose page each input file with a problem belongs to, over every system."""
    return {file: owner for c in present for file, owner in c.system.file_owners(c.read.corpus).items()}


def owned_rows(present: list[Corpus]) -> list[OwnedRows]:
    """The outputs each system's workers hold, as rows (builder.engine.plan), in the order of the
    systems: the parts of the plan, each held by the same system's workers (`read.owners`, set
    exactly when `read.owned` is)."""
    return [c.read.owned for c in present if c.read.owned is not None]


@dataclass
class Lent:
    """What the lend step decided (`lend`)."""

    held: set[str]
    """The paths of the outputs this process holds that the previous build lent: not rendered."""
    theirs: list[list[array[int]]]
    """For each part of the plan held by workers, for each worker, the positions in its list of
    the outputs it renders, each path claimed through the writer."""
    offers: list[list[Offers]]
    """… and the outputs it lends if their previous bytes are still those written, else renders
    (builder.engine.offers), each path claimed through the writer too."""
    count: int
    """How many outputs this process lent (the workers count theirs)."""


def lend(plan: Plan, manifest: Manifest | None, writer: Writer, owners: list[Workers], scratch: Path | None) -> Lent:
    """Takes from the previous build every output this process holds that it wrote from the same
    inputs and whose bytes are still those written (builder.engine.incremental), each path claimed
    through the writer. The path of every output a worker holds is claimed for it, and the worker
    is offered the previous bytes of those written from the same inputs (builder.engine.offers,
    in `scratch`): it lends or renders them. One pass over the plan sorted by path beside the
    previous build's ledger (`manifest`; None: a build in memory, which has none)."""
    lent = Lent(set(), [[array("q") for _ in range(o.count)] for o in owners],
                [[Offers(scratch, f"{part}-{worker}") for worker in range(o.count)] for part, o in enumerate(owners)]
                if scratch is not None else [], 0)
    pairs = manifest.matched(plan.sorted()) if manifest is not None else ((row, None) for row in plan.sorted())
    for planned, previous in pairs:
        if planned.part == HELD:
            if previous is not None and writer.reuse(previous):
                lent.count += 1
                lent.held.add(planned.path)
            continue
        writer.reserve(planned.path)
        if previous is not None:
            lent.offers[planned.part][planned.owner].add((planned.position, previous))
        else:
            lent.theirs[planned.part][planned.owner].append(planned.position)
    return lent


def write_static(writer: Writer) -> float:
    """The static files, and the marker that lets the next build know it may replace this site;
    returns the seconds spent writing."""
    started = time.perf_counter()
    for source in sorted(p for p in (TEMPLATES / "static").iterdir() if p.is_file()):
        data = source.read_bytes()
        if source.name == "site.css":  # with the tier colours' custom properties, from their one map
            data = tier_colours.stylesheet(data)
        writer.write(f"static/{source.name}", data)
    writer.write(".nojekyll", b"")
    writer.write(MARKER, MARKER_TEXT)
    return time.perf_counter() - started


def _render_indices(
    renderer: Renderer, outputs: Sequence[Output], indices: Sequence[int], writer: Writer,
    progress: Progress | None = None, links: LinkLog | None = None, search: Indexing | None = None,
) -> dict[str, float]:
    """Renders `outputs[indices]` and writes them; returns the seconds spent rendering and writing.
    `links`: where each page's links go (builder.engine.links); `search`: the pages Pagefind indexes,
    handed to it as rendered (`Indexing`)."""
    rendering = writing = 0.0
    for done, index in enumerate(indices, start=1):
        output = outputs[index]
        began = time.perf_counter()
        content = renderer.render(output) if isinstance(output, Page) else output.data()
        rendered = time.perf_counter()
        writer.write(output.path, content, output.key)
        if links is not None and isinstance(output, Page):
            links.add(output.path, content)
        if search is not None and output.path in search.pages:
            search.add(output.path, content)
        rendering += rendered - began
        writing += time.perf_counter() - rendered
        if done % 1000 == 0:
            release()  # what rendering freed goes back to the system (builder.engine.heap)
        if progress and (done % 500 == 0 or done == len(indices)):
            progress("render", done, len(indices))
    return {"render": rendering, "write": writing}


def search_index(present: list[Corpus], staging: Path, scratch: Path, shard_docs: int) -> SearchIndex:
    """Pagefind's index (builder.engine.search), put together in `scratch` and written into
    `staging`, handed every system's search documents (`search_documents`); the pages of the systems
    whose pages it indexes are handed to it as they are rendered (`Indexing`). Started by
    `start_search`; the build waits for it (`SearchIndex.wait`) before the commit."""
    index = SearchIndex(staging / "pagefind", scratch / "search-documents", shard_docs)
    index.add(search_documents(present))
    return index


def search_documents(present: list[Corpus]) -> Iterator[tuple[str, str]]:
    """Every system's search documents, rendered where their records were read, each at its page's path."""
    for c in present:
        yield from c.read.search_docs()


def indexed_pages(present: list[Corpus], planned: dict[str, list[Output]]) -> set[str]:
    """The paths of the pages Pagefind indexes: those of the systems whose pages it indexes."""
    return {o.path for c in present if c.system.indexes_pages for o in planned[c.system.key] if isinstance(o, Page)}


def start_search(index: SearchIndex, site: dict[str, Any]) -> None:
    """Starts Pagefind once every document is handed to it; when the index is sharded, the search
    page is told where the other shards are (`site`, templates/search.html)."""
    if len(index.folders) > 1:
        site["search_shards"] = [f"{folder.name}/pagefind.js" for folder in index.folders[1:]]
    index.start()


class Indexing:
    """The pages Pagefind indexes (`indexed_pages`), each rendered once, for the site and the index
    alike: handed to the index as they are rendered (`_render_indices`), a hundred at a time, those
    the previous build lent rendered for the index alone. The index starts once it has them all,
    so the build renders them first (`render_order`), and Pagefind indexes while it renders the rest."""

    def __init__(self, index: SearchIndex, site: dict[str, Any], pages: set[str]) -> None:
        self.index = index
        self.site = site
        self.pages = pages
        self._awaited = 0
        self._found: list[tuple[str, str | bytes]] = []

    def begin(self, renderer: Renderer, outputs: Sequence[Output], todo: Sequence[int]) -> None:
        """Before the render of `outputs[todo]`: the pages not among them (lent by the previous build)
        are rendered for the index now; the index starts once those among them are handed to it."""
        rendered = {outputs[i].path for i in todo if outputs[i].path in self.pages}
        self._awaited = len(rendered)
        self.index.add((o.path, renderer.render(o)) for o in outputs
                       if isinstance(o, Page) and o.path in self.pages and o.path not in rendered)
        if not self._awaited:
            start_search(self.index, self.site)

    def add(self, path: str, content: str | bytes) -> None:
        self._found.append((path, content))
        self._awaited -= 1
        if len(self._found) >= 100 or not self._awaited:
            self.index.add(self._found)
            self._found = []
        if not self._awaited:
            start_search(self.index, self.site)


def render_order(outputs: Sequence[Output], todo: list[int], indexing: Indexing | None) -> list[int]:
    """`todo` in the order this process renders it: the pages Pagefind indexes first (`Indexing`), then
    the search page, which says where the index's shards are (`start_search`), then the rest in plan order."""
    pages = indexing.pages if indexing is not None else set()
    return sorted(todo, key=lambda i: (outputs[i].path not in pages, outputs[i].path != urls.SEARCH))


def _render_owned_task(
    state: dict[str, Any], argument: tuple[dict[str, Any], SiteConfig, WorkerSpec, array[int], Path | None],
) -> tuple[float, list[Path], list[Path], int]:
    """In a worker that read its outputs (builder.engine.workers): lends what it was offered
    (builder.engine.offers) and renders the rest with the given ones of its own, writing them
    through a writer of its own (`open_worker_writer`, which claims each path again); hands back the
    seconds spent writing, the files that list what was written, the files that list the links they
    hold (builder.engine.links: the worker never holds more than a few pages' links) and how many it
    lent."""
    site, config, spec, indices, offered = argument
    writer = open_worker_writer(spec)
    links = LinkLog(config.base_path, spill=worker_scratch(spec))
    try:
        lent, indices = taken(writer, offered, indices)
        timings = _render_indices(Renderer(config, site), state.get("outputs", []), indices, writer, links=links)
        return timings["write"], writer.drain(), links.flush(), lent
    finally:
        writer.close()


def start_owned(owners: Workers, site: dict[str, Any], config: SiteConfig, spec: WorkerSpec,
                theirs: list[array[int]], offers: list[Offers]) -> None:
    """Sets each worker lending what it was offered and rendering the rest of the outputs of its own
    the lend step claimed for it (`Lent`), in the order it planned them: the lend step found them by
    path, and a worker loads a source's outputs once for a run of them (builder.engine.records)."""
    owners.start_each(_render_owned_task, [(site, config, spec, array("q", sorted(mine)), offered.close())
                                           for mine, offered in zip(theirs, offers, strict=True)])


def collect_owned(owners: Workers, writer: Writer, links: LinkLog) -> tuple[float, int]:
    """Waits for the workers' rendering; returns their writing time as a share of the wall time, and
    how many outputs they lent."""
    wrote = 0.0
    lent = 0
    for writing, written, targets, taken_over in owners.collect():
        wrote += writing
        lent += taken_over
        writer.adopt(written)
        links.merge(targets)
    return wrote / owners.count, lent


def manifest_targets(paths: Iterable[str], inputs: Iterable[str]) -> list[str]:
    """What a page may link to of the manifest, which is written after the links are checked: the
    top, and the part of each folder of the site's `paths` and the data folder's `inputs`."""
    return [urls.MANIFEST, *sorted(manifest_format.part_files(chain(paths, inputs)))]


def write_manifest(writer: Writer, inputs: list[manifest_format.Input], config: SiteConfig,
                   site: dict[str, Any], search: bool, trees: Sequence[str] = ()) -> None:
    """Writes the manifest (builder.publish.manifest), last: its parts list every other published
    file, with the SHA-256 the writer recorded as it wrote it (`trees`: the search index's folders,
    which Pagefind wrote into a folder site itself, read back), and every input; the top lists the
    parts."""
    head = manifest_format.header({**config.model_dump(mode="json"), "search": search}, site["data_as_of"])
    for path, text in manifest_format.files_and_parts(head, inputs, writer.published(trees)):
        writer.write(path, text)


COUNTS = frozenset({"reused"})
"""The entries of `BuildResult.timings` that are numbers of outputs, not seconds."""


@dataclass(frozen=True)
class BuildResult:
    log: ProblemLog
    files_written: int
    systems: list[str]
    timings: dict[str, float]
    """Seconds per stage: load, statistics, link (reusing unchanged outputs), render, write, search,
    manifest, swap; and `reused`, the number of outputs taken from the previous build (see COUNTS)."""
    weight: SiteWeight | None = None
    """What the site weighs, build-report.json and manifest.jsonl aside (builder.engine.weight)."""
    size_warning: str | None = None
    """What to do about the site's size, when it is over `size_warning_bytes`."""
    tar_bytes: int | None = None
    """The artifact tar's size, when the output is one."""
    inputs: list[manifest_format.Input] = field(default_factory=list)
    """Every input file, as the manifest lists it."""
    data_as_of: str | None = None
    """The data's as-of date, which the inputs' ages count from."""


def build(
    data_dir: Path, out: str | os.PathLike[str] | Writer, config: SiteConfig, progress: Progress | None = None, *,
    search: bool = True, shard_docs: int = SHARD_DOCS, workers: int | None = None,
    size_warning_bytes: int = PAGES_SUPPORTED, systems: Sequence[GradingSystem] | None = None,
) -> BuildResult:
    """Builds `data_dir` into `out`: the one way a site is built, by `scorecards build`, `serve`, the
    benchmarks and the tests.

    `out` is a folder, or a `.tar` for a GitHub Pages artifact, checked and locked first
    (builder.engine.output): a build replaces only an empty or missing output or a previous
    scorecards site, and raises `UnsafeOutput` before any work otherwise. Or it is a writer that
    keeps the site in memory (builder.engine.write.MemoryWriter, for tests): then everything is
    rendered in this process, nothing is lent or kept for a next build, and there is no search
    index (`search` must be false).

    `shard_docs`: the most documents one Pagefind run indexes (builder.engine.search). `workers`:
    the processes that read and render the records that plan outputs of their own (default: one per
    core; 1 does everything in this process, for debugging). The site is the same for any number.
    `size_warning_bytes`: above it, the build warns that the site is too big for GitHub Pages
    (builder.engine.weight.size_warning): in `BuildResult.size_warning` and build-report.json.
    `systems`: the grading systems built (default: all of them, builder.systems)."""
    chosen = systems if systems is not None else all_systems()
    if isinstance(out, Writer):
        if out.out is not None or out.worker_spec() is not None:
            raise TypeError("build() takes a folder or a tar by its path; a writer only when it keeps the site in memory")
        if search:
            raise ValueError("a build in memory makes no search index: pass search=False")
        with kept():
            return _build(data_dir, config, out, progress, chosen, None, False, shard_docs, 1, size_warning_bytes)
    workers = workers or os.cpu_count() or 1
    with claimed(out, data_dir) as target:  # claim
        writer: Writer = TarWriter(target) if target.suffix == ".tar" else FolderWriter(target)
        with kept():
            result = _build(data_dir, config, writer, progress, chosen, cache_folder(target), search, shard_docs,
                            workers, size_warning_bytes)
        remove_files_folder(cache_folder(target))  # the downloads were dropped with the build's outputs
        return result


def _build(
    data_dir: Path, config: SiteConfig, writer: Writer, progress: Progress | None, systems: Sequence[GradingSystem],
    cache: Path | None, search: bool, shard_docs: int, workers: int, size_warning_bytes: int,
) -> BuildResult:
    log = ProblemLog()
    present: list[Corpus] = []
    index: SearchIndex | None = None
    spec = writer.worker_spec()
    scratch = worker_scratch(spec) if spec is not None else None
    timings: dict[str, float] = {"search": 0.0}

    def search_now(read: list[Corpus], site: dict[str, Any]) -> None:
        """The search index is handed every search document once they are read. Pagefind starts as
        soon as what it indexes exists, and indexes in the background until the build waits for it.
        When no system's pages are indexed (a registry: search documents only), that is now, and
        Pagefind overlaps the load, the planning and the rendering."""
        nonlocal index
        if search:
            began = time.perf_counter()
            assert writer.staging is not None and scratch is not None  # a build in memory has no search
            index = search_index(read, writer.staging, scratch, shard_docs)
            if not any(c.system.indexes_pages for c in read):
                start_search(index, site)
            timings["search"] += time.perf_counter() - began

    try:
        # read, load, plan, check (`plan_site`)
        planned = plan_site(data_dir, config, log, systems, cache, workers, search_now)
        present, site, outputs, plan = planned.present, planned.site, planned.outputs, planned.plan
        owners = [c.read.owners for c in present if c.read.owners is not None]  # each part's workers (`owned_rows`)
        timings.update(planned.timings)
        # search: otherwise Pagefind indexes pages too, handed to it as they are rendered below, and
        # starts once they all are.
        indexing = None
        if index is not None and any(c.system.indexes_pages for c in present):
            indexing = Indexing(index, site, indexed_pages(present, planned.by_system))
        # lend: what the previous build wrote from the same inputs, its bytes unchanged, is taken
        # from it (each path claimed through the writer) instead of rendered; every other output
        # a worker holds is claimed for it to render.
        lending = time.perf_counter()
        engine = engine_key(config, {k: v for k, v in site.items() if k not in UNKEYED_SITE_VALUES},
                            (name for c in present for name in c.system.records.shaping))
        manifest = Manifest(writer.out, engine, writer.kind, writer.previous_size) if writer.out is not None else None
        lent = lend(plan, manifest, writer, owners, scratch)
        # build-report.json is written last, once the rest of the site is weighed (below).
        writer.hold(urls.BUILD_REPORT)
        release()
        timings["link"] = time.perf_counter() - lending
        timings["reused"] = float(lent.count)
        # render: the workers render the outputs they read (each path claimed through the writer
        # first), while this process renders what it holds; then what the workers rendered is
        # taken in. The pages Pagefind indexes are rendered first, and handed to it (`Indexing`).
        # The links of every page rendered, this process's too, are spilled to the scratch folder
        # as they are found, a thousand pages at a time (builder.engine.links).
        links = LinkLog(config.base_path, spill=scratch)
        rendering = time.perf_counter()
        for o, theirs, offers in zip(owners, lent.theirs, lent.offers, strict=True):
            assert spec is not None  # reader workers are forked only for a writer that has one
            start_owned(o, site, config, spec, theirs, offers)
        renderer = Renderer(config, site)
        todo = [i for i, output in enumerate(outputs) if output.path not in lent.held and output.path not in writer.held]
        if progress:
            progress("render", 0, len(todo))  # the stage starts: its rate and ETA count from here
        if indexing is not None:
            indexing.begin(renderer, outputs, todo)
        timings.update(_render_indices(renderer, outputs, render_order(outputs, todo, indexing), writer, progress,
                                       links, indexing))
        # what this process planned is rendered: the plan and its pages' contexts (a registry's
        # comparison rows and lists) are freed while the workers render on and Pagefind indexes
        del planned, outputs, plan, renderer, todo, lent
        release()
        for o in owners:
            wrote, taken_over = collect_owned(o, writer, links)
            timings["write"] += wrote
            timings["reused"] += taken_over
        if owners:
            timings["render"] = time.perf_counter() - rendering - timings["write"]
        timings["write"] += write_static(writer)
        # links: every link of every page rendered above, wherever it was rendered, before anything
        # is committed (a page lent by the previous build was checked when it was rendered, and its
        # inputs have not changed since).
        close(present)  # the workers' memory is free before the links are checked and the tar put together
        # every input, hashed: the manifest, written last, lists them, and pages link to its parts;
        # each file a reader read is listed as it was read, not read again
        manifesting = time.perf_counter()
        inputs = manifest_format.read_inputs(data_dir, (i for c in present for i in c.read.inputs))
        timings["manifest"] = time.perf_counter() - manifesting
        links.check(chain(writer.paths, manifest_targets(writer.paths, (i.path for i in inputs))), scratch)
        settle()  # and what the writer holds (the paths claimed) lives to the end too
        swapping = time.perf_counter()
        writer.assemble()  # every page into a tar while Pagefind may still be indexing
        # also while Pagefind may still be indexing; what each output weighs is summed on the way
        weight = SiteWeight(urls.weight_kind)
        written = weight.counted(writer.written_rows())
        if manifest is not None:
            manifest.prepare(written)
        for _ in written:  # the ledger stops reading after the last output it records: the rest counts too
            pass
        timings["swap"] = time.perf_counter() - swapping
        # search: wait for Pagefind.
        searching = time.perf_counter()
        if index is not None:
            index.wait()
            for folder in index.folders:
                writer.add_tree(folder.name, folder)
            if progress:
                progress("search", 1, 1)
        timings["search"] += time.perf_counter() - searching
        # weigh: the search index too, then the report of what the site weighs (all but itself and the manifest).
        weighing = time.perf_counter()
        for folder in index.folders if index is not None else ():
            weight.add_tree(folder.name, folder)
        warning = size_warning(weight, size_warning_bytes)
        writer.fill(urls.BUILD_REPORT, build_report_json(log, weight.report([warning] if warning else [])))
        timings["weigh"] = time.perf_counter() - weighing
        # manifest, written last: every file published (the report too), read back as it stands, and every
        # input (builder.publish.manifest)
        manifesting = time.perf_counter()
        write_manifest(writer, inputs, config, site, search, [f.name for f in index.folders] if index else [])
        timings["manifest"] += time.perf_counter() - manifesting
        # commit
        swapping = time.perf_counter()
        writer.commit()
        if manifest is not None:
            manifest.save(size=writer.size)
        writer.finish()
        timings["swap"] += time.perf_counter() - swapping
    except BaseException:
        if index is not None:
            index.close()
        close(present)
        writer.abort()
        raise
    finally:
        background.finish()  # no thread the build started outlives it (builder.engine.background)
    return BuildResult(log, len(writer.paths), [c.system.key for c in present], timings, weight, warning, writer.size,
                       inputs, site["data_as_of"])
