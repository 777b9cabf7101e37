"""`-o site.tar`: the site written straight into a GitHub Pages artifact.

The tar is read back with Python's `tarfile` and the system's `tar`, never with the writer's own
code, and compared with the folder build of the same data."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from hypothesis import given, settings
from hypothesis import strategies as st

import builder.build
import builder.engine.search
from builder.build import build
from builder.config import SiteConfig
from builder.engine.artifact import ustar_header

ROOT = Path(__file__).resolve().parent.parent
CONFIG = SiteConfig(site_url="https://example.org", base_url="/scorecards/")


def folder_files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def tar_files(archive: Path) -> dict[str, str]:
    files = {}
    with tarfile.open(archive) as tar:
        for member in tar:
            if member.isfile():
                handle = tar.extractfile(member)
                assert handle is not None
                files[member.name] = hashlib.sha256(handle.read()).hexdigest()
    return files


def corpus(data: Path, servers: int = 4) -> None:
    for s in range(servers):
        tools = [tool_score(definition(f"tool_{t}", f"Tool {t} of {s}."), scores(4, 3, 3 + t % 2, 3, 4, 3)) for t in range(4)]
        write_capture(data, f"server-{s}", report(f"server-{s}", tools, generated_at=f"2026-05-0{s + 1}T00:00:00.000Z"))


def test_the_artifact_holds_exactly_the_folder_site_in_the_form_pages_accepts(tmp_path: Path) -> None:
    data = ROOT / "data"
    build(data, tmp_path / "site", CONFIG)
    result = build(data, tmp_path / "site.tar", CONFIG)
    archive = tmp_path / "site.tar"
    assert result.log.error_count == 0

    assert tar_files(archive) == folder_files(tmp_path / "site")
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
    seen_folders: set[str] = set()
    for member in members:
        # Pages takes only files and folders, readable by everyone, and no links.
        assert member.isfile() or member.isdir(), member.name
        assert member.mode == (0o755 if member.isdir() else 0o644), member.name
        assert not member.name.startswith(("/", "../")) and "/../" not in member.name
        parent = member.name.rstrip("/").rpartition("/")[0]
        assert not parent or parent in seen_folders, f"{member.name} comes before its folder"
        if member.isdir():
            seen_folders.add(member.name.rstrip("/"))
    assert "pagefind/pagefind.js" in {m.name for m in members}

    # The system's tar extracts it to the same files.
    if shutil.which("tar"):
        extracted = tmp_path / "extracted"
        extracted.mkdir()
        subprocess.run(["tar", "-xf", str(archive), "-C", str(extracted)], check=True)
        assert folder_files(extracted) == folder_files(tmp_path / "site")


def test_a_rebuild_into_the_tar_reuses_members_and_equals_a_cold_build(tmp_path: Path) -> None:
    data, archive = tmp_path / "data", tmp_path / "site.tar"
    corpus(data)
    build(data, archive, CONFIG, search=False)
    again = build(data, archive, CONFIG, search=False)
    assert again.timings["reused"] > 0

    tools = [tool_score(definition(f"tool_{t}", f"Tool {t}, now said better."), scores(5, 4, 4, 4, 5, 4)) for t in range(5)]
    write_capture(data, "server-1", report("server-1", tools, generated_at="2026-06-01T00:00:00.000Z"))
    rebuilt = build(data, archive, CONFIG, search=False)
    assert 0 < rebuilt.timings["reused"] < again.timings["reused"]
    cold = build(data, tmp_path / "cold.tar", CONFIG, search=False)
    assert cold.timings["reused"] == 0
    assert archive.read_bytes() == (tmp_path / "cold.tar").read_bytes()
    assert "servers/server-1/tools/tool_4/index.html" in tar_files(archive)


def test_the_search_index_closes_the_tar_and_a_rebuild_with_search_equals_a_cold_build(tmp_path: Path) -> None:
    """The pages are put into the tar while Pagefind indexes, so its members come after all
    others but the manifest, which lists them all and comes last; a rebuild (new capture, reused members, a new index) still gives a cold build's bytes."""
    data, archive = tmp_path / "data", tmp_path / "site.tar"
    corpus(data)
    build(data, archive, CONFIG)
    tools = [tool_score(definition(f"tool_{t}", f"Tool {t}, searchable anew."), scores(5, 4, 4, 4, 5, 4)) for t in range(3)]
    write_capture(data, "server-2", report("server-2", tools, generated_at="2026-06-01T00:00:00.000Z"))
    rebuilt = build(data, archive, CONFIG)
    assert rebuilt.timings["reused"] > 0
    build(data, tmp_path / "cold.tar", CONFIG)
    assert archive.read_bytes() == (tmp_path / "cold.tar").read_bytes()

    with tarfile.open(archive) as tar:
        names = [member.name for member in tar]
    # build-report.json is written with what the rest weighs, then the manifest (its top and its parts), last:
    # they come with the search index, in a pass of their own after the pages, sorted among themselves.
    files = [name for name in names if "." in name.rsplit("/", 1)[-1]]
    cut = next(i for i in range(1, len(files)) if files[i] < files[i - 1])
    first, later = files[:cut], files[cut:]
    assert first == sorted(first) and later == sorted(later)
    assert {"build-report.json", "manifest.jsonl", "servers/server-2/manifest.jsonl", "pagefind/pagefind.js"} <= set(later)
    assert all(n == "build-report.json" or n.split("/")[0] == "pagefind" or n.endswith("/manifest.jsonl")
               or n == "manifest.jsonl" for n in later)
    assert "servers/server-2/tools/tool_0/index.html" in first

    # The ledger a rebuild lends from says where each page's and data file's record starts and
    # ends, as tarfile reads it, in the tar's order; the search index's members are never lent.
    lines = (tmp_path / ".site.tar.cache" / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]).keys() == {"version", "kind", "engine"} and json.loads(lines[0])["kind"] == "tar"
    assert json.loads(lines[-1]) == {"end": archive.stat().st_size}
    rows = [json.loads(line) for line in lines[1:-1]]
    with tarfile.open(archive) as tar:
        records = {m.name: [m.offset, m.offset_data - m.offset + -(-m.size // 512) * 512] for m in tar if m.isfile()}
        digests = {m.name: hashlib.sha256(tar.extractfile(m).read()).hexdigest()  # type: ignore[union-attr]
                   for m in tar if m.isfile()}
    assert all(records[path] == [offset, length] for path, _, _, offset, length, _, _, _ in rows)
    # … and the SHA-256 of each one's bytes, which the manifest lists, lent or not, without reading it back.
    assert all(digests[path] == sha256 for path, _, _, _, _, _, _, sha256 in rows)
    listed = [row[0] for row in rows]
    assert listed == [name for name in names if name in listed]
    assert "servers/server-2/tools/tool_0/index.html" in listed
    assert not any(path.startswith("pagefind") for path in listed)


def test_forked_workers_write_the_same_tar_as_one_process(tmp_path: Path) -> None:
    data = tmp_path / "data"
    corpus(data, servers=6)
    build(data, tmp_path / "serial.tar", CONFIG, search=False, workers=1)
    build(data, tmp_path / "forked.tar", CONFIG, search=False, workers=2)
    assert (tmp_path / "forked.tar").read_bytes() == (tmp_path / "serial.tar").read_bytes()


def test_a_failed_build_leaves_the_previous_tar_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, archive = tmp_path / "data", tmp_path / "site.tar"
    corpus(data)
    build(data, archive, CONFIG)
    before = archive.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("search indexer crashed")

    monkeypatch.setattr(builder.engine.search.SearchIndex, "wait", broken)
    write_capture(data, "server-9", report("server-9", [tool_score(definition("x", "X."), scores(3, 3, 3, 3, 3, 3))]))
    with pytest.raises(RuntimeError, match="search indexer crashed"):
        build(data, archive, CONFIG)
    assert archive.read_bytes() == before
    assert not list(tmp_path.glob(".site.tar.tmp-*"))


NAME_CHARS = st.characters(codec="ascii", exclude_characters="\0")


@settings(max_examples=300, deadline=None)
@given(name=st.text(NAME_CHARS, min_size=1, max_size=140).filter(lambda n: n.strip("/")),
       size=st.integers(min_value=0, max_value=8**11 + 10), folder=st.booleans())
def test_member_headers_read_back_as_written(name: str, size: int, folder: bool) -> None:
    """The artifact's headers are made without `tarfile` (it is too slow for half a million);
    `tarfile` reads each back, checksum included, as the member that was meant."""
    kind = tarfile.DIRTYPE if folder else tarfile.REGTYPE
    name = name.rstrip("/") + "/" if folder else name
    header = ustar_header(name, 0 if folder else size, 0o755 if folder else 0o644, kind)
    info = tarfile.TarInfo.frombuf(header[:512], "utf-8", "strict")
    if info.type in (tarfile.XHDTYPE, tarfile.XGLTYPE):  # a long name: tarfile wrote a pax header
        with tarfile.open(fileobj=io.BytesIO(header + b"\0" * (-len(header) % 512) + b"\0" * 1024)) as tar:
            info = tar.next()
        assert info is not None
    assert (info.name, info.type, info.mtime) == (name.rstrip("/") if folder else name, kind, 0)
    assert (info.size, info.mode) == ((0, 0o755) if folder else (size, 0o644))
    if len(name) <= 100 and size < 8**11:  # made directly: the very bytes tarfile writes
        expected = tarfile.TarInfo(name)
        expected.size, expected.mode, expected.mtime, expected.type = info.size, info.mode, 0, kind
        assert header == expected.tobuf(tarfile.USTAR_FORMAT, "utf-8", "strict")


def _expected_names(passes: list[list[str]]) -> list[str]:
    """What `tar` lists for the passes: each sorted, every folder once, before its first member."""
    made: set[str] = set()
    names = []
    for paths in passes:
        for path in sorted(paths):
            parts = path.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folder = "/".join(parts[:depth])
                if folder not in made:
                    made.add(folder)
                    names.append(folder)
            names.append(path)
    return names


_SEGMENT = st.sampled_from(["a", "a-b", "a.b", "a!", "b", "pagefind", "pagefind-2", "x y", "é"])


@settings(max_examples=60, deadline=None)
@given(
    first=st.lists(st.lists(_SEGMENT, min_size=1, max_size=4).map("/".join), max_size=25, unique=True),
    later=st.lists(st.lists(_SEGMENT, min_size=1, max_size=3).map(lambda s: "pagefind/" + "/".join(s)),
                   max_size=8, unique=True),
)
def test_folder_records_come_once_before_their_members_across_both_passes(
    tmp_path_factory: pytest.TempPathFactory, first: list[str], later: list[str]
) -> None:
    """Folders named like files and files like folders, names that sort around `/`, and a second
    pass (the search index's) into folders the first made or not: `tarfile` lists every folder
    once, before its first member, as a set of every folder written would have it."""
    from builder.engine.artifact import TarWriter

    # A path may not also be a folder of another path.
    everything = set(first) | set(later)
    if any(other.startswith(path + "/") for path in everything for other in everything):
        return
    later = [path for path in later if path not in first]
    out = tmp_path_factory.mktemp("tar") / "site.tar"
    writer = TarWriter(out)
    for path in first:
        writer.write(path, path.encode())
    writer.assemble()
    places = list(writer.written_rows())  # what the ledger records: the first pass's members
    for path in later:
        writer.write(path, path.encode())
    writer.commit()
    writer.finish()
    with tarfile.open(out) as tar:
        names = [member.name for member in tar.getmembers()]
        records = {m.name: (m.offset, m.offset_data - m.offset + -(-m.size // 512) * 512) for m in tar if m.isfile()}
    assert names == _expected_names([first, later])
    assert [path for path, *_ in places] == sorted(first)
    assert all(records[path] == (offset, length) for path, _, _, offset, length, _, _, _ in places)
    assert all(sha256 == hashlib.sha256(path.encode()).hexdigest() for path, *_, sha256 in places)
    assert writer.size == out.stat().st_size
