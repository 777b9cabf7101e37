"""The build's own process through phase 1, stage by stage: resident memory after each.

    python bench/phase_memory.py DATA CACHE [--workers 2]

Reads DATA's TDQS servers as a build does (with `--workers` reading processes, the build cache in
CACHE: a second run takes the servers from it), loads the capped DuckDB store, makes each of the
section's corpus-wide outputs and closes the store, printing this process's RSS (`VmRSS`) after each
step. What a build's process holds of the corpus is what grows from one scale to the next; the
workers and Pagefind are measured by `bench/registry.py`. A benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from builder.config import SiteConfig  # noqa: E402
from builder.engine.problems import ProblemLog  # noqa: E402
from builder.engine.records import ReadContext, read_records  # noqa: E402
from builder.store.tables import opened  # noqa: E402
from builder.tdqs.bulk import bulk_files  # noqa: E402
from builder.tdqs.pages import publish  # noqa: E402
from builder.tdqs.pages.categories import categories_of  # noqa: E402
from builder.tdqs.pages.changes import changes_pages, every_change  # noqa: E402
from builder.tdqs.pages.home import home_page  # noqa: E402
from builder.tdqs.pages.section import RECORDS  # noqa: E402
from builder.tdqs.pages.server_list import list_entries, server_list_outputs  # noqa: E402


def rss_mib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("cache", type=Path, help="a build cache folder of yours (made if missing)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    config = SiteConfig()
    started = time.perf_counter()

    def say(stage: str, extra: str = "") -> None:
        gc.collect()
        print(f"{stage:<12} {rss_mib():>6} MiB  {time.perf_counter() - started:7.1f} s  {extra}", flush=True)

    say("start")
    records = read_records(RECORDS, ReadContext(args.data, ProblemLog(), config, args.cache, args.workers))
    if records is None:
        raise SystemExit(f"{args.data} has no TDQS servers")
    section = records.corpus
    try:
        say("read", f"{section.server_count:,} scored servers, {len(section.outputs):,} outputs planned")
        documents = sum(1 for _ in records.search_docs())
        say("search docs", f"{documents:,} read back from the spool")
        with opened(args.cache) as con:
            records.load(con)
            say("load")
            steps: list[tuple[str, Callable[[], Iterable[object]]]] = [
                ("home", lambda: [home_page(con, section, (entries := list_entries(con, section)),
                                            categories_of(entries), every_change(con))]),
                ("server list", lambda: server_list_outputs(con, section)),
                ("changes", lambda: changes_pages(every_change(con), section.stand_in_models)),
                ("bulk", lambda: bulk_files(con)),
                ("site feed", lambda: [publish.site_feed(every_change(con), config)]),
                ("badges", lambda: section.badges.files()),
            ]
            kept = []
            for name, make in steps:
                made = list(make())
                kept.extend(made)
                say(name, f"{len(made):,} outputs")
        say("store closed", f"{len(kept):,} corpus-wide outputs held")
    finally:
        if records.owners is not None:
            records.owners.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
