"""Forks only where safe (issue 46): a test fails when anything in it forks this process while a
thread is alive that was not there when the test process started (a build's Pagefind threads, a
DuckDB's, a served site's, a watcher's). The child of such a fork may inherit a lock another thread
held, or a pipe another thread writes (Pagefind's input, which then never ends): a hang.

CPython 3.12 and later warn about such a fork ("This process … is multi-threaded, use of fork() may
lead to deadlocks in the child"), but the warning cannot fail a test: posixmodule.c clears the
error that `-W error` makes of it, and under pytest-xdist every fork warns, as execnet's reader
thread is always there. So the suite counts the threads itself at each fork, against those the
test process started with, on every Python (3.11 too). Threads are counted as the kernel sees them
(`/proc/self/stat`, as CPython does), so a native library's threads count as well; where there is
no /proc (macOS), the threads Python knows of.

Run as a script, it guards a command run as the operator runs it: `python tests/fork_guard.py
builder.cli serve …` runs `python -m builder.cli serve …` with the count installed, and says each
unsafe fork on its standard error as it exits ("unsafe fork: …")."""

from __future__ import annotations

import os
import threading
import time
import traceback


def thread_count() -> int:
    """The threads of this process: the kernel's count on Linux, else the threading module's."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[17])  # field 20, num_threads (fields[0] is field 3, the state)
    except (OSError, IndexError, ValueError):
        return threading.active_count()


BASELINE = thread_count()
"""The threads the test process has before any test runs (xdist's worker: two, execnet's own)."""

forks = 0
"""Every fork of this process since `install`, safe or not."""

unsafe: list[str] = []
"""Each fork made while more threads were alive: the threads Python knows of and where it forked."""


def _settled_count() -> int:
    """The threads of this process, once a thread that is only ending has ended: `Thread.join()`
    returns when a thread's Python part is done, a moment before the kernel sees it go (a pool
    shut down just before, as the test before may have). Asked again for at most a tenth of a
    second while no thread Python knows of is left to explain the extra ones; a native thread that
    lives on (DuckDB's) is still counted."""
    count = thread_count()
    for _ in range(100):
        if count <= BASELINE or threading.active_count() > 1:
            break
        time.sleep(0.001)
        count = thread_count()
    return count


def _before_fork() -> None:
    global forks
    forks += 1
    count = _settled_count()
    if count > BASELINE:
        names = sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())
        where = "".join(traceback.format_stack(limit=12)[:-1])
        unsafe.append(f"forked with {count} threads (the test process started with {BASELINE}; "
                      f"Python's other threads: {names or 'none, so native ones'}) at\n{where}")


def install() -> None:
    """Counts the threads before every fork of this process from now on."""
    os.register_at_fork(before=_before_fork)


def taken() -> list[str]:
    """The unsafe forks recorded since the last call."""
    found = list(unsafe)
    unsafe.clear()
    return found


def _main() -> None:
    import atexit
    import runpy
    import sys

    install()
    atexit.register(lambda: [print(f"unsafe fork: {found}", file=sys.stderr, flush=True) for found in unsafe])
    module = sys.argv[1]
    sys.argv = [module, *sys.argv[2:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _main()
