"""The build's one executor: forked worker processes, each with a state of its own.

Every use of other processes in a build goes through `Workers`: a grading system whose records
plan outputs of their own (builder.engine.records: TDQS's) forks them *before* reading, hands them
chunks of its corpus with `share` and later has each render the outputs it read (`start_each`,
`collect`: worker affinity, so a worker renders from what it holds). Every other output is rendered
in the build's process (builder.build).

It is made of the standard library's `concurrent.futures.ProcessPoolExecutor`, one executor of one
process per worker (which gives affinity: a task given to worker i runs in worker i), with the
fork context. What it adds to the standard library:

- every worker is forked when `Workers` is made, before any executor's manager thread exists: a
  process forked while another thread runs may inherit a lock that thread held (CPython's own
  guard, gh-90622, covers one executor, not several; Python 3.12 and later warn about any such
  fork). So the build forks them while it has no other thread and no pipe: before DuckDB is
  opened (its threads) and before Pagefind starts (its threads, and its input pipe, which a worker
  holding it open would keep from ever ending). A build called from a thread (`serve --watch`
  rebuilds in a process of its own instead) or from a process with threads of its own should ask
  for one worker, which forks nothing; the tests count the threads at every fork
  (tests/fork_guard.py);
- each worker dies with the build (`die_with_parent`);
- a task is a module-level function of (the worker's own state, the argument); after each task the
  worker collects its garbage and freezes what is left (builder.engine.heap), as the state lives on;
- a task's exception reaches the caller as `WorkerError` carrying the worker's traceback (the
  exception itself need not be picklable); an `OSError` (a full disk, a read-only folder) as an
  `OSError` of the same number and files, which the command says in one line as it says its own;
- `share` yields results in the order of the arguments, each as soon as it and those before it are
  back, so the caller takes in the first results while the workers go on with the rest.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from builder.engine.heap import release, settle

Task = Callable[[dict[str, Any], Any], Any]
"""A module-level function run in a worker: (the worker's own state, the argument) → result."""

PR_SET_PDEATHSIG = 1


class WorkerError(RuntimeError):
    """A worker's task raised (the message carries the worker's traceback), or a worker died."""


def die_with_parent(parent: int) -> None:
    """A worker must not outlive a killed build: it would go on writing into the staging folder
    that the next build is clearing away. Linux kills it when the build dies. SIGTERM
    and SIGHUP end a worker at once (the build's own handler, inherited through fork, is for the
    build's process)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the build died before the line above took effect
        os._exit(1)


_STATE: dict[str, Any] = {}
"""In a worker: its own state, handed to every task it runs."""


def _run(task: Task, argument: Any) -> tuple[bool, Any]:
    """In a worker: runs `task`; returns (True, its result) or (False, the traceback), for an
    OSError (False, (the traceback, its number, its reason, its two files))."""
    try:
        reply: tuple[bool, Any] = (True, task(_STATE, argument))
    except OSError as error:
        reply = (False, (traceback.format_exc(), error.errno, error.strerror or str(error), error.filename,
                          error.filename2))
    except BaseException:
        reply = (False, traceback.format_exc())
    del task, argument
    gc.collect()  # the task's garbage cycles (only its own objects are walked), or they are frozen for good
    settle()  # what the task left in the state stays for the worker's life (builder.engine.heap)
    release()  # and what the task freed goes back to the system
    return reply


class Workers:
    """`count` forked worker processes (see the module's docstring); `close()` ends them."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("fork")
        self.count = count
        self._executors = [
            ProcessPoolExecutor(1, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),))
            for _ in range(count)
        ]
        self._running: list[Future[Any] | None] = [None] * count
        """Each worker's latest task: a worker still running one when closed is killed."""
        self._collecting: list[Future[Any]] = []
        try:
            for executor in self._executors:  # every fork before any manager thread starts
                executor._launch_processes()  # type: ignore[attr-defined]  # what submit() does first
            started = [executor.submit(os.getpid) for executor in self._executors]
            self.pids: list[int] = [future.result() for future in started]
            """Each worker's process id."""
        except BaseException:
            for executor in self._executors:
                executor.shutdown(wait=True, cancel_futures=True)
            raise

    def _submit(self, worker: int, task: Task, argument: Any) -> Future[Any]:
        try:
            future = self._executors[worker].submit(_run, task, argument)
        except BrokenProcessPool as error:
            raise WorkerError(f"worker {worker} died") from error
        self._running[worker] = future
        return future

    def _result(self, worker: int, future: Future[Any]) -> Any:
        try:
            ok, value = future.result()
        except BrokenProcessPool as error:
            raise WorkerError(f"worker {worker} died") from error
        if not ok:
            if isinstance(value, tuple):  # an OSError (`_run`)
                told, number, reason, filename, filename2 = value
                raise OSError(number, reason, filename, None, filename2) from WorkerError(
                    f"worker {worker} failed:\n{told}")
            raise WorkerError(f"worker {worker} failed:\n{value}")
        return value

    def share(self, task: Task, arguments: Iterable[Any]) -> Iterator[tuple[int, Any]]:
        """Runs `task` once per argument, each on whichever worker is free; yields (worker, result)
        in the order of `arguments`, each as soon as it and those before it are back, so the caller
        takes in the first results while the workers go on with the rest."""
        pending = list(arguments)
        done: dict[int, tuple[int, Any]] = {}
        busy: dict[Future[Any], tuple[int, int]] = {}  # → (worker, argument position)
        free = list(range(self.count))
        sent = given = 0
        while given < len(pending):
            while free and sent < len(pending):
                worker = free.pop(0)
                busy[self._submit(worker, task, pending[sent])] = (worker, sent)
                sent += 1
            if given not in done:
                finished, _ = wait(busy, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: busy[f][0]):
                    worker, position = busy.pop(future)
                    done[position] = (worker, self._result(worker, future))
                    free.append(worker)
                free.sort()
                continue  # hand the free workers more before yielding
            while given in done:
                yield done.pop(given)
                given += 1

    def start_each(self, task: Task, arguments: list[Any]) -> None:
        """Starts `task` on every worker, worker i with `arguments[i]`; `collect` gets the results."""
        if len(arguments) != self.count:
            raise ValueError(f"{len(arguments)} arguments for {self.count} workers")
        self._collecting = [self._submit(worker, task, argument) for worker, argument in enumerate(arguments)]

    def collect(self) -> list[Any]:
        """What `start_each` started, worker by worker."""
        collecting, self._collecting = self._collecting, []
        return [self._result(worker, future) for worker, future in enumerate(collecting)]

    def close(self) -> None:
        """Ends the workers: an idle one when it reads the end of its work, one still running a
        task (the build failed meanwhile) at once."""
        for worker, future in enumerate(self._running):
            if future is not None and not future.done():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pids[worker], signal.SIGKILL)
        for executor in self._executors:
            executor.shutdown(wait=True, cancel_futures=True)
        self._executors = []
        self._running = []
        self._collecting = []
