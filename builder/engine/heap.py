"""The build's long-lived objects, kept out of the cycle collector's way.

A registry build holds millions of objects to its end: each worker its parsed servers, the build
its outputs and where each tar member is. Python's collector walks every
tracked object on each full collection, and full collections come more often as the heap grows:
at a tenth of the registry that walking took about a sixth of the build's CPU time, and it made
dumping a list of the tar's 300,000 members three times as slow. What the build keeps is moved
out of the collector's sight with `gc.freeze()` once made. Young garbage is collected as usual,
and a frozen object that is no longer referenced is still freed by its reference count."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
from collections.abc import Callable, Iterator

_registered = False


def settle() -> None:
    """Everything alive now lives on: the collector no longer walks it (`gc.freeze`). At exit it
    is handed back, so the interpreter's last collection (and extension modules' leak checks, as
    DuckDB's) see it again."""
    global _registered
    if not _registered:
        atexit.register(gc.unfreeze)
        _registered = True
    gc.freeze()


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """A build inside a process that lives on (tests, `scorecards serve`): what it settled is
    handed back to the collector when it ends."""
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off for a bounded burst of short-lived objects (reading a chunk of sources,
    unpickling one source's outputs): they hold few cycles, and the collector's walks of them cost
    more than making them. Garbage cycles made meanwhile wait for the next collection (a worker
    collects after each task: builder.engine.workers)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, where the C library has it."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _malloc_trim()


def release() -> None:
    """Hands the C heap's free pages back to the system (glibc's `malloc_trim`). Rendering makes
    and frees strings of up to a few hundred kilobytes, and DuckDB's planning frees a great deal
    at once: freed, that memory stays the process's, spread over pages also in use, unless it is
    handed back. A registry build's workers otherwise grow with every page they render."""
    if _TRIM is not None:
        _TRIM(0)
