"""What a site's manifest weighs (issue 47): the top, each part, and what a visitor fetches to check one server.

    python bench/manifest_size.py SITE        # a folder or a .tar a build wrote

The manifest is in two levels (builder.publish.manifest): the top `manifest.jsonl` lists each part
by its SHA-256, and each part `<folder>/manifest.jsonl` lists its files and inputs. This reads the
top and every part (from a tar in one pass) and prints, raw and gzipped at level 9 (each file on its
own, as a web server sends it): the top; all the parts together; the largest part; and the median
server part (`servers/<id>/manifest.jsonl`), which with the top is what checking one server fetches.
It reads the files as bytes and counts lines; it does not use the builder.
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import tarfile
from pathlib import Path

TOP = "manifest.jsonl"


def manifests(site: Path) -> dict[str, bytes]:
    """The top manifest and every file named `manifest.jsonl` in the site, by path."""
    if site.is_dir():
        return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob(TOP) if p.is_file()}
    found: dict[str, bytes] = {}
    with tarfile.open(site, "r:") as archive:
        for member in archive:
            if member.isfile() and member.name.rsplit("/", 1)[-1] == TOP:
                handle = archive.extractfile(member)
                assert handle is not None
                found[member.name.removeprefix("./")] = handle.read()
    return found


def weigh(data: bytes) -> tuple[int, int]:
    return len(data), len(gzip.compress(data, compresslevel=9, mtime=0))


def line(label: str, raw: int, gzipped: int) -> str:
    return f"{label:<44} {raw:>14,} bytes {gzipped:>13,} gzip -9"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    found = manifests(Path(argv[0]))
    top = found.pop(TOP)
    rows = [json.loads(row) for row in top.splitlines()]
    listed = {row[1] for row in rows if isinstance(row, list) and row[0] == "part"}
    assert listed == set(found), "the parts found are not those the top lists"
    counts = rows[-1]["end"]
    weights = {path: weigh(data) for path, data in found.items()}
    files = sum(data.count(b'\n["file",') for data in found.values()) + counts["files"]
    inputs = sum(data.count(b'\n["input",') for data in found.values()) + counts["inputs"]
    print(f"{len(found):,} parts, {files:,} files and {inputs:,} inputs listed")
    print(line("top (manifest.jsonl)", *weigh(top)))
    print(line("all parts", sum(w[0] for w in weights.values()), sum(w[1] for w in weights.values())))
    print(line("top and all parts", len(top) + sum(w[0] for w in weights.values()),
               weigh(top)[1] + sum(w[1] for w in weights.values())))
    largest = max(weights, key=lambda p: weights[p][0])
    print(line(f"largest part ({largest})", *weights[largest]))
    servers = sorted((w for p, w in weights.items() if p.startswith("servers/") and p.count("/") == 2))
    if servers:
        median = servers[len(servers) // 2]
        print(line(f"median server part (of {len(servers):,})", *median))
        print(line("to check one server: top + median part", len(top) + median[0], weigh(top)[1] + median[1]))
        print(f"server parts: mean {statistics.mean(w[0] for w in servers):,.0f} bytes, "
              f"{statistics.mean(w[1] for w in servers):,.0f} gzipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
