"""The paths a writer has claimed, each once (builder.engine.write), in a fraction of the memory
of a set of strings.

A registry's build claims 352,000 paths in its own process, and each of its two workers claims
again the 176,000 it writes, all held to the end of the build (docs/performance.md, "Full over a
tenth"). Here each path is a 60-bit hash in a set of ints, and the paths themselves are kept in the
order claimed, `BLOCK` at a time, compressed: 29.1 MiB for the 351,963 paths of the full registry's
site, 14.7 MiB for half of them, where sets of the same strings took 49.8 and 24.9 MiB (measured
with `tracemalloc`). A hash already in the set is checked against the paths themselves, so two
paths are never taken for one.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

BLOCK = 1024
"""Paths compressed together: a block is read whole when a claimed path is looked for."""

_SEPARATOR = "\x00"
"""Between the paths of a block: no output path holds it (builder.urls.check_output_path)."""

_HASH_BITS = (1 << 60) - 1
"""A hash kept in 60 bits is an int of 32 bytes."""


class Claims:
    """Every path claimed so far, each once: `claim`, `in`, `len` and, in the order claimed, `iter`.
    A writer's, in the process it writes from: the hashes are this interpreter's (`hash`, salted per
    interpreter), so a `Claims` is not to be pickled into another."""

    def __init__(self) -> None:
        self._hashes: set[int] = set()
        self._blocks: list[bytes] = []
        self._recent: list[str] = []

    def claim(self, path: str) -> bool:
        """Claims `path`; False if it was claimed before."""
        if path in self:
            return False
        self._hashes.add(hash(path) & _HASH_BITS)
        self._recent.append(path)
        if len(self._recent) == BLOCK:
            self._blocks.append(zlib.compress(_SEPARATOR.join(self._recent).encode("utf-8", "surrogatepass"), 1))
            self._recent = []
        return True

    def __contains__(self, path: object) -> bool:
        return (isinstance(path, str) and hash(path) & _HASH_BITS in self._hashes
                and any(claimed == path for claimed in self))

    def __len__(self) -> int:
        return len(self._blocks) * BLOCK + len(self._recent)  # every block holds BLOCK paths

    def __iter__(self) -> Iterator[str]:
        for block in self._blocks:
            yield from zlib.decompress(block).decode("utf-8", "surrogatepass").split(_SEPARATOR)
        yield from self._recent
