"""All output goes through one writer.

- It refuses to write the same path twice, so two names that map to one slug are a build error,
  not a page silently overwritten.
- It refuses any path that would leave the output folder.
- It writes into a temporary folder beside the output and swaps it in only when the build is
  complete, so a failed or interrupted build leaves the previous site whole.
- What the swap leaves over (the previous site, the staging area) is removed in the background:
  freeing a registry-sized site takes seconds, which the build spends on its last bookkeeping.
- `MemoryWriter` keeps files in a dict, for tests.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

from builder.urls import check_output_path


class DuplicateOutput(Exception):
    pass


class Writer:
    """Common bookkeeping: the set of paths written, in the order written."""

    def __init__(self) -> None:
        self.paths: dict[str, int] = {}
        self._removal: threading.Thread | None = None

    def _remove_later(self, folder: Path) -> None:
        """Removes `folder` in a background thread after a commit; `finish()` waits for it."""
        self._removal = threading.Thread(target=shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True})
        self._removal.start()

    def finish(self) -> None:
        """Waits until what the commit left over is removed."""
        if self._removal is not None:
            self._removal.join()
            self._removal = None

    def write(self, path: str, content: str | bytes) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.reserve(path, len(data))
        self._store(path, data)

    def reserve(self, path: str, size: int = 0) -> None:
        """Claims `path` for one output; a second claim is a build error."""
        check_output_path(path)
        if path in self.paths:
            raise DuplicateOutput(f"two outputs want the same path: {path}")
        self.paths[path] = size

    def copy(self, path: str, source: Path) -> None:
        self.write(path, source.read_bytes())

    def _store(self, path: str, data: bytes) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def exists(self, path: str) -> bool:
        return path in self.paths


class MemoryWriter(Writer):
    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, bytes] = {}

    def _store(self, path: str, data: bytes) -> None:
        self.files[path] = data

    def text(self, path: str) -> str:
        return self.files[path].decode("utf-8")


class RawFolderWriter(Writer):
    """Writes into a folder with no bookkeeping across processes: used by the render workers, for
    paths the parent's writer has already reserved and checked."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self._made: set[str] = set()

    def write(self, path: str, content: str | bytes) -> None:
        check_output_path(path)
        self._store(path, content.encode("utf-8") if isinstance(content, str) else content)

    def _store(self, path: str, data: bytes) -> None:
        folder = os.path.dirname(path)
        if folder and folder not in self._made:
            os.makedirs(self.root / folder, exist_ok=True)
            self._made.add(folder)
        with open(self.root / path, "wb") as handle:
            handle.write(data)

    def drain(self) -> list[tuple[str, tuple[str, int, int]]]:
        """Nothing to hand back: the files are in the shared staging folder already."""
        return []

    def close(self) -> None:
        pass


def remove_leftovers(out: Path, *kinds: str) -> None:
    """Folders beside `out` (`.<name>.<kind>-*`) of builds that were killed before they could clean up."""
    for kind in kinds:
        for leftover in out.parent.glob(f".{out.name}.{kind}-*"):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)


class FolderWriter(Writer):
    """Writes into `<out>.tmp-*` beside `out`; `commit()` swaps it into place."""

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out.resolve()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(self.out, "tmp", "old")
        self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.tmp-", dir=self.out.parent))
        # mkdtemp makes the folder private; the site root must be readable by the web server and by
        # GitHub Pages, which refuses artifacts with unreadable folders.
        os.chmod(self.staging, 0o755)
        self._made: set[str] = set()

    def _store(self, path: str, data: bytes) -> None:
        target = self.staging / path
        folder = os.path.dirname(path)
        if folder and folder not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(folder)
        with open(target, "wb") as handle:
            handle.write(data)

    def has_previous(self, path: str) -> bool:
        return (self.out / path).is_file()

    def worker_writer(self) -> RawFolderWriter:
        """The writer a forked render worker uses: straight into the staging folder."""
        return RawFolderWriter(self.staging)

    def worker_spec(self) -> tuple[str, Path]:
        return ("folder", self.staging)

    def adopt(self, entries: object) -> None:
        """Workers' files are in the staging folder already: nothing to record."""

    def reuse(self, path: str) -> None:
        """Claims `path` and fills it with the previous build's file: a hard link where the
        filesystem allows one (the old site sits beside the staging folder), a copy otherwise."""
        source = self.out / path
        self.reserve(path, source.stat().st_size)
        target = self.staging / path
        folder = os.path.dirname(path)
        if folder and folder not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(folder)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)

    def commit(self) -> None:
        """Swap the finished site in. The old site is moved aside first and removed only after
        the new one is in place, so at every instant one whole site exists at `out` or beside it."""
        old = None
        if self.out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.old-", dir=self.out.parent))
            os.rmdir(old)
            os.replace(self.out, old)
        os.replace(self.staging, self.out)
        if old is not None:
            self._remove_later(old)

    def abort(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)
