"""The way tests get the real third-party data (tests/shared_data.py): files served from a local
HTTP server as raw.githubusercontent.com would serve them are downloaded by pooch into a cache,
checked against the registered sha256 (a wrong one is refused), made into the shared/ file and kept;
with no data anywhere a test is skipped with one line saying how to get it."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import shared_data
from shared_data import NOT_FOUND, fetch, shared_file
from shared_registry import BY_NAME, FILES, SharedFile, Upstream


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def upstream(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on 127.0.0.1 (an ephemeral port, a thread) as `<repo>/<commit>/<path>`."""
    root = tmp_path / "served"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def serve(root: Path, source: Upstream, data: bytes) -> None:
    path = root / source.repo / source.commit / source.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def made_up(data: bytes) -> tuple[SharedFile, bytes]:
    """A registry entry for bytes made here, its hash computed by hashlib."""
    digest = hashlib.sha256(data).hexdigest()
    source = Upstream("someone/somewhere", "0" * 40, "data/strings.json", digest)
    return SharedFile("bad-input/strings.json", digest, "MIT", "Copyright (c) someone", (source,)), data


def test_a_download_with_the_registered_hash_is_kept_and_served_from_the_cache_after(upstream, tmp_path) -> None:
    root, base_url = upstream
    file, data = made_up(b'["one", "<script>two</script>"]\n')
    serve(root, file.sources[0], data)
    path = fetch(file, tmp_path / "cache", base_url)
    assert path == tmp_path / "cache" / "shared" / "bad-input" / "strings.json"
    assert path.read_bytes() == data
    assert (tmp_path / "cache" / "upstream" / "someone/somewhere" / ("0" * 40) / "data" / "strings.json").is_file()
    (root / "someone").rename(root / "gone")  # the server has nothing now: the cache answers
    assert fetch(file, tmp_path / "cache", base_url).read_bytes() == data


def test_a_download_with_another_hash_is_refused_and_nothing_is_kept(upstream, tmp_path) -> None:
    root, base_url = upstream
    file, data = made_up(b'["one", "two"]\n')
    serve(root, file.sources[0], data.replace(b"two", b"tw0"))
    with pytest.raises(ValueError, match="SHA256 hash of downloaded file"):
        fetch(file, tmp_path / "cache", base_url)
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]


def test_a_made_file_with_another_hash_is_refused(upstream, tmp_path) -> None:
    root, base_url = upstream
    file, data = made_up(b'["one"]\n')
    wrong = SharedFile(file.name, "f" * 64, file.licence, file.copyright, file.sources)
    serve(root, file.sources[0], data)
    with pytest.raises(ValueError, match=re.escape(f"{file.name}: made from upstream, its sha256 is {file.sha256}")):
        fetch(wrong, tmp_path / "cache", base_url)
    assert not (tmp_path / "cache" / "shared").exists()


def test_real_files_are_made_from_their_served_upstream_bytes(upstream, tmp_path) -> None:
    """naughty-strings.json is blns.json byte for byte; server-github.json is mcp-proxy's snapshot
    (its top level, 2-space indent, newline at the end) re-serialised with a `server` header."""
    root, base_url = upstream
    naughty, capture = BY_NAME["bad-input/naughty-strings.json"], BY_NAME["real-tools/server-github.json"]
    serve(root, naughty.sources[0], shared_file(naughty.name).read_bytes())
    document = json.loads(shared_file(capture.name).read_bytes())
    snapshot = {**document["server"]["captured"], "tools": document["tools"]}
    serve(root, capture.sources[0], (json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n").encode())
    for file in (naughty, capture):
        assert fetch(file, tmp_path / "cache", base_url).read_bytes() == shared_file(file.name).read_bytes()


def test_with_no_data_and_no_download_the_test_is_skipped_with_one_line(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("SCORECARDS_SHARED_DATA", str(tmp_path / "nothing"))
    monkeypatch.setattr(shared_data, "cache_root", lambda: tmp_path / "cache")
    monkeypatch.setattr(shared_data, "_unreachable", [])
    monkeypatch.setattr(shared_data, "RAW_URL", "http://127.0.0.1:9")  # the discard port: nothing answers
    with pytest.raises(pytest.skip.Exception) as skipped:
        shared_file("bad-input/naughty-strings.json")
    assert str(skipped.value) == NOT_FOUND
    assert "\n" not in NOT_FOUND and "shared/" in NOT_FOUND and "raw.githubusercontent.com" in NOT_FOUND
    with pytest.raises(pytest.skip.Exception):
        shared_data.shared_folder("real-tools")


def test_a_local_file_that_is_not_the_registered_one_fails(monkeypatch, tmp_path) -> None:
    (tmp_path / "bad-input").mkdir()
    (tmp_path / "bad-input" / "not-json-capture.json").write_text("Error: something else")
    monkeypatch.setenv("SCORECARDS_SHARED_DATA", str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match=re.escape("not-json-capture.json: sha256 ")):
        shared_file("bad-input/not-json-capture.json")


def test_every_registered_file_names_its_upstream_and_licence() -> None:
    assert len(BY_NAME) == len(FILES)
    for file in FILES:
        assert file.licence == "MIT" and file.copyright, file.name
        for source in file.sources:
            assert len(source.commit) == 40 and len(source.sha256) == 64 and source.repo.count("/") == 1, file.name
