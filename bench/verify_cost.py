"""What checking a rebuild's reused outputs costs, alone (`git show ff15eda:docs/performance.md`, issue 34).

    python bench/verify_cost.py SITE        # a folder or a .tar a build wrote, with its cache beside it

For every output the ledger (`.<SITE>.cache/ledger.jsonl`, builder.engine.ledger) lists, this does
what a rebuild's `reuse` does before lending it: for a folder, read the file and hash it; for a
tar, read the member's record (where the ledger says it is) and check it (`PreviousTar.holds`). For a folder it also
times the alternative, one `stat` per file (size, modification time, inode). Two passes each, so
the second reads a warm page cache. Prints wall and CPU seconds and how many checks did not match.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from builder.engine.artifact import PreviousTar  # noqa: E402
from builder.engine.write import sha256_hex  # noqa: E402
from builder.engine.written import Row, decode  # noqa: E402


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def _timed(label: str, work: Callable[[], tuple[int, int]]) -> None:
    wall, cpu = time.perf_counter(), _cpu()
    size, mismatches = work()
    print(f"{label}: {time.perf_counter() - wall:.2f} s wall, {_cpu() - cpu:.2f} s CPU, {size / 1e6:,.0f} MB, "
          f"{mismatches} mismatches")


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve()
    cache = out.parent / f".{out.name}.cache"
    lines = (cache / "ledger.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]  # header and trailer
    rows: list[Row] = [row for line in lines if (row := decode(line)) is not None]
    print(f"{out}: {len(rows):,} outputs in the ledger")
    if out.suffix == ".tar":
        def records() -> tuple[int, int]:
            previous = PreviousTar(out)
            mismatches = sum(not previous.holds(row) for row in rows)
            previous.close()
            return sum(row[4] or 0 for row in rows), mismatches

        for _ in range(2):
            _timed("tar: read and check every record", records)
        return 0

    def files() -> tuple[int, int]:
        size = mismatches = 0
        for row in rows:
            data = (out / row[0]).read_bytes()
            size += len(data)
            mismatches += sha256_hex(data) != row[-1]
        return size, mismatches

    def stats() -> tuple[int, int]:
        size = 0
        for row in rows:
            info = os.stat(out / row[0], follow_symlinks=False)
            size += info.st_size
        return size, 0

    for _ in range(2):
        _timed("folder: read and hash every file", files)
        _timed("folder: stat every file", stats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
