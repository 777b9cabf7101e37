"""A search source past `shard_docs` documents is indexed in shards: consecutive runs of the sorted
documents, each a complete Pagefind index of its own (what the browser's `mergeIndex` loads), and
exactly the index Pagefind's own client makes of those documents. Up to `shard_docs` there is one
index, as before."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from pagefind.index import PagefindIndex

from builder.engine.search import SearchIndex


def doc(title: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><main data-pagefind-body><h1>{title}</h1><p>{title} fetches things.</p></main></body></html>")


DOCS = {f"servers/{name}/index.html": doc(name.capitalize()) for name in ["echo", "alpha", "delta", "charlie", "bravo"]}

# Sorted by path and cut every two documents, by hand.
SHARDS = {
    "pagefind": ["servers/alpha/index.html", "servers/bravo/index.html"],
    "pagefind-2": ["servers/charlie/index.html", "servers/delta/index.html"],
    "pagefind-3": ["servers/echo/index.html"],
}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def urls(folder: Path) -> list[str]:
    """The URL of every page the index at `folder` holds, read from its fragments (gzipped JSON
    after Pagefind's `pagefind_dcd` signature)."""
    fragments = [gzip.decompress(p.read_bytes()).removeprefix(b"pagefind_dcd") for p in (folder / "fragment").iterdir()]
    return sorted(json.loads(fragment)["url"] for fragment in fragments)


async def _reference(paths: list[str], folder: Path) -> dict[str, bytes]:
    async with PagefindIndex(config={"output_path": str(folder)}) as index:
        for path in paths:
            await index.add_html_file(content=DOCS[path], source_path=path)
        return {f["path"]: f["content"] for f in await index.get_files()}


def test_each_shard_is_pagefinds_own_complete_index_of_its_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    index = SearchIndex(site / "pagefind", tmp_path / "source" / "search-documents", shard_docs=2)
    index.add(DOCS.items())
    assert [folder.name for folder in index.folders] == list(SHARDS)
    index.start()
    index.wait()
    assert sorted(p.name for p in site.iterdir()) == sorted(SHARDS)
    for name, paths in SHARDS.items():
        written = files(site / name)
        for part in ["pagefind.js", "pagefind-entry.json", "wasm.unknown.pagefind"]:
            assert written.get(part), f"{name}/{part} missing or empty"
        assert urls(site / name) == ["/" + path.removesuffix("index.html") for path in paths]
        expected = asyncio.run(_reference(paths, tmp_path / "reference" / name))
        assert sorted(written) == sorted(expected), name
        assert all(written[path] == expected[path] for path in expected), name


def test_up_to_shard_docs_documents_make_one_index(tmp_path: Path) -> None:
    site = tmp_path / "site"
    index = SearchIndex(site / "pagefind", tmp_path / "source" / "search-documents", shard_docs=5)
    index.add(DOCS.items())
    index.wait()
    assert [p.name for p in site.iterdir()] == ["pagefind"]
    assert urls(site / "pagefind") == sorted("/" + path.removesuffix("index.html") for path in DOCS)


def test_a_shard_holds_at_least_one_document(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one"):
        SearchIndex(tmp_path / "pagefind", tmp_path / "source" / "search-documents", shard_docs=0)
