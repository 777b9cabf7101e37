"""A build cache (`.<output>.cache/`, made and marked by scorecards) damaged in any shape is ignored
where it is damaged and rebuilt: the rebuild succeeds, through the real command, and gives the cold
build's site byte for byte. Nobody should have to remove a cache by hand."""

from __future__ import annotations

import contextlib
import io
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from site_helpers import output_digests

from builder.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _build(data: Path, out: Path, *flags: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["build", str(data), "-o", str(out), "--no-search", *flags])
    return code, err.getvalue()


def _folder(path: Path) -> None:
    _remove(path)
    path.mkdir()
    (path / "inside").write_text("x")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _write(text: str) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        _remove(path)
        path.write_text(text)
    return write


def _link(path: Path) -> None:
    _remove(path)
    path.symlink_to("/dev/null")


def _first_entry(cache: Path) -> Path:
    return sorted((cache / "tdqs-servers").iterdir())[0]


DAMAGE: dict[str, tuple[Callable[[Path], Path], Callable[[Path], None]]] = {
    "manifest-folder": (lambda c: c / "manifest.json", _folder),
    "manifest-garbage": (lambda c: c / "manifest.json", _write("\x00not json")),
    "manifest-list": (lambda c: c / "manifest.json", _write("[1, 2]")),
    "manifest-wrong-values": (lambda c: c / "manifest.json", _write('{"version": 1, "outputs": {"index.html": 5}}')),
    "manifest-link": (lambda c: c / "manifest.json", _link),
    "manifest-tmp-folder": (lambda c: c / "manifest.tmp", _folder),
    "members-folder": (lambda c: c / "members.json", _folder),
    "members-wrong-shape": (lambda c: c / "members.json", _write('{"version": 1, "size": 3, "members": [1]}')),
    "members-tmp-folder": (lambda c: c / "members.tmp", _folder),
    "read-cache-file": (lambda c: c / "tdqs-servers", _write("not a folder")),
    "read-cache-entry-folder": (_first_entry, _folder),
    "read-cache-entry-garbage": (_first_entry, _write("garbage")),
    "spool-file": (lambda c: c / "tdqs-spool", _write("not a folder")),
    "search-source-file": (lambda c: c / "search-source", _write("not a folder")),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, str]]]:
    home = tmp_path_factory.mktemp("damaged")
    data = home / "data"
    for folder in sorted((ROOT / "data" / "servers").iterdir())[:4]:
        shutil.copytree(folder, data / "servers" / folder.name)
    shutil.copytree(ROOT / "data" / "sessions", data / "sessions")
    cold = {}
    for kind in ("site", "site.tar"):
        assert _build(data, home / f"cold-{kind}", "--workers", "1")[0] == 0
        cold[kind] = output_digests(home / f"cold-{kind}")
    return data, cold


@pytest.fixture(scope="module")
def first_builds(corpus: tuple[Path, dict[str, dict[str, str]]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first build of each case, made once per kind by two workers, as every case made it: a
    case copies the output and its cache (links as links, times kept) before damaging the copy."""
    data, _ = corpus
    home = tmp_path_factory.mktemp("first")
    for kind in ("site", "site.tar"):
        assert _build(data, home / kind, "--workers", "2")[0] == 0
    return home


def _first_build(first: Path, tmp_path: Path, kind: str) -> Path:
    out = tmp_path / kind
    if (first / kind).is_dir():
        shutil.copytree(first / kind, out, symlinks=True)
    else:
        shutil.copy2(first / kind, out)
    shutil.copytree(first / f".{kind}.cache", tmp_path / f".{kind}.cache", symlinks=True)
    return out


CASES = [(case, "site.tar" if case.startswith("members") else "site") for case in sorted(DAMAGE)] + [
    ("manifest-folder", "site.tar")]
"""members.json is the tar's; the rest of the cache is the same for a folder and a tar."""


@pytest.mark.parametrize(("case", "kind"), CASES)
def test_a_damaged_cache_is_rebuilt(corpus: tuple[Path, dict[str, dict[str, str]]], first_builds: Path,
                                    tmp_path: Path, case: str, kind: str) -> None:
    data, cold = corpus
    where, damage = DAMAGE[case]
    out = _first_build(first_builds, tmp_path, kind)
    assert output_digests(out) == cold[kind]
    cache = tmp_path / f".{kind}.cache"
    damage(where(cache))
    code, err = _build(data, out, "--workers", "2")
    assert (code, "scorecards:" in err) == (0, False), err
    assert output_digests(out) == cold[kind]
    code, err = _build(data, out, "--workers", "2")  # and the cache it left works
    assert (code, "scorecards:" in err, output_digests(out)) == (0, False, cold[kind]), err
