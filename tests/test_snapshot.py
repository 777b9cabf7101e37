"""The site built from `data/` is, byte for byte, the one recorded in tests/snapshots/data-site.json
(see tests/snapshot.py, which regenerates it with one command)."""

from __future__ import annotations

import json
from pathlib import Path

from snapshot import SNAPSHOT, build_digests, site_digests

SHOWN = 20


def test_the_site_of_data_is_the_recorded_snapshot(tmp_path: Path) -> None:
    recorded: dict[str, str] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    built = build_digests(tmp_path)
    added = sorted(set(built) - set(recorded))
    removed = sorted(set(recorded) - set(built))
    changed = sorted(path for path in set(built) & set(recorded) if built[path] != recorded[path])
    lines = [f"{kind} {path}" for kind, paths in (("added", added), ("removed", removed), ("changed", changed))
             for path in paths]
    assert not lines, (
        f"{len(lines)} files differ from the snapshot (first {SHOWN}):\n" + "\n".join(lines[:SHOWN])
        + "\nIf the change is meant, regenerate it: python tests/snapshot.py"
    )


def test_digests_name_every_file_by_its_bytes(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.txt").write_bytes(b"abc")
    (tmp_path / "c.txt").write_bytes(b"")
    assert site_digests(tmp_path) == {
        "a/b.txt": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",  # sha256("abc"), FIPS 180-2
        "c.txt": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # sha256 of nothing
    }
