"""Seeded randomness that never touches the global RNG.

Everything the demo draws comes from a `random.Random` built from a SHA-256 of the seed and a
purpose label, so one server's draws do not depend on how many draws another server made, on the
order workers finish in, or on anything else in the process. That is what makes a corpus
byte-identical however many workers wrote it.
"""

from __future__ import annotations

import hashlib
import random


def _digest(*parts: object) -> bytes:
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def derive_rng(*parts: object) -> random.Random:
    """A private generator for one purpose, e.g. `derive_rng(seed, "server", index)`."""
    return random.Random(int.from_bytes(_digest(*parts)[:16], "big"))


def hash_unit(*parts: object) -> float:
    """A uniform number in [0, 1) that is a pure function of its arguments."""
    return int.from_bytes(_digest(*parts)[:8], "big") / 2**64
