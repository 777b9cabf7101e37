"""Full-text search with Pagefind, run once per build in the background.

The binary comes from the `pagefind[bin]` package on PyPI. Its Python API waits a tenth of a second
for each reply, far too slow for a registry, and its command line reads a folder in the order the
filesystem lists it, which differs between filesystems (Pagefind numbers pages in that order, so
the index bytes would too). So the build runs the binary as a service itself and sends it every
document of a search source, sorted by path, without waiting for the replies. The search source
is made for the purpose as soon as the corpus is read (or, for systems whose pages are indexed,
planned):

- a grading system that can describe its records compactly gives one small document per record
  group (TDQS: one per server, its tools as sub-sections, so a tool search lands on the tool);
  each document sits at the path of the page it stands for, so Pagefind gives it that page's URL;
- every other system's pages are rendered into it, and Pagefind indexes the parts they mark
  `data-pagefind-body`.

Indexing whole registry pages instead costs ten times the time, and Pagefind's memory grows past
what a 24 GB machine has at a quarter of a million pages.

The documents are appended, as they come, to one file in the build's scratch folder, removed with
it: nothing of them is kept between builds. Pagefind has no incremental mode, so every build sends
it every document; a rebuild takes an unchanged server's document from its read cache entry
(builder.engine.records), not from a copy kept for the purpose. When there is nothing
to index (an empty or wholly rejected data folder), Pagefind is not run: it refuses an empty
index, and the search page gets a module that finds nothing (`EMPTY_INDEX`).

Pagefind holds the whole index it makes in memory (2.1 GB at the full registry's 15,036
documents), so a large source is indexed in shards: consecutive runs of at most `SHARD_DOCS`
documents of the sorted list, each by its own Pagefind run, one after another, so that only one
shard is ever held. Shard 1 is `pagefind/`, shard k `pagefind-k/`, each a complete Pagefind index;
the search page merges them in the browser with Pagefind's `mergeIndex` (static/search.js). Up to
`SHARD_DOCS` documents there is one run, as there always was.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel

from builder.urls import check_output_path

SHARD_DOCS = 1000
"""The most documents one Pagefind run indexes (see the module's docstring): about 230 MiB of
Pagefind's memory at the registry's documents, measured in `git show ff15eda:docs/performance.md`
("Pagefind in shards", and "Issue 32 at the fourth stop", where 2,000 took the full registry's build
past 1 GB)."""

EMPTY_INDEX = b"""// This build had nothing to search (no grading results were read), and Pagefind refuses to
// make an index of nothing: the search page gets this module, which finds nothing, instead.
export async function init() {}
export async function options() {}
export async function search() { return { results: [] }; }
export async function debouncedSearch() { return { results: [] }; }
"""
"""`pagefind/pagefind.js` when there is no document to index: an empty or wholly rejected data
folder still builds a site whose search page answers "no results" instead of failing to load."""


@dataclass(frozen=True)
class SearchDoc:
    """One document of the search source: rendered with `template` from `context`, at the output
    path of the page it stands for."""

    path: str
    template: str
    context: BaseModel
    """The template's context (its contract: tests/test_template_contract.py)."""


_SEPARATORS = re.compile(r"[\s\-_./]+")


def compact_name(name: str) -> str:
    """A name as one lower-case word (`get_playlist`, `get-playlist`, `getPlaylist` → `getplaylist`),
    indexed beside the name: Pagefind splits `get-playlist` into common words that rank a thousand
    documents alike, so static/search.js also searches the query's compact form, which only the
    documents naming it exactly contain. static/search.js compacts the query the same way."""
    return _SEPARATORS.sub("", name.lower())


class SearchIndexError(RuntimeError):
    pass


class SearchIndex:
    """Pagefind over a search source: documents and pages are appended to the file `source` (in
    the build's scratch folder), then `start()` runs Pagefind in the background (the build
    computes its statistics meanwhile) and `wait()` collects it, with its index in `output`, or in
    `output` and its sibling shard folders (`folders`) past `shard_docs` documents."""

    def __init__(self, output: Path, source: Path, shard_docs: int = SHARD_DOCS) -> None:
        if shard_docs < 1:
            raise ValueError("a shard holds at least one document")
        self.output = output
        self.source = source
        self.shard_docs = shard_docs
        self._documents: dict[str, tuple[int, int]] = {}
        """Each document's path, and where its bytes are in `source` (offset, length)."""
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_bytes(b"")
        self._runner: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stopping = False
        self._process: subprocess.Popen[bytes] | None = None
        self._failure: str | None = None
        self._started = False

    def add(self, docs: Iterable[tuple[str, str | bytes]]) -> None:
        """`docs`: each document's path (the page it stands for) and its HTML: a search document, or
        a rendered page to index as it is (the part it marks `data-pagefind-body`)."""
        with open(self.source, "ab") as file:
            for path, content in docs:
                data = content.encode("utf-8") if isinstance(content, str) else content
                self._documents[check_output_path(path)] = (file.tell(), len(data))
                file.write(data)

    def _shards(self) -> list[list[tuple[str, int, int]]]:
        documents = sorted((path, *place) for path, place in self._documents.items())
        return [documents[start:start + self.shard_docs] for start in range(0, len(documents), self.shard_docs)]

    @property
    def folders(self) -> list[Path]:
        """The index's folders once the documents are added: `output` (shard 1), then
        `output-2`, `output-3`… beside it, one per further shard."""
        count = max(1, -(-len(self._documents) // self.shard_docs))
        return [self.output] + [self.output.with_name(f"{self.output.name}-{k}") for k in range(2, count + 1)]

    def start(self) -> None:
        """Runs Pagefind in the background, one shard after another. Each run is a service handed
        its documents one by one, sorted by path. Pagefind's command line would read the folder in
        the order the filesystem lists it (tmpfs and ext4 differ, and so do two ext4 disks), and
        Pagefind numbers its pages in that order: the same data would not give the same index
        bytes wherever it is built. The service takes pages in the order they are sent and
        indexes them one after another. Started once: a second call does nothing. The build starts
        it after its last fork: its threads and its pipes must not be inherited by a forked worker
        (a worker holding Pagefind's input open would keep it from ever ending)."""
        if self._started:
            return
        self._started = True
        if not self._documents:
            self.output.mkdir(parents=True, exist_ok=True)
            (self.output / "pagefind.js").write_bytes(EMPTY_INDEX)
            return
        shards = list(zip(self.folders, self._shards(), strict=True))
        self._runner = threading.Thread(target=self._run_all, args=(shards,), daemon=True)
        self._runner.start()

    def _run_all(self, shards: list[tuple[Path, list[tuple[str, int, int]]]]) -> None:
        """Each shard's run starts as soon as the one before has sent its index back; that index is
        written while the next run indexes."""
        try:
            written: tuple[Path, list[tuple[str, bytes]]] | None = None
            for output, documents in shards:
                run = self._start_run(documents)
                if run is None:  # the build is being stopped: nothing more is written
                    self._failure = "stopped"
                    return
                if written is not None:
                    _write(*written)
                    written = None
                files, failure = run.finish()
                if failure is not None:
                    self._failure = failure
                    return
                written = (output, files)
            if written is not None:
                _write(*written)
        except Exception as error:  # raised again by wait(), in the build's thread
            self._failure = f"pagefind failed: {error!r}"

    def _start_run(self, documents: list[tuple[str, int, int]]) -> _Service | None:
        """Starts one Pagefind run over `documents` (path, and where the bytes are in `source`);
        None once the index is being closed."""
        executable = str(pagefind_executable())
        with self._lock:
            if self._stopping:
                return None
            errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _Service.finish
            try:
                self._process = process = subprocess.Popen(
                    [executable, "--service"], cwd=self.source.parent,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                )
            except BaseException:
                errors.close()
                raise
        return _Service(process, documents, self.source, errors)

    def wait(self) -> None:
        try:
            if self._runner is None:
                self.start()
            if self._runner is None:  # nothing to index (`start`)
                return
            self._runner.join()
            if self._failure is not None:
                raise SearchIndexError(self._failure)
        finally:
            self.close()

    def close(self) -> None:
        """Stops a run still going (a build that failed meanwhile) and starts no further shard."""
        with self._lock:
            self._stopping = True
            process = self._process
        if process is not None and process.poll() is None:
            process.kill()  # the service's threads then see its pipes close
            process.wait()
        if self._runner is not None:
            self._runner.join()


def _write(output: Path, files: list[tuple[str, bytes]]) -> None:
    """An index's files into `output`, each path checked as every output path is."""
    for path, content in sorted(files):
        target = output / check_output_path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)


def pagefind_executable() -> Path:
    """The binary of the `pagefind[bin]` package (what `python -m pagefind` runs)."""
    from pagefind.service import get_executable

    found = get_executable()
    if found is None:
        raise SearchIndexError("the pagefind binary is missing (pip install 'pagefind[bin]')")
    return found


class _Service:
    """One Pagefind service run: a thread sends the documents (a new index, one `AddFile` per
    document in the order given, then `GetFiles`), another reads the replies, so neither pipe
    fills up while the build goes on. Messages are base64 JSON ended by a comma, as the `pagefind`
    package's own client sends them.

    The index comes back in the `GetFiles` reply and is written here, not by Pagefind's
    `WriteFiles`: Pagefind writes through tokio files, whose last writes may still be in flight
    when it replies, and the service exits as soon as its input closes. A build under load once
    shipped an empty `wasm.unknown.pagefind` that way (a rebuild against a cold build, 1 of 30,534
    files differing). What the service says on its standard error goes to the file `errors`, read
    when the run fails."""

    def __init__(self, process: subprocess.Popen[bytes], documents: list[tuple[str, int, int]], source: Path,
                 errors: IO[bytes]) -> None:
        self._process = process
        self._errors = errors
        self._last = len(documents) + 2
        self._failures: list[str] = []
        self.files: list[tuple[str, bytes]] | None = None
        """The index's files (path below the index folder, content), once Pagefind sent them."""
        self._done = threading.Event()
        self._sender = threading.Thread(target=self._send_all, args=(documents, source), daemon=True)
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()
        self._sender.start()

    def _send_all(self, documents: list[tuple[str, int, int]], source: Path) -> None:
        assert self._process.stdin is not None
        pipe = self._process.stdin
        try:
            _send(pipe, 1, {"type": "NewIndex", "config": None})
            with open(source, "rb") as file:
                for number, (path, offset, length) in enumerate(documents, start=2):
                    content = os.pread(file.fileno(), length, offset).decode("utf-8", "replace")
                    _send(pipe, number, {"type": "AddFile", "index_id": 0, "file_path": path, "url": None,
                                         "file_contents": content})
            _send(pipe, self._last, {"type": "GetFiles", "index_id": 0})
            pipe.flush()
        except OSError as error:  # the service died: its exit status and stderr say why
            self._failures.append(f"could not send the documents: {error}")
            self._done.set()

    def _read_all(self) -> None:
        assert self._process.stdout is not None
        # The start of a message still coming, chunk by chunk: the index's files come back in one
        # message of megabytes, so only each new chunk is searched for the comma that ends it.
        pending: list[bytes] = []
        while not self._done.is_set():
            chunk = self._process.stdout.read1(1 << 16)  # type: ignore[attr-defined]  # a BufferedReader
            if not chunk:
                break
            *messages, rest = chunk.split(b",")
            if messages:
                messages[0] = b"".join([*pending, messages[0]])
                pending = []
            pending.append(rest)
            for message in messages:
                reply = json.loads(base64.b64decode(message))
                payload = reply.get("payload") or {}
                if payload.get("type") == "Error":
                    self._failures.append(str(payload.get("message")))
                if reply.get("message_id") == self._last:
                    if payload.get("type") == "GetFiles":
                        self.files = [(f["path"], base64.b64decode(f["content"])) for f in payload["files"]]
                    self._done.set()
        self._done.set()

    def finish(self) -> tuple[list[tuple[str, bytes]], str | None]:
        """Waits for the index; closes the service's input, which ends it. Returns the index's
        files, or why the run failed."""
        with self._errors:
            self._sender.join()
            self._reader.join()
            if self._process.stdin is not None:
                with contextlib.suppress(OSError):
                    self._process.stdin.close()
            failure = "; ".join(self._failures) or None
            code = self._process.wait()
            if failure is None and self.files is None:
                failure = "no index came back"
            if failure is not None or code != 0:
                self._errors.seek(0)
                message = self._errors.read().decode("utf-8", "replace").strip()
                return [], f"pagefind failed ({code}): {failure or ''} {message}".strip()
        return self.files or [], None


def _send(pipe: Any, number: int, payload: dict[str, Any]) -> None:
    pipe.write(base64.b64encode(json.dumps({"message_id": number, "payload": payload}).encode("utf-8")) + b",")
