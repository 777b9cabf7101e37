"""The search documents of a data folder, written as files: what Pagefind indexes in a build, for
measuring Pagefind on its own (bench/registry.py's "Pagefind alone", bench/search_shards.py).

    python -m bench.search_source DATA SOURCE     # SOURCE: a new folder

The build keeps no search source between builds (it sends Pagefind the documents from one file in
its scratch folder: builder.engine.search); this reads and plans DATA as a build does
(builder.build.plan_site) and writes each document the build would index (the records' search
documents, builder.build.search_documents, and the pages Pagefind indexes, builder.build.indexed_pages)
at its page's path under SOURCE."""

from __future__ import annotations

import argparse
import os
import tempfile
from itertools import chain
from pathlib import Path

from builder.build import close, indexed_pages, plan_site, search_documents
from builder.engine.problems import ProblemLog
from builder.engine.render import Renderer
from builder.pages.page import Page
from builder.settings import find_settings, load_settings
from builder.systems import all_systems
from builder.urls import check_output_path


def write_search_source(data: Path, source: Path) -> int:
    """Writes DATA's search documents under `source` (a new folder); returns how many."""
    source.mkdir(parents=True)
    config = load_settings(find_settings(data, Path.cwd()), {}).site()
    with tempfile.TemporaryDirectory(prefix="search-source-") as cache:
        planned = plan_site(data, config, ProblemLog(), all_systems(), Path(cache), os.cpu_count() or 1)
        try:
            count = 0
            renderer = Renderer(config, planned.site)
            pages = indexed_pages(planned.present, planned.by_system)
            documents = chain(search_documents(planned.present),
                              ((o.path, renderer.render(o)) for o in planned.outputs if isinstance(o, Page) and o.path in pages))
            for path, html in documents:
                target = source / check_output_path(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(html, encoding="utf-8")
                count += 1
        finally:
            close(planned.present)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("source", type=Path)
    args = parser.parse_args()
    if args.source.exists():
        parser.error(f"{args.source} exists: give a new folder")
    print(f"{write_search_source(args.data, args.source):,} documents in {args.source}")


if __name__ == "__main__":
    main()
