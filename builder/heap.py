"""The build's long-lived objects, kept out of the cycle collector's way.

A registry build holds millions of objects to its end: each worker its parsed servers, the build
its servers' summaries. Python's collector walks every tracked object on each full collection,
and full collections come more often as the heap grows: at a tenth of the registry that walking
took about a sixth of the build's CPU time. What the build keeps is moved out of the collector's
sight with `gc.freeze()` once made. Young garbage is collected as usual, and a frozen object that
is no longer referenced is still freed by its reference count."""

from __future__ import annotations

import atexit
import gc

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
