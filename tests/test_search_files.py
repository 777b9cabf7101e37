"""The search index written by the build is exactly the index Pagefind makes of the same documents,
as Pagefind's own Python client gets it, file for file and byte for byte, with no empty file (the
build once shipped an empty `wasm.unknown.pagefind` when Pagefind wrote the files itself)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pagefind.index import PagefindIndex

from builder.engine.search import SearchIndex

DOCS = {
    "servers/a/index.html": "<html lang='en'><body><main data-pagefind-body><h1>Alpha fetch</h1>"
                            "<p>Fetches a page &amp; more.</p></main></body></html>",
    "servers/b/index.html": "<html lang='en'><body><main data-pagefind-body><h1>Beta search</h1>"
                            "<p>Searches the web.</p></main></body></html>",
}


async def _reference(folder: Path) -> dict[str, bytes]:
    # The client writes the index when its context closes: into `folder`, never the current folder.
    async with PagefindIndex(config={"output_path": str(folder)}) as index:
        for path in sorted(DOCS):
            await index.add_html_file(content=DOCS[path], source_path=path)
        return {f["path"]: f["content"] for f in await index.get_files()}


def test_the_written_index_is_pagefinds_own_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    index = SearchIndex(tmp_path / "pagefind", tmp_path / "source" / "search-documents")
    index.add(DOCS.items())
    index.wait()
    written = {p.relative_to(tmp_path / "pagefind").as_posix(): p.read_bytes()
               for p in (tmp_path / "pagefind").rglob("*") if p.is_file()}
    expected = asyncio.run(_reference(tmp_path / "reference"))
    assert sorted(written) == sorted(expected)
    assert all(written[path] == expected[path] for path in expected)
    assert all(written.values()), [path for path, content in written.items() if not content]
