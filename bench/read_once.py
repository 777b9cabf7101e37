"""What rendering a server's pages costs a worker before it renders them: reading its files again
(read, validate, plan: what workers did until issue 32) against loading the outputs it kept when it
read them (builder.engine.records: unpickling them from its own file).

    python bench/read_once.py DATA [--servers N]

CPU time (time.process_time: the machine is shared). For each server, in the data folder's order and alternating the two ways, as a worker does it:
the server read and planned once (the build's read), its outputs kept (resolved, pickled, appended:
the cost moved into the read), then the outputs made again both ways. Prints the mean per server of
each, and the bytes kept. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from builder.config import SiteConfig  # noqa: E402
from builder.engine.problems import ProblemLog  # noqa: E402
from builder.engine.records import _OutputStore, read_source  # noqa: E402
from builder.engine.render import Renderer  # noqa: E402
from builder.tdqs.pages.section import RECORDS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--servers", type=int, default=0, help="only the first N servers (0: all)")
    args = parser.parse_args(argv)
    config = SiteConfig()
    sources = RECORDS.discover(args.data, ProblemLog()) or []
    if args.servers:
        sources = sources[: args.servers]
    renderer = Renderer(config, {})
    keep = again = load = 0.0
    kept_bytes = counted = 0
    with tempfile.TemporaryDirectory(prefix="read-once-") as folder:
        store = _OutputStore(Path(folder))
        gc.freeze()  # as in a worker, what lives on is out of the collector's walks (builder.engine.heap)
        for source in sources:
            _, made = read_source(RECORDS, source, args.data, config, None, renderer)
            if not made:
                continue
            began = time.process_time()
            offset, length = store.append(made)
            kept = time.process_time()
            # Read again, validated and planned, as the workers did when they rendered.
            _, remade = read_source(RECORDS, source, args.data, config, None, None)
            read = time.process_time()
            loaded = store.load(offset, length)
            done = time.process_time()
            assert len(remade) == len(loaded) == len(made)
            keep += kept - began
            again += read - kept
            load += done - read
            kept_bytes += length
            counted += 1
            del made, remade, loaded
    print(f"servers: {counted:,} of {len(sources):,} (with outputs of their own)")
    print(f"read again (read, validate, plan): {again / counted * 1e3:7.2f} ms a server")
    print(f"load what was kept (unpickle):     {load / counted * 1e3:7.2f} ms a server")
    print(f"keep it when read (resolve, pickle, append): {keep / counted * 1e3:7.2f} ms a server, "
          f"{kept_bytes / counted / 1024:,.0f} KiB a server, {kept_bytes / 2**20:,.0f} MiB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
