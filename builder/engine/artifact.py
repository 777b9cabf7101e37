"""The site written straight into a GitHub Pages artifact: one tar file instead of a folder.

GitHub Pages deploys a tar (`actions/upload-pages-artifact` packs one from a folder). At registry
scale, creating a quarter of a million small files and folders costs more than rendering them,
and deleting the previous site costs as much again; a tar is one sequential file.

- Every member is first appended to a *segment*: the parent process has one, each forked render
  worker its own, so workers never wait on each other. A member record is its tar header, its
  bytes and the padding to 512 bytes, exactly as it will stand in the tar.
- `assemble()` puts the tar together from every member stored so far, sorted by path, each
  folder's entry before its contents (as `tar` itself writes a folder), with fixed owner, mode and
  time so the same site gives the same bytes. The build calls it once the pages are written, while
  Pagefind is still indexing; `commit()` then adds what came later (the search index), sorted
  among itself, and moves the tar into place in one rename. A failed build leaves the previous
  tar whole.
- A rebuild lends unchanged members from the previous tar: the ledger (builder.engine.ledger)
  records where each member's record starts and how long it is, so reuse is a copy of those bytes
  (once they are checked: `PreviousTar.holds`).
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import os
import tarfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from builder.engine.output import make_staging, remove_staging
from builder.engine.published import Published
from builder.engine.write import RawFolderWriter, Writer, sha256_hex, written_row
from builder.engine.written import Row, WrittenLog, decode, encode, sorted_rows

BLOCK = 512
MTIME = 0
"""Members carry no build time: the same data gives the same tar."""

Entry = tuple[str, int, int]
"""Where a member's record is: (segment name, offset, length)."""
PREVIOUS = ":previous"


_AFTER_TYPE = b"\0" * 100 + tarfile.POSIX_MAGIC + b"\0" * (32 + 32 + 8 + 8 + 155 + 12)
"""A ustar header after its type flag: no link name, the magic, no owner names, no device
numbers, no prefix, and the padding to 512 bytes."""


_OWNER = b"0000000\0" * 2
_MTIME_FIELD = b"%011o\0" % MTIME
_FIXED_SUM = sum(_OWNER) + sum(_MTIME_FIELD) + sum(b" " * 8) + sum(_AFTER_TYPE)


def ustar_header(name: str, size: int, mode: int, kind: bytes) -> bytes:
    """The ustar header `tarfile` writes for a member with no owner and time `MTIME`, made
    directly: a registry's artifact has half a million of them, and `tarfile` takes 20 times as
    long. Names that do not fit ustar's 100-byte name field as ASCII go through `tarfile`."""
    encoded = name.encode("ascii", "replace")
    if len(name) > 100 or not name.isascii() or size >= 8**11:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime, info.type = size, mode, MTIME, kind
        try:
            return info.tobuf(tarfile.USTAR_FORMAT, "utf-8", "strict")
        except ValueError:  # a name too long for ustar's two fields: a pax header carries it
            return info.tobuf(tarfile.PAX_FORMAT, "utf-8", "strict")
    mode_field, size_field = b"%07o\0" % mode, b"%011o\0" % size
    # The checksum is the sum of the header's bytes with its own field as spaces: the fixed
    # fields' share is summed once (_FIXED_SUM), the rest here.
    checksum = _FIXED_SUM + sum(encoded) + sum(mode_field) + sum(size_field) + kind[0]
    return b"".join((
        encoded.ljust(100, b"\0"), mode_field, _OWNER, size_field, _MTIME_FIELD, b"%06o\0 " % checksum, kind,
        _AFTER_TYPE,
    ))


def member_record(path: str, data: bytes) -> bytes:
    padding = -len(data) % BLOCK
    return ustar_header(path, len(data), 0o644, tarfile.REGTYPE) + data + b"\0" * padding


def folder_record(path: str) -> bytes:
    return ustar_header(path + "/", 0, 0o755, tarfile.DIRTYPE)


class SegmentWriter(Writer):
    """Appends member records to one segment file and where each one is to a file of its own in
    the scratch folder (builder.engine.written). A render worker's writer: it writes through
    `Writer.write`, so each path is claimed (`reserve`) here as well as by the parent's writer."""

    def __init__(self, folder: Path, name: str, previous: Path | None = None) -> None:
        super().__init__()
        self.name = name
        self._file = open(folder / name, "ab")  # noqa: SIM115 - closed by close()
        self.written = WrittenLog(folder / "scratch", name)
        self.previous = PreviousTar(previous) if previous is not None else None
        """The previous tar, which `reuse` lends from."""

    def append(self, path: str, data: bytes) -> Entry:
        """Appends `path`'s member record; returns where it is."""
        record = member_record(path, data)
        entry = (self.name, self._file.tell(), len(record))
        self._file.write(record)
        return entry

    def _store(self, path: str, data: bytes, key: str | None) -> None:
        self.written.add(written_row(path, key, data, self.append(path, data)))

    def reuse(self, row: Row) -> bool:
        """As `TarWriter.reuse`, in a worker, for a path the build's writer claimed for it."""
        path, key, _, offset, length, size, gzipped, sha256 = row
        if self.previous is None or offset is None or length is None or not self.previous.holds(row):
            return False
        self.reserve(path)
        self.written.add((path, key, PREVIOUS, offset, length, size, gzipped, sha256))
        return True

    def flush(self) -> None:
        self._file.flush()

    def drain(self) -> list[Path]:
        """The file that lists the members written, with their checks (what a worker hands back)."""
        self.flush()
        return self.written.files()

    def close_previous(self) -> None:
        if self.previous is not None:
            self.previous.close()

    def close(self) -> None:
        with contextlib.ExitStack() as ending:  # each closed, even when one before it fails (a full disk)
            ending.callback(self.close_previous)
            ending.callback(self.written.close)
            self._file.close()


class PreviousTar:
    """The tar a rebuild lends members from, read `WINDOW` bytes at a time: members are lent in
    path order, which is the tar's, so a window read once serves the records of a run of them
    (hundreds of small pages) instead of a read each."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._descriptor: int | None = None
        self._window: tuple[int, bytes] = (0, b"")

    def holds(self, row: Row) -> bool:
        """Whether the member record where the ledger's `row` says it is (offset, length) is still
        the one written: the header of its path and size, bytes of the SHA-256 recorded, and the
        padding."""
        path, _, _, offset, length, size, _, sha256 = row
        if offset is None or length is None:
            return False
        try:
            record = self._record(offset, length)
        except OSError:
            return False
        header = ustar_header(path, size, 0o644, tarfile.REGTYPE)
        end = len(header) + size
        return (len(record) == length == end + -size % BLOCK and record.startswith(header)
                and hashlib.sha256(memoryview(record)[len(header):end]).hexdigest() == sha256
                and not any(memoryview(record)[end:]))

    def _record(self, offset: int, length: int) -> bytes:
        start, window = self._window
        if not (start <= offset and offset + length <= start + len(window)):
            if self._descriptor is None:
                self._descriptor = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            window = os.pread(self._descriptor, max(length, WINDOW), offset)
            start = offset
            self._window = (start, window)
        return window[offset - start : offset - start + length]

    def close(self) -> None:
        self._window = (0, b"")
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


WorkerSpec = tuple[str, Path, Path]
"""What a worker process needs to open its own writer into a build's staging area, from any
process (`open_worker_writer`): the kind (a tar segment of its own, or the staging folder itself),
the staging area, and the previous site, which it lends from (`reuse`)."""


def worker_scratch(spec: WorkerSpec) -> Path:
    """A folder in the build's staging area, outside the site, where a worker keeps what it hands
    the build's process by name (the links it found, builder.engine.links): removed with the
    staging area."""
    kind, staging, _ = spec
    return (staging if kind == "tar" else staging.parent) / "scratch"


def open_worker_writer(spec: WorkerSpec) -> SegmentWriter | RawFolderWriter:
    kind, staging, previous = spec
    if kind == "tar":
        return SegmentWriter(staging, f"segment-{os.getpid()}", previous)
    return RawFolderWriter(staging, previous)


class TarWriter(Writer):
    """Writes the site into `out` (a `.tar`), through segments in a marked staging folder
    `.<name>.tmp-*` beside it. `out` must have been checked and locked (builder.engine.output)."""

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out: Path = out.resolve()
        self.staging: Path = make_staging(self.out, "tmp")
        self._segment = SegmentWriter(self.staging, "segment-main", self.out)
        """Where this process's outputs go, and what it lends from the previous tar (`reuse`)."""
        self._later: dict[str, Row] = {}
        """What was stored after `assemble` (the search index, the report, the manifest): a few thousand
        members' rows."""
        self.previous_size = self.out.stat().st_size if self.out.is_file() else None
        """The size of the tar a rebuild lends from, which its ledger must describe."""
        self.size: int | None = None
        """The tar's size, once committed."""
        self._assembly: _Assembly | None = None

    kind = "tar"

    def _store(self, path: str, data: bytes, key: str | None) -> None:
        if self._assembly is None:
            self._segment._store(path, data, key)
        else:
            # Its gzip size is not weighed here (the zero): the build weighs the search index from
            # Pagefind's folders, and the manifest is written after the report of what the site weighs.
            entry = self._segment.append(path, data)
            self._later[path] = (path, key, *entry, len(data), 0, sha256_hex(data))

    def reuse(self, row: Row) -> bool:
        """Claims the path of the ledger's `row` and takes its member record from the previous tar,
        where the row says it is, if it is still the one written (`PreviousTar.holds`); False
        (nothing claimed) when it is not: it is rendered again. The bytes read here are the ones
        `assemble` copies a moment later, so they are read from the page cache the second time."""
        if not self._segment.reuse(row):
            return False
        self.reserve(row[0])
        return True

    def worker_spec(self) -> WorkerSpec:
        """Where a worker writes (`open_worker_writer`): a segment of its own, the paths reserved
        here first; and lends from: the previous tar."""
        return ("tar", self.staging, self.out)

    def add_tree(self, prefix: str, folder: Path) -> None:
        """Every file under `folder`, as members under `prefix/` (the search index)."""
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            self.write(f"{prefix}/{path.relative_to(folder).as_posix()}", path.read_bytes())

    def assemble(self) -> None:
        """Writes every member stored so far into the tar being made. Members stored later (the
        search index) follow them in `commit()`: so the bulk of the tar is copied while Pagefind
        still runs, and a build always splits its members the same way, so it gives the same bytes."""
        if self._assembly is not None:
            raise RuntimeError("the tar is assembled once")
        files = [*self._segment.drain(), *self.adopted]
        self._assembly = _Assembly(self.staging / "site.tar", self.staging / "places.jsonl")
        written = self._assembly.add(sorted_rows(files, self.staging / "scratch"), self._source)
        self._assembly.end_places()
        if written + len(self.held) != len(self.paths):  # each path is reserved once, and written by whoever
            # reserved it (those held, `Writer.hold`, after this)
            raise RuntimeError(f"{len(self.paths):,} outputs were reserved but {written:,} written")

    def written_rows(self) -> Iterator[Row]:
        """Each member `assemble` put into the tar, with where its record is in the tar, sorted by
        path: what the ledger records for the next build (builder.engine.ledger)."""
        if self._assembly is None:
            return
        with open(self._assembly.places, encoding="utf-8") as file:
            for line in file:
                row = decode(line)
                assert row is not None  # written by `_Assembly` a moment ago
                yield row

    def published(self, trees: Iterable[str] = ()) -> Iterator[Published]:
        """Every member of the tar, sorted by path, with the SHA-256 of its bytes and its size, as
        they were recorded when written (the places of the first pass, then what came later: the
        search index, whose `trees` were written through this writer, and the report)."""
        later = sorted((row[0], row[-1], row[5]) for row in self._later.values())
        return heapq.merge(super().published(), later)

    def commit(self) -> None:
        """Writes what was stored since `assemble` (the search index, the report, the manifest) into
        the tar, in a pass of its own, sorted among itself; then moves the tar into place."""
        self._segment.close_previous()
        if self._assembly is None:
            self.assemble()
        assert self._assembly is not None
        self._segment.flush()
        later = [row for _, row in sorted(self._later.items())]
        self._assembly.add(later, self._source, earlier=(path for path in self.paths if path not in self._later))
        self._segment.close()
        assembly = self._assembly
        self.size = assembly.close()
        if self.out.exists():
            # A second name for the previous tar: the replace below then frees none of its blocks
            # (which takes seconds); they go with the staging folder, in the background.
            with contextlib.suppress(OSError):  # no hard links here: the replace frees them
                os.link(self.out, self.staging / "previous.tar")
        os.replace(assembly.target, self.out)
        self._remove_later(self.staging)

    def _source(self, name: str) -> Path:
        return self.out if name == PREVIOUS else self.staging / name

    def abort(self) -> None:
        """Drops what was written. What a full disk kept the files from taking is dropped with them:
        closing them may fail again, and the staging folder goes all the same."""
        try:
            with contextlib.suppress(OSError):
                self._segment.close()
            if self._assembly is not None:
                with contextlib.suppress(OSError):
                    self._assembly.close()
        finally:
            remove_staging(self.staging)


COPY = 1 << 20
"""Bytes read from a source at a time when the tar is assembled."""


WINDOW = 1 << 20
"""Bytes of the previous tar read at a time when members are lent from it (`TarWriter.reuse`)."""
IN_KERNEL = 1 << 20
"""The shortest run of bytes copied inside the kernel (`_copy`)."""


def _copy(source: int, start: int, end: int, target: BinaryIO) -> None:
    """Copies bytes `start` to `end` of the file open as `source` to `target`: inside the kernel
    where it can (`copy_file_range`: the bytes never pass through this process), else read and
    written a buffer at a time. A short run (most of a cold build's: a member or a few from one
    worker's segment) is cheaper read and written through the buffer."""
    try:
        if end - start >= IN_KERNEL:
            target.flush()
        while end - start >= IN_KERNEL:
            copied = os.copy_file_range(source, target.fileno(), end - start, start)
            if copied == 0:
                raise RuntimeError("a segment ends before the members it should hold")
            start += copied
    except OSError:
        pass  # no in-kernel copy between these files (another filesystem on an older kernel, say)
    while start < end:
        chunk = os.pread(source, min(COPY, end - start), start)
        if not chunk:
            raise RuntimeError("a segment ends before the members it should hold")
        target.write(chunk)
        start += len(chunk)


class _Assembly:
    """The tar being written, in passes: each pass writes its members sorted by path, each folder's
    record before its first member. Records that lie one after another in the same source (most
    of a rebuild's, lent by the previous tar, folder records included) are copied as one run.

    The members come as rows sorted by path (builder.engine.written, sorted by DuckDB), and where
    each member of the first pass landed goes straight to a file (`places`, one JSON line each,
    in the ledger's row: builder.engine.ledger), written as the tar is: nothing
    is held per member (the later pass, the search index, is never lent). Nor per folder: paths
    sorted, the members below a folder come one after another, so a folder's record was written in
    this pass exactly when it holds the path written before (`_last`)."""

    def __init__(self, target: Path, places: Path) -> None:
        self.target = target
        self.places = places
        self._position = 0
        self._tar: BinaryIO | None = open(target, "wb", buffering=1 << 20)  # noqa: SIM115 - closed by close()
        self._places: TextIO | None = open(places, "w", encoding="utf-8", buffering=1 << 20)  # noqa: SIM115 - closed by end_places()

    def end_places(self) -> None:
        """Closes the file of places: what later passes write is not listed."""
        if self._places is not None:
            places, self._places = self._places, None
            places.close()

    def add(self, rows: Iterable[Row], source: Callable[[str], Path], earlier: Iterable[str] | None = None) -> int:
        """Writes `rows` (sorted by path, builder.engine.written), reading each
        source file `source(name)`; returns how many. `earlier`: the paths of the passes before,
        whose folders' records are written already (then `rows` is read twice)."""
        assert self._tar is not None
        sources: dict[str, int] = {}
        try:
            before: set[str] = set()
            if earlier is not None:
                rows = list(rows)
                before = _folders_made(earlier, [row[0] for row in rows])
            return self._write(self._tar, rows, sources, source, before)
        finally:
            for descriptor in sources.values():
                os.close(descriptor)

    def _write(self, tar: BinaryIO, rows: Iterable[Row], sources: dict[str, int], source: Callable[[str], Path],
               before: set[str]) -> int:
        """Writes `rows` in their order (by path), each folder's records before its first member. Source
        bytes are read a buffer at a time (`_copy`), never mapped: a mapped source's pages count in
        the build's memory once read, up to the whole site (two gigabytes for a registry).
        `before`: folders whose records an earlier pass wrote."""
        places, position = self._places, self._position
        run_name, run_start, run_end = "", 0, 0  # the run of source bytes not yet written
        last: list[str] = []  # the folders of the path written before in this pass, outermost first

        def flush() -> None:
            if run_end > run_start:
                _copy(sources[run_name], run_start, run_end, tar)

        count = 0
        for path, key, name, offset, length, size, gzipped, sha256 in rows:
            if name is None or offset is None or length is None:
                raise RuntimeError(f"{path} was written with no place in the tar")
            if name not in sources:
                sources[name] = os.open(source(name), os.O_RDONLY)
            count += 1
            folder = path.rpartition("/")[0]
            parts = folder.split("/") if folder else []
            folders = ["/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]
            same = 0
            while same < min(len(folders), len(last)) and folders[same] == last[same]:
                same += 1
            records = [folder_record(f) for f in folders[same:] if f not in before]
            last = folders
            if records:
                block = b"".join(records)
                if run_name and os.pread(sources[run_name], len(block), run_end) == block:
                    run_end += len(block)
                else:
                    flush()
                    tar.write(block)
                    run_name, run_start, run_end = "", 0, 0
                position += len(block)
            if places is not None:
                places.write(encode((path, key, None, position, length, size, gzipped, sha256)))
            if name == run_name and offset == run_end:
                run_end += length
            else:
                flush()
                run_name, run_start, run_end = name, offset, offset + length
            position += length
        flush()
        self._position = position
        return count

    def close(self) -> int:
        """Ends the tar (two zero blocks, padded to a whole record); returns its size."""
        self.end_places()
        if self._tar is None:
            return 0
        tar, self._tar = self._tar, None
        with tar:
            end = b"\0" * (2 * BLOCK)
            end += b"\0" * (-(self._position + len(end)) % tarfile.RECORDSIZE)
            tar.write(end)
        return self._position + len(end)


def _folders_made(earlier: Iterable[str], entries: list[str]) -> set[str]:
    """Those folders of `entries`' paths that hold one of the `earlier` paths: their records
    were written with those paths. (Only a later pass has earlier paths: the search index's few.)"""
    wanted: set[str] = set()
    for path in entries:
        parts = path.split("/")[:-1]
        wanted.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    made: set[str] = set()
    if not wanted:
        return made
    for path in earlier:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in wanted:
                break
            made.add(folder)
    return made
