"""The Pagefind search source kept between builds: a rebuild rewrites only the documents that
changed, removes the ones that are gone, and Pagefind's index then holds exactly the new set."""

from __future__ import annotations

import gzip
from pathlib import Path

from builder.engine.search import SearchIndex


def doc(title: str, words: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><main data-pagefind-body><h1>{title}</h1><p>{words}</p></main></body></html>")


def index(source: Path, output: Path, docs: dict[str, str]) -> None:
    search = SearchIndex(output, source)
    search.add(docs.items(), [])
    search.start()
    search.wait()


def indexed_text(output: Path) -> str:
    """Every fragment of the index, decompressed: what a search can show."""
    return "".join(gzip.decompress(p.read_bytes()).decode("utf-8", "replace")
                   for p in sorted((output / "fragment").glob("*.pf_fragment")))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_rebuild_keeps_unchanged_documents_and_removes_the_gone_ones(tmp_path: Path) -> None:
    source = tmp_path / "cache" / "search-source"
    first = {
        "servers/alpha/index.html": doc("Alpha", "zebrafish telemetry"),
        "servers/beta/index.html": doc("Beta", "quokka ledger"),
        "servers/gamma/index.html": doc("Gamma", "narwhal pipeline"),
    }
    index(source, tmp_path / "one", first)
    assert files(source) == {path: html.encode() for path, html in first.items()}
    kept = (source / "servers/alpha/index.html").stat()

    second = {
        "servers/alpha/index.html": first["servers/alpha/index.html"],
        "servers/gamma/index.html": doc("Gamma", "narwhal pipeline, now with axolotl retries"),
        "servers/delta/index.html": doc("Delta", "pangolin archive"),
    }
    index(source, tmp_path / "two", second)

    assert files(source) == {path: html.encode() for path, html in second.items()}
    assert not (source / "servers" / "beta").exists(), "the gone server's folder is removed too"
    again = (source / "servers/alpha/index.html").stat()
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns), "an unchanged document is not rewritten"

    text = indexed_text(tmp_path / "two")
    assert "quokka" not in text
    for word in ("zebrafish", "axolotl", "pangolin"):
        assert word in text

    # The same documents indexed from a fresh source give the same index, byte for byte.
    index(tmp_path / "fresh", tmp_path / "three", second)
    assert files(tmp_path / "two") == files(tmp_path / "three")
