"""Worker processes that own part of the input, from reading it to rendering its pages.

A registry's load is mostly validation, and a validated server is costly to hand between
processes (pickling one costs more than reading it). So the build forks its workers *before*
reading: each worker reads and validates the servers it is given, hands the parent only small
summaries (builder.tdqs.pages.summary), and later renders those servers' pages itself (reading
their files again rather than holding them). Reading then uses every core, and no process ever
holds the whole parsed registry.

`Owners` is the plumbing only: forked processes, one pipe each, that run module-level functions
on a state of their own. Work is handed out one chunk at a time to whichever worker is free, and
results come back in the order the chunks were given, so what the parent builds from them does
not depend on which worker was faster.
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
from multiprocessing.connection import Connection, wait
from typing import Any

from builder.engine.heap import settle

Task = Callable[[dict[str, Any], Any], Any]
"""A module-level function run in a worker: (the worker's own state, the argument) → result."""

PR_SET_PDEATHSIG = 1


class OwnerError(RuntimeError):
    """A worker's task raised; the message carries the worker's traceback."""


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


def _serve(connection: Connection, parent: int) -> None:
    die_with_parent(parent)
    state: dict[str, Any] = {}
    while True:
        try:
            message = connection.recv()
        except EOFError:
            break
        if message is None:
            break
        task, argument = message
        try:
            reply = (True, task(state, argument))
        except BaseException:
            reply = (False, traceback.format_exc())
        connection.send(reply)
        del task, argument, reply
        gc.collect()  # the task's garbage cycles (only its own objects are walked), or they are frozen for good
        settle()  # what the task left in `state` stays for the worker's life (builder.engine.heap)
    connection.close()
    os._exit(0)


class Owners:
    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("fork")
        self.count = count
        self.planned: list[Any] = []
        """The outputs these workers hold (builder.pages.page.Owned), set by whoever gave them work."""
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
            process.start()
            theirs.close()
            self._connections.append(mine)
            self._processes.append(process)

    def _receive(self, worker: int) -> Any:
        try:
            ok, value = self._connections[worker].recv()
        except EOFError as error:
            raise OwnerError(f"worker {worker} died") from error
        if not ok:
            raise OwnerError(f"worker {worker} failed:\n{value}")
        return value

    def share(self, task: Task, arguments: Iterable[Any]) -> Iterator[tuple[int, Any]]:
        """Runs `task` once per argument, each on whichever worker is free; yields (worker, result)
        in the order of `arguments`, each as soon as it and those before it are back, so the caller
        takes in the first results while the workers go on with the rest."""
        pending = list(arguments)
        done: dict[int, tuple[int, Any]] = {}
        busy: dict[int, int] = {}  # worker → argument position
        sent = given = 0
        while given < len(pending):
            for worker in range(self.count):
                if worker not in busy and sent < len(pending):
                    self._connections[worker].send((task, pending[sent]))
                    busy[worker] = sent
                    sent += 1
            if given not in done:
                for connection in wait([self._connections[worker] for worker in busy]):
                    worker = self._connections.index(connection)  # type: ignore[arg-type]
                    done[busy.pop(worker)] = (worker, self._receive(worker))
                continue  # hand the free workers more before yielding
            while given in done:
                yield done.pop(given)
                given += 1

    def start_each(self, task: Task, arguments: list[Any]) -> None:
        """Starts `task` on every worker, worker i with `arguments[i]`; `collect` gets the results."""
        for connection, argument in zip(self._connections, arguments, strict=True):
            connection.send((task, argument))

    def collect(self) -> list[Any]:
        return [self._receive(worker) for worker in range(self.count)]

    def close(self) -> None:
        for connection in self._connections:
            with contextlib.suppress(OSError, ValueError):
                connection.send(None)
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for connection in self._connections:
            connection.close()
        self._connections = []
        self._processes = []
