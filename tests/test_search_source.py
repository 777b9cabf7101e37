"""The Pagefind search source: one file of documents in the build's scratch folder, sent to Pagefind
sorted by path whatever order they came in; each build's index holds exactly its own documents."""

from __future__ import annotations

import gzip
from pathlib import Path

from builder.engine.search import SearchIndex


def doc(title: str, words: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><main data-pagefind-body><h1>{title}</h1><p>{words}</p></main></body></html>")


def index(source: Path, output: Path, docs: dict[str, str] | list[tuple[str, str]]) -> None:
    search = SearchIndex(output, source)
    search.add(docs.items() if isinstance(docs, dict) else docs)
    search.start()
    search.wait()


def indexed_text(output: Path) -> str:
    """Every fragment of the index, decompressed: what a search can show."""
    return "".join(gzip.decompress(p.read_bytes()).decode("utf-8", "replace")
                   for p in sorted((output / "fragment").glob("*.pf_fragment")))


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_each_build_indexes_its_own_documents_in_the_order_of_their_paths(tmp_path: Path) -> None:
    first = {
        "servers/alpha/index.html": doc("Alpha", "zebrafish telemetry"),
        "servers/beta/index.html": doc("Beta", "quokka ledger"),
        "servers/gamma/index.html": doc("Gamma", "narwhal pipeline"),
    }
    index(tmp_path / "one" / "search-documents", tmp_path / "one" / "pagefind", first)
    assert "quokka" in indexed_text(tmp_path / "one" / "pagefind")

    second = {
        "servers/alpha/index.html": first["servers/alpha/index.html"],
        "servers/gamma/index.html": doc("Gamma", "narwhal pipeline, now with axolotl retries"),
        "servers/delta/index.html": doc("Delta", "pangolin archive"),
    }
    index(tmp_path / "two" / "search-documents", tmp_path / "two" / "pagefind", second)
    text = indexed_text(tmp_path / "two" / "pagefind")
    assert "quokka" not in text
    for word in ("zebrafish", "axolotl", "pangolin"):
        assert word in text

    # The same documents, handed over in another order, give the same index, byte for byte.
    backwards = sorted(second.items(), reverse=True)
    index(tmp_path / "three" / "search-documents", tmp_path / "three" / "pagefind", backwards)
    assert files(tmp_path / "two" / "pagefind") == files(tmp_path / "three" / "pagefind")


def test_a_document_given_twice_is_indexed_once_as_last_given(tmp_path: Path) -> None:
    path = "servers/alpha/index.html"
    index(tmp_path / "search-documents", tmp_path / "pagefind",
          [(path, doc("Alpha", "zebrafish")), (path, doc("Alpha", "okapi"))])
    text = indexed_text(tmp_path / "pagefind")
    assert "okapi" in text and "zebrafish" not in text
