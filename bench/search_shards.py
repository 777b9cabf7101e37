"""Pagefind's peak memory and time over a kept search source, at a given shard size.

    python -m bench.search_shards SEARCH_SOURCE OUTPUT [--shard-docs N]

SEARCH_SOURCE is a folder of a data folder's search documents (`python -m bench.search_source DATA
SEARCH_SOURCE`); OUTPUT a new folder for the index. The index is made as the build makes it
(builder.engine.search.SearchIndex), and the figures are the children's: Pagefind is the only child, so
`ru_maxrss` of RUSAGE_CHILDREN is the peak resident memory of its largest run (one run per shard,
one after another). Run it once per process: the peak covers the whole process's life."""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from builder.engine.search import SHARD_DOCS, SearchIndex


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--shard-docs", type=int, default=SHARD_DOCS)
    args = parser.parse_args()
    if args.output.exists():
        parser.error(f"{args.output} exists: give a new folder")
    documents = sorted(p.relative_to(args.source).as_posix() for p in args.source.rglob("*") if p.is_file())
    with tempfile.TemporaryDirectory(prefix="search-shards-") as scratch:
        index = SearchIndex(args.output / "pagefind", Path(scratch) / "search-documents", args.shard_docs)
        index.add((path, (args.source / path).read_bytes()) for path in documents)
        started = time.perf_counter()
        index.wait()
        wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    size = sum(p.stat().st_size for p in args.output.rglob("*") if p.is_file())
    print(json.dumps({
        "documents": len(documents), "shard_docs": args.shard_docs, "shards": len(index.folders),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1), "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "index_mib": round(size / 2**20, 2),
    }))


if __name__ == "__main__":
    main()
