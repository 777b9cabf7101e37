"""Milliseconds to render one tool page, in a process holding a given corpus.

    python bench/render_cost.py DATA [--pages 8000]

Reads and plans DATA as a build does, then renders a random sample of its tool pages and the
first ones in output order, one process, no writing. Comparing a small corpus with the full
registry shows how much a page costs more when the whole parsed registry is in memory.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from builder.build import read_and_plan  # noqa: E402
from builder.config import SiteConfig  # noqa: E402
from builder.engine.render import Renderer  # noqa: E402
from builder.pages.page import Page  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--pages", type=int, default=8000)
    args = parser.parse_args(argv)
    model = read_and_plan(args.data, SiteConfig())
    renderer = Renderer(SiteConfig(), model.site)
    pages = [o for o in model.outputs if isinstance(o, Page) and "/tools/" in o.path]
    count = min(args.pages, len(pages))
    for page in pages[-200:]:  # warm-up: templates compiled, Markdown parser built
        renderer.render(page)
    for label, sample in (("random sample", random.Random(1).sample(pages, count)), ("in output order", pages[:count])):
        started = time.perf_counter()
        for page in sample:
            renderer.render(page)
        print(f"{label}: {(time.perf_counter() - started) / count * 1000:.2f} ms per tool page "
              f"({count:,} of {len(pages):,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
