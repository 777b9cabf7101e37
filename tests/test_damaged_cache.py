"""A build cache (`.<output>.cache/`, made and marked by scorecards) damaged in any shape is ignored
where it is damaged and rebuilt: the rebuild succeeds, through the real command, and gives the cold
build's site byte for byte. Nobody should have to remove a cache by hand."""

from __future__ import annotations

import contextlib
import io
import json
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


def _edit_lines(edit: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    """Rewrites a ledger's lines (header, rows, trailer) with `edit`."""
    def damage(path: Path) -> None:
        path.write_text("".join(line + "\n" for line in edit(path.read_text().splitlines())))
    return damage


def _cut(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _shift_places(lines: list[str]) -> list[str]:
    """Every tar member's record a block later than it is."""
    rows = [json.loads(line) for line in lines[1:-1]]
    return [lines[0], *(json.dumps([*row[:3], row[3] + 512, *row[4:]]) for row in rows), lines[-1]]


def _ledger(cache: Path) -> Path:
    return cache / "ledger.jsonl"


DAMAGE: dict[str, tuple[Callable[[Path], Path], Callable[[Path], None]]] = {
    "ledger-folder": (_ledger, _folder),
    "ledger-garbage": (_ledger, _write("\x00not json")),
    "ledger-list": (_ledger, _write("[1, 2]")),
    "ledger-cut-short": (_ledger, _cut),
    "ledger-wrong-version": (_ledger, _edit_lines(lambda lines: ['{"version": 2, "kind": "folder"}', *lines[1:]])),
    "ledger-wrong-values": (_ledger, _edit_lines(lambda lines: [lines[0], '["index.html", 5, 6]', *lines[1:]])),
    "ledger-out-of-order": (_ledger, _edit_lines(lambda lines: [lines[0], *reversed(lines[1:-1]), lines[-1]])),
    "ledger-link": (_ledger, _link),
    "ledger-tmp-folder": (lambda c: c / "ledger.tmp", _folder),
    "ledger-tar-wrong-end": (_ledger, _edit_lines(lambda lines: [*lines[:-1], '{"end": 3}'])),
    "ledger-tar-wrong-places": (_ledger, _edit_lines(_shift_places)),
    "ledger-tar-wrong-kind": (_ledger, _edit_lines(lambda lines: ['{"version": 4, "kind": "folder"}', *lines[1:]])),
    "ledger-wrong-engine": (_ledger, _edit_lines(lambda lines: [lines[0].replace('"engine": "', '"engine": "0'), *lines[1:]])),
    "former-manifest": (lambda c: c / "manifest.json", _write('{"version": 2, "outputs": {}, "checks": {}}')),
    "former-members-folder": (lambda c: c / "members.json", _folder),
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


CASES = [(case, "site.tar" if case.startswith(("ledger-tar", "former-members")) else "site") for case in sorted(DAMAGE)] + [
    ("ledger-folder", "site.tar"), ("ledger-cut-short", "site.tar")]
"""A tar's ledger also says where its members are; the rest of the cache is the same for a folder and a tar."""


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
    assert not (cache / "manifest.json").exists() and not (cache / "members.json").exists()  # read by nothing now
    code, err = _build(data, out, "--workers", "2")  # and the cache it left works
    assert (code, "scorecards:" in err, output_digests(out)) == (0, False, cold[kind]), err
