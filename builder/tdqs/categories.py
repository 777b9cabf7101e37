"""Server categories: what a server is for, as its `server.json` names it (`"categories":
["Issue tracking"]`), for pages that rank the servers of each.

Names are written by many hands, so `Issue tracking`, `issue tracking` and `Issue-tracking` are one
category: its key folds case, accents and punctuation (`issue-tracking`), and its page is shown
under the spelling most servers use (the first in code-point order on a tie).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from builder import urls

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def category_key(name: str) -> str:
    """`CI/CD` → `ci-cd`; a name with no Latin letter or digit keeps a hashed slug of itself."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    key = _NOT_WORD.sub("-", folded).strip("-")
    return key or urls.slug(name.casefold())


def spellings(names: Iterable[str]) -> dict[str, str]:
    """Each category key → the spelling it is shown under, from every server's categories."""
    counts = Counter(names)
    shown: dict[str, tuple[int, str]] = {}
    for name, count in counts.items():
        key = category_key(name)
        best = shown.get(key)
        if best is None or (-count, name) < (-best[0], best[1]):
            shown[key] = (count, name)
    return {key: name for key, (_, name) in shown.items()}


def category_slug(name: str) -> str:
    """The path segment of a category's pages: its key, which is already one unless it is long."""
    return urls.slug(category_key(name))
