"""A rebuild lends a previous output only if its bytes are still those written: a page edited or
cut short in the previous site folder (its size and time kept, so only its bytes tell), or a byte
flipped inside a member of the previous tar, is rendered again, and the rebuild is byte for byte
the cold build. Through the real command, with one worker and two."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from site_helpers import output_digests

from builder.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGE = "servers/{server}/index.html"


def _build(data: Path, out: Path, workers: int) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["build", str(data), "-o", str(out), "--no-search", "--workers", str(workers)])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, dict[str, str]]]:
    home = tmp_path_factory.mktemp("reuse")
    data = home / "data"
    folders = sorted((ROOT / "data" / "servers").iterdir())[:3]
    for folder in folders:
        shutil.copytree(folder, data / "servers" / folder.name)
    cold = {}
    for name in ("site", "site.tar"):
        assert _build(data, home / f"cold-{name}", 1) == 0
        cold[name] = output_digests(home / f"cold-{name}")
    return data, PAGE.format(server=folders[0].name), cold


def _keep_time(path: Path, change: bytes | None) -> None:
    """Writes `change` over the file's start (None: cuts it in half), keeping its size where it can
    and its modification time."""
    info = path.stat()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if change is None else change + data[len(change):])
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("damage", ["edited", "truncated"])
def test_a_page_changed_in_the_previous_folder_is_rendered_again(corpus, tmp_path: Path, workers: int,
                                                                 damage: str) -> None:
    data, page, cold = corpus
    out = tmp_path / "site"
    assert _build(data, out, workers) == 0
    _keep_time(out / page, b"<!-- edited by hand -->" if damage == "edited" else None)
    assert _build(data, out, workers) == 0
    assert output_digests(out) == cold["site"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_byte_flipped_in_the_previous_tar_is_rendered_again(corpus, tmp_path: Path, workers: int) -> None:
    data, page, cold = corpus
    out = tmp_path / "site.tar"
    assert _build(data, out, workers) == 0
    with tarfile.open(out) as tar:
        member = tar.getmember(page)
    info = out.stat()
    with open(out, "r+b") as handle:  # a byte in the middle of the page's data
        handle.seek(member.offset_data + member.size // 2)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 0x20]))
    os.utime(out, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert _build(data, out, workers) == 0
    assert output_digests(out) == cold["site.tar"]
