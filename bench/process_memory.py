"""Whose memory makes a build's peak: every process of the tree's PSS, sampled twice a second.

    python bench/process_memory.py DATA OUT [--workers N] [--code CHECKOUT]

Runs `scorecards build DATA -o OUT` with this checkout's code (or CHECKOUT's, run with the Python
that runs this script) and prints, for the moment the
tree's PSS peaked and for each process's own peak, the PSS of the build's process, of each
worker and of Pagefind (the measure of bench/measure.py, split by process). A benchmark, not a
test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from bench.measure import _descendants, _kib_field  # noqa: E402

Sample = tuple[float, dict[int, int]]
"""Seconds since the start, and each live process's PSS in bytes."""


def _role(pid: int, root: int) -> str:
    if pid == root:
        return "build"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return f"gone {pid}"
    return "pagefind" if "pagefind" in command else f"worker {pid}"


def sample(root: int, interval: float, done: threading.Event, samples: list[Sample], roles: dict[int, str]) -> None:
    started = time.perf_counter()
    while not done.is_set():
        now: dict[int, int] = {}
        for pid in _descendants(root):
            pss = _kib_field(f"/proc/{pid}/smaps_rollup", b"Pss:")
            if pss:
                now[pid] = pss
                roles.setdefault(pid, _role(pid, root))
        samples.append((time.perf_counter() - started, now))
        done.wait(interval)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose builder runs")
    parser.add_argument("--timeline", type=Path, default=None,
                        help="also write every sample as CSV: seconds, then MiB per role (build, workers, pagefind)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    command = [sys.executable, "-m", "builder.cli", "build", str(Path(args.data).resolve()), "-o", str(out), "--quiet"]
    if args.workers:
        command += ["--workers", str(args.workers)]
    samples: list[Sample] = []
    roles: dict[int, str] = {}
    done = threading.Event()
    process = subprocess.Popen(command, cwd=args.code)
    poller = threading.Thread(target=sample, args=(process.pid, args.interval, done, samples, roles), daemon=True)
    poller.start()
    code = process.wait()
    done.set()
    poller.join()
    if not samples:
        return code
    mib = 1 << 20
    at, peak = max(samples, key=lambda s: sum(s[1].values()))
    print(f"exit {code}; {len(samples)} samples over {samples[-1][0]:.1f} s")
    print(f"tree peak {sum(peak.values()) / mib:,.0f} MiB at {at:.1f} s: "
          + ", ".join(f"{roles[pid]} {pss / mib:,.0f}" for pid, pss in sorted(peak.items())))
    own: dict[int, tuple[int, float]] = {}
    for when, now in samples:
        for pid, pss in now.items():
            if pss > own.get(pid, (0, 0.0))[0]:
                own[pid] = (pss, when)
    print("each process's own peak: " + ", ".join(
        f"{roles[pid]} {pss / mib:,.0f} MiB at {when:.1f} s" for pid, (pss, when) in sorted(own.items())))
    if args.timeline is not None:
        write_timeline(args.timeline, samples, roles)
    return code


def write_timeline(path: Path, samples: list[Sample], roles: dict[int, str]) -> None:
    """One row a sample: seconds, the tree's PSS, then the build's, the workers' (summed) and
    Pagefind's, in MiB."""
    mib = 1 << 20
    rows = ["seconds,tree,build,workers,pagefind"]
    for when, now in samples:
        parts = {"build": 0, "workers": 0, "pagefind": 0}
        for pid, pss in now.items():
            role = roles[pid]
            key = "build" if role == "build" else "pagefind" if role == "pagefind" else "workers"
            parts[key] += pss
        rows.append(f"{when:.1f},{sum(now.values()) / mib:.0f},"
                    + ",".join(f"{parts[k] / mib:.0f}" for k in ("build", "workers", "pagefind")))
    path.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
