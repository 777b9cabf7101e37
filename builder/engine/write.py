"""All output goes through one writer.

- It refuses to write the same path twice, so two names that map to one slug are a build error,
  not a page silently overwritten.
- It refuses any path that would leave the output folder.
- It writes into a staging folder beside the output (made and marked by builder.engine.output) and swaps
  it in only when the build is complete, so a failed or interrupted build leaves the previous site
  whole. The output itself was checked and locked before (builder.engine.output.claimed).
- What the swap leaves over (the previous site, the staging area) is removed in the background:
  freeing a registry-sized site takes seconds, which the build spends on its last bookkeeping.
- It keeps a row of every file it writes (its key, its weight and the SHA-256 of its bytes, on disk:
  builder.engine.written), which the ledger records (builder.engine.ledger); a rebuild lends a
  previous file only if its bytes still have that SHA-256 (`reuse`), so a page edited, truncated or
  damaged on disk is rendered again instead of published again.
- `MemoryWriter` keeps files in a dict, for tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from builder.engine.claims import Claims
from builder.engine.output import make_staging, remove_staging
from builder.engine.published import Published, folder_files
from builder.engine.weight import weigh
from builder.engine.written import Row, WrittenLog, sorted_rows
from builder.urls import check_output_path


class DuplicateOutput(Exception):
    pass


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of `data`, which the site's manifest lists (builder.publish.manifest) and a rebuild
    checks a previous output against before it lends it (`reuse`)."""
    return hashlib.sha256(data).hexdigest()


def written_row(path: str, key: str | None, data: bytes, place: tuple[str, int, int] | None = None) -> Row:
    """What a writer records of `data`, written at `path` from inputs of `key` (in a tar: at `place`,
    builder.engine.written)."""
    return (path, key, *(place or (None, None, None)), *weigh(path, data), sha256_hex(data))


class Writer:
    """Common bookkeeping: the set of paths claimed."""

    def __init__(self) -> None:
        self.paths = Claims()
        """Every path claimed (`reserve`), each once (builder.engine.claims)."""
        self.held: set[str] = set()
        """Paths claimed now and written last (`hold`, `fill`)."""
        self.adopted: list[Path] = []
        """The files that list what workers wrote, with their checks (`adopt`, builder.engine.written)."""
        self._removal: threading.Thread | None = None

    def _remove_later(self, *folders: Path) -> None:
        """Removes `folders` (staging folders: builder.engine.output) in a background thread after
        a commit; `finish()` waits for it."""

        def remove() -> None:
            for folder in folders:
                remove_staging(folder)

        self._removal = threading.Thread(target=remove)
        self._removal.start()

    def finish(self) -> None:
        """Waits until what the commit left over is removed."""
        if self._removal is not None:
            self._removal.join()
            self._removal = None

    def write(self, path: str, content: str | bytes, key: str | None = None) -> None:
        """Writes `content` at `path`; `key`: that of its inputs (builder.engine.incremental), which
        the ledger records, or None: the next build renders it again."""
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.reserve(path)
        self._store(path, data, key)

    def reserve(self, path: str) -> None:
        """Claims `path` for one output; a second claim is a build error."""
        check_output_path(path)
        if not self.paths.claim(path):
            raise DuplicateOutput(f"two outputs want the same path: {path}")

    def hold(self, path: str) -> None:
        """Claims `path` for an output written last (`fill`): build-report.json, which holds
        what the rest of the site weighs."""
        self.reserve(path)
        self.held.add(path)

    def fill(self, path: str, content: str | bytes) -> None:
        """Writes the output `path` was held for (`hold`)."""
        self.held.remove(path)
        self._store(path, content.encode("utf-8") if isinstance(content, str) else content, None)

    def _store(self, path: str, data: bytes, key: str | None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # What the build asks of every writer (builder.build), with what a writer that keeps nothing on
    # disk answers: it has no previous site to lend from, no staging folder for workers, the search
    # index or a scratch folder, and nothing to swap in.
    kind = "memory"
    out: Path | None = None
    """Where the site is published and the previous build's lies (None: nowhere)."""
    staging: Path | None = None
    """The folder the site is put together in, where the search index is written (None: none)."""
    previous_size: int | None = None
    size: int | None = None
    """A tar's size, which the ledger records (builder.engine.ledger)."""

    def worker_spec(self) -> tuple[str, Path, Path] | None:
        """Where a worker writes and lends from (builder.engine.artifact.open_worker_writer): the
        writer's kind, its staging folder and the previous site. None: workers cannot, and
        everything is rendered in the build's process."""
        return None

    def reuse(self, row: Row) -> bool:
        """Lends the previous build's output the ledger's `row` describes: never, without one."""
        return False

    def adopt(self, files: list[Path]) -> None:
        """Takes in the files that list what a worker wrote, for paths this writer had reserved
        (none write without a `worker_spec`): a folder's files are in its staging folder already, a
        tar's are copied from the worker's segment when it is assembled."""
        self.adopted.extend(f for f in files if f not in self.adopted)

    def add_tree(self, prefix: str, folder: Path) -> None:
        """Takes in a folder written beside the writer (the search index's): already in place
        where the writer writes into a folder."""

    def assemble(self) -> None:
        """Puts the written files together, where there is more to do than write them (a tar)."""

    def written_rows(self) -> Iterator[Row]:  # pragma: no cover - abstract
        """Every file written or lent, sorted by path (builder.engine.written): what the ledger
        records and what the site weighs."""
        raise NotImplementedError

    def published(self, trees: Iterable[str] = ()) -> Iterator[Published]:
        """Every file of the site, sorted by path, with its SHA-256 and size (the manifest's): as the
        writer recorded each one it wrote or lent (`written_rows`)."""
        return ((row[0], row[-1], row[5]) for row in self.written_rows())

    def commit(self) -> None:
        """Publishes what was written."""

    def abort(self) -> None:
        """Drops what was written."""


class MemoryWriter(Writer):
    """Keeps the site in a dict (`files`): a build in memory, as the tests make (builder.build.build)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, bytes] = {}

    def _store(self, path: str, data: bytes, key: str | None) -> None:
        self.files[path] = data

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8")

    def written_rows(self) -> Iterator[Row]:
        for path in sorted(self.files):
            yield written_row(path, None, self.files[path])


class RawFolderWriter(Writer):
    """Writes into the folder `root` with no bookkeeping across processes: used by the reader
    workers, for paths the build's writer has already reserved and checked. It writes through
    `Writer.write` all the same, so every path a worker writes is claimed (`reserve`) in the worker
    too. Each file written is recorded in a log of its own in the scratch folder beside `root`
    (builder.engine.written), named `name`."""

    def __init__(self, root: Path, previous: Path | None = None, name: str | None = None) -> None:
        super().__init__()
        self.root = root
        self.previous = previous
        """The previous site, which `reuse` lends from."""
        self._made: set[str] = set()
        self.written = WrittenLog(root.parent / "scratch", name or str(os.getpid()))

    def _store(self, path: str, data: bytes, key: str | None) -> None:
        self._make_folder(path)
        with open(self.root / path, "wb") as handle:
            handle.write(data)
        self.written.add(written_row(path, key, data))

    def _make_folder(self, path: str) -> None:
        """Makes the folder of `path` in `root`, the first time one of its files is written there."""
        folder = os.path.dirname(path)
        if folder and folder not in self._made:
            os.makedirs(self.root / folder, exist_ok=True)
            self._made.add(folder)

    def reuse(self, row: Row) -> bool:
        """Claims the path of the ledger's `row` and fills it with the previous build's file, if its
        bytes still have the SHA-256 the ledger recorded: a hard link where the filesystem allows one
        (the old site sits beside the staging folder), a copy otherwise. False (nothing claimed)
        when the file is gone or was changed since: it is rendered again."""
        if self.previous is None:
            return False
        path, source = row[0], self.previous / row[0]
        try:
            handle = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return False
        with os.fdopen(handle, "rb") as file:
            data = file.read()
        if sha256_hex(data) != row[-1]:
            return False
        self._make_folder(path)
        try:
            os.link(source, self.root / path)
        except OSError:
            (self.root / path).write_bytes(data)
        self.reserve(path)
        self.written.add(row)
        return True

    def drain(self) -> list[Path]:
        """The files are in the shared staging folder already: what goes back is the name of the
        file that lists each one's check (builder.engine.written)."""
        return self.written.files()

    def close(self) -> None:
        self.written.close()


class FolderWriter(RawFolderWriter):
    """Writes the site into `site/` inside a marked staging folder `.<name>.tmp-*` beside `out`,
    lending from the previous site at `out`; `commit()` swaps it into place. `out` must have been
    checked and locked (builder.engine.output)."""

    def __init__(self, out: Path) -> None:
        self.out: Path = out.resolve()
        self.staging_root = make_staging(self.out, "tmp")
        self.staging: Path = self.staging_root / "site"
        # mkdtemp makes its folder private; the site root must be readable by the web server and by
        # GitHub Pages, which refuses artifacts with unreadable folders.
        self.staging.mkdir(mode=0o755)
        os.chmod(self.staging, 0o755)
        super().__init__(self.staging, self.out, "main")
        self.scratch = self.staging_root / "scratch"

    kind = "folder"

    def written_rows(self) -> Iterator[Row]:
        """Every file written or lent, sorted by path (builder.engine.written): what the ledger
        records for the next build."""
        return sorted_rows([*self.written.files(), *self.adopted], self.scratch)

    def worker_spec(self) -> tuple[str, Path, Path]:
        """Where a worker writes (builder.engine.artifact.open_worker_writer): straight into the
        staging folder, the paths reserved here first; and lends from: the previous site."""
        return ("folder", self.staging, self.out)

    def published(self, trees: Iterable[str] = ()) -> Iterator[Published]:
        """Every file of the site, sorted by path, with the SHA-256 of its bytes and its size: what
        was written or lent as the writer recorded it, and the files of `trees` (folders the search
        index was written into, not through the writer), read back (builder.engine.published)."""
        read = sorted(row for tree in trees for row in folder_files(self.staging / tree, prefix=f"{tree}/"))
        return heapq.merge(super().published(), read)

    def commit(self) -> None:
        """Swap the finished site in. The old site is moved aside first (into a marked folder of
        its own) and removed only after the new one is in place, so at every instant one whole
        site exists at `out` or beside it."""
        old = None
        if os.path.lexists(self.out):
            old = make_staging(self.out, "old")
            os.replace(self.out, old / "site")
        self.written.close()
        os.replace(self.staging, self.out)
        self._remove_later(*(folder for folder in (old, self.staging_root) if folder is not None))

    def abort(self) -> None:
        try:
            with contextlib.suppress(OSError):  # a full disk: what it kept the log from taking goes too
                self.written.close()
        finally:
            remove_staging(self.staging_root)
