"""Work a build hands to a thread of its own while it goes on (a system's gzipped downloads:
builder.tdqs.bulk), and the one rule for it: no such thread outlives the build, or runs while the
process forks.

- `submit` runs tasks in one thread, in the order they are asked for.
- `release`: every task is asked for; the thread ends once they are done.
- `finish` waits for every task and for the thread to end. The build calls it before it returns or
  raises (builder.build), so a failed build leaves nothing writing into a folder its caller then
  removes (`scorecards verify` and `diff` build into a temporary one); and the process calls it
  before it forks: a child must not inherit a DuckDB running in a thread, nor a thread at all.
  (A pool's idle thread lives on until the pool is shut down, and a generator a failed build left
  unfinished never does that.) A task asked for after that starts a thread again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

_pool: ThreadPoolExecutor | None = None
_ending: list[ThreadPoolExecutor] = []
"""Pools released whose thread may still be running their tasks."""


def submit(task: Callable[..., Any], *arguments: Any) -> Future[Any]:
    """Runs `task(*arguments)` in the background thread, after the tasks asked for before it."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scorecards-background")
    return _pool.submit(task, *arguments)


def release() -> None:
    """Every task is asked for: the thread ends once they are done."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False)
        _ending.append(_pool)
        _pool = None


def finish() -> None:
    """Every task done and the thread ended: a pool's shutdown that waits runs every task it was
    given first."""
    release()
    while _ending:
        _ending.pop().shutdown(wait=True)


os.register_at_fork(before=finish)
