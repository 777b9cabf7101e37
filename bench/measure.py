"""Wall time and peak memory of a command's whole process tree, and the size of a built site.

Why poll `/proc` rather than trust one number: a build is a process tree (our build runs
Pagefind as a child, and may fork render workers; Hugo is one multi-threaded process), and
`getrusage` only reports the largest single process. So every `interval` seconds the poller
walks the tree below the command and sums each live process's RSS (`/proc/<pid>/status` VmRSS)
and PSS (`/proc/<pid>/smaps_rollup`, which splits pages shared between forked workers fairly).
The peak of each sum is reported; PSS is the figure compared, RSS is shown beside it. When
`/usr/bin/time` exists the command runs under it too, which adds the exact (unsampled) peak RSS
of the largest single process as a cross-check of the sampling. CPU time is exact: the kernel's
user and system seconds of the command and every descendant it waited for (`wait4`), which on a
2-core machine bounds how short the wall time can get.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GNU_TIME = "/usr/bin/time"


@dataclass(frozen=True)
class Run:
    """One measured command."""

    command: list[str]
    returncode: int
    wall: float
    """Seconds from start to exit."""
    peak_pss: int
    """Bytes: the largest sum of PSS over the process tree seen while it ran."""
    peak_rss: int
    """Bytes: the largest sum of RSS over the process tree (counts shared pages once per process)."""
    max_single_rss: int | None
    """Bytes: `/usr/bin/time`'s peak RSS of the largest single process, when available."""
    samples: int
    log: Path
    cpu: float | None = None
    """CPU seconds (user + system) of the command and the descendants it waited for."""


def _children() -> dict[int, list[int]]:
    """Parent pid → child pids, for every process on the machine."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the ppid follows the last ')'.
        fields = stat[stat.rfind(b")") + 2 :].split()
        tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def _descendants(root: int) -> list[int]:
    tree = _children()
    found, pending = [root], [root]
    while pending:
        for child in tree.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def _kib_field(path: str, name: bytes) -> int:
    """A `Name:   123 kB` line of a /proc file, in bytes; 0 if the process is gone."""
    try:
        with open(path, "rb") as handle:
            for line in handle:
                if line.startswith(name):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tree_memory(root: int) -> tuple[int, int]:
    """(sum of PSS, sum of RSS) in bytes over `root` and all its descendants now."""
    pss = rss = 0
    for pid in _descendants(root):
        pss += _kib_field(f"/proc/{pid}/smaps_rollup", b"Pss:")
        rss += _kib_field(f"/proc/{pid}/status", b"VmRSS:")
    return pss, rss


class _Poller(threading.Thread):
    def __init__(self, root: int, interval: float) -> None:
        super().__init__(daemon=True)
        self.root, self.interval = root, interval
        self.peak_pss = self.peak_rss = self.samples = 0
        self.timeline: list[tuple[float, int, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        started = time.perf_counter()
        while not self.done.is_set():
            pss, rss = tree_memory(self.root)
            self.peak_pss, self.peak_rss = max(self.peak_pss, pss), max(self.peak_rss, rss)
            self.samples += 1
            self.timeline.append((time.perf_counter() - started, pss, rss))
            self.done.wait(self.interval)


def measure(
    command: Sequence[str], log: Path, *, env: Mapping[str, str] | None = None,
    cwd: Path | None = None, interval: float = 0.1,
) -> Run:
    """Runs `command` with its output in `log`, and measures it. Never raises on a failing
    command: the caller decides what a non-zero exit means."""
    wrapped = list(command)
    timing_file: Path | None = None
    if Path(GNU_TIME).is_file():
        handle, name = tempfile.mkstemp(prefix="bench-time-", suffix=".txt")
        os.close(handle)
        timing_file = Path(name)
        wrapped = [GNU_TIME, "-f", "%M", "-o", str(timing_file), *command]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as output:
        started = time.perf_counter()
        process = subprocess.Popen(wrapped, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        poller = _Poller(process.pid, interval)
        poller.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        returncode = process.returncode = os.waitstatus_to_exitcode(status)
        poller.done.set()
        poller.join()
    single = None
    if timing_file is not None:
        text = timing_file.read_text(encoding="utf-8").strip().splitlines()
        timing_file.unlink()
        if text and text[-1].strip().isdigit():
            single = int(text[-1].strip()) * 1024
    _write_timeline(log.with_suffix(".memory.csv"), poller.timeline)
    return Run(list(command), returncode, wall, poller.peak_pss, poller.peak_rss, single, poller.samples, log,
               usage.ru_utime + usage.ru_stime)


def _write_timeline(path: Path, timeline: list[tuple[float, int, int]]) -> None:
    """Seconds since start, tree PSS and tree RSS in MiB, about once a second: which stage
    holds the memory can be read against the build's stage timings."""
    rows = ["seconds,pss_mib,rss_mib"]
    next_at = 0.0
    for at, pss, rss in timeline:
        if at >= next_at:
            rows.append(f"{at:.1f},{pss / 2**20:.0f},{rss / 2**20:.0f}")
            next_at = at + 1.0
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class SiteSize:
    apparent_bytes: int
    """`du -sb --apparent-size`: the sum of file (and folder) sizes; for a site written as an
    artifact tar, the tar's size."""
    disk_bytes: int
    """`du -s -B1`: blocks used on this filesystem (every small file rounds up to a block)."""
    tar_bytes: int
    """`tar -cf - .` of the folder (what actions/upload-pages-artifact packs), or the artifact tar."""
    gzip_bytes: int
    """The tar gzipped at level 6: the size of the artifact as uploaded."""
    files: int
    html_pages: int
    by_top: dict[str, int]
    """File bytes per top-level entry (`servers`, `badges`, `pagefind`, …)."""


def _du(folder: Path, *options: str) -> int:
    done = subprocess.run(["du", "-s", *options, str(folder)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


def _tar_bytes(folder: Path) -> int:
    with subprocess.Popen(["tar", "-cf", "-", "-C", str(folder), "."], stdout=subprocess.PIPE) as tar:
        assert tar.stdout is not None
        total = sum(len(block) for block in iter(lambda: tar.stdout.read(1 << 20), b""))
    if tar.returncode != 0:
        raise RuntimeError(f"tar failed on {folder}")
    return total


def _gzip_bytes(command: list[str]) -> int:
    """Bytes of `command`'s output gzipped at level 6, the compression the artifact upload uses;
    GitHub checks that uploaded size against Pages' 1 GB."""
    with subprocess.Popen(command, stdout=subprocess.PIPE) as source:
        done = subprocess.run(["gzip", "-6", "-c"], stdin=source.stdout, capture_output=True, check=True)
    return len(done.stdout)


def site_files(site: Path) -> list[tuple[str, int]]:
    """(path, size) of every file of a built site: a folder or an artifact tar."""
    if site.is_file():
        with tarfile.open(site) as tar:
            return [(member.name, member.size) for member in tar if member.isfile()]
    found = []
    for directory, _, names in os.walk(site):
        relative = Path(directory).relative_to(site)
        for name in names:
            found.append(((relative / name).as_posix(), os.lstat(os.path.join(directory, name)).st_size))
    return found


def build_weight(site: Path) -> dict[str, Any] | None:
    """What the build says the site weighs: the `size` section of its build-report.json (bytes,
    files, gzip size, and by kind: builder.engine.weight), from a folder or an artifact tar; None
    when there is none (a site built before the build weighed itself)."""
    if site.is_file():
        with tarfile.open(site) as tar:
            try:
                member = tar.extractfile("build-report.json")
            except KeyError:
                return None
            text = member.read() if member is not None else b"{}"
    else:
        path = site / "build-report.json"
        if not path.is_file():
            return None
        text = path.read_bytes()
    size: dict[str, Any] | None = json.loads(text).get("size")
    return size


def site_size(site: Path) -> SiteSize:
    """Sizes of a built site, a folder or an artifact tar. For a tar, the apparent size is the tar's."""
    files = html = 0
    by_top: dict[str, int] = {}
    for path, size in site_files(site):
        files += 1
        html += path.endswith(".html")
        top = path.split("/", 1)[0]
        by_top[top] = by_top.get(top, 0) + size
    if site.is_file():
        apparent = tar_bytes = site.stat().st_size
        gzip_bytes = _gzip_bytes(["cat", str(site)])
    else:
        apparent, tar_bytes = _du(site, "-b", "--apparent-size"), _tar_bytes(site)
        gzip_bytes = _gzip_bytes(["tar", "-cf", "-", "-C", str(site), "."])
    return SiteSize(
        apparent_bytes=apparent,
        disk_bytes=_du(site, "-B1"),
        tar_bytes=tar_bytes,
        gzip_bytes=gzip_bytes,
        files=files,
        html_pages=html,
        by_top=dict(sorted(by_top.items(), key=lambda kv: (-kv[1], kv[0]))),
    )


def load_average() -> tuple[float, float, float]:
    one, five, fifteen = os.getloadavg()
    return round(one, 2), round(five, 2), round(fifteen, 2)
