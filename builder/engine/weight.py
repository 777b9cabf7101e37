"""What a site weighs: its bytes, its files, their gzip size, and which kinds of output weigh most.

GitHub Pages supports published sites up to 1 GB, and its artifact tar must stay under 10 GB; a
registry's site can outgrow both (issue 45). So every build says what it weighs, in
`build-report.json` and on its last line, and warns when the site is over a limit
(`size_warning`), before an operator learns it from a failed deploy.

- Each output is weighed once, when its bytes are in memory: by the writer that writes it,
  whichever process that is (`weigh`). The weights go with the output's row
  (builder.engine.written) into the ledger (builder.engine.ledger), so a rebuild takes a lent
  output's weight from there instead of compressing it again: the ledger's row describes the
  same bytes, as the writer checks them before it lends them.
- The gzip size is each file compressed on its own, as `gzip -6` does (`zlib` level 6, a gzip
  header and trailer), summed: what a web server that compresses each response sends. (The
  gzipped artifact tar GitHub uploads is smaller still, as each page compresses against the
  similar pages before it in the tar: 18.0 MB against this sum's 66.9 MB for 1,500 servers.)
  Compressing every file takes 2.2 s of CPU for 1,500 servers (206 MB), a
  tenth of their cold build's 23 s, and would take 15 to 40 s at registry scale; so it is
  *estimated* (0.2 s for those 1,500 servers, 0.15% below the exact sum) from a sample that is
  the same on every build and in every process (`sampled`): every file at the top or in a
  top-level folder (few, and often unlike the rest: the downloads are compressed already), and
  one in `SAMPLE` of the deeper ones, chosen by a hash of its path. A kind's gzip size is that of
  its files near the top, exact, plus its deeper files' bytes times their sample's ratio of gzip
  size to bytes (the whole sample's where a kind has no deeper file in it). The estimate is
  within a few percent where a kind has hundreds of files (tool pages, server pages, the API),
  rougher for a kind of a few deep files (which weigh little).
- The weights are summed (`SiteWeight`) from the rows the build writes into its ledger, sorted by
  path, plus the search index, which Pagefind writes apart (`add_tree`): nothing is held per
  output. `build-report.json` cannot count itself (its figures would change its size), so
  every figure is of the site's other files.
- A *kind* (`builder.urls.weight_kind`) is what a reader of the figures asks about: tool pages,
  server pages, the API, the downloads, the search index, the static files, each top-level file.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.engine.written import Row

GZIP_LEVEL = 6
"""`gzip -6`, gzip's default: what GitHub Pages' upload step and most web servers use."""
SAMPLE = 16
"""One deeper file in this many is compressed to estimate the gzip size (`sampled`)."""

PAGES_SUPPORTED = 1_000_000_000
"""GitHub Pages: "Published GitHub Pages sites may be no larger than 1 GB"; the default
`size_warning_bytes`."""
PAGES_ARTIFACT_LIMIT = 10_000_000_000
"""actions/upload-pages-artifact: the artifact tar must be under 10 GB."""

Weight = tuple[int, int]
"""An output's bytes and its gzip size, or 0 when it is not in the sample (`weigh`)."""



def always_weighed(path: str) -> bool:
    """A file at the top or in a top-level folder (`feed.xml`, `downloads/tools.csv.gz`): few, and
    often unlike the rest (the downloads are compressed already), so each is compressed."""
    return path.count("/") <= 1


def sampled(path: str) -> bool:
    """Whether the output at `path` is compressed to estimate the gzip size: always
    (`always_weighed`), or when it is deeper and its path's CRC-32 is a multiple of `SAMPLE`."""
    return always_weighed(path) or zlib.crc32(path.encode("utf-8")) % SAMPLE == 0


def weigh(path: str, data: bytes) -> Weight:
    """The bytes of the output at `path` and, if it is `sampled`, the size of `gzip -6` of them
    (header and trailer included); 0 otherwise."""
    return len(data), len(zlib.compress(data, GZIP_LEVEL, wbits=31)) if sampled(path) else 0


def _scaled(count: int, numerator: int, denominator: int) -> int:
    """`count × numerator / denominator`, rounded half up, in integers."""
    return (2 * count * numerator + denominator) // (2 * denominator)


@dataclass
class KindWeight:
    bytes: int = 0
    files: int = 0
    near_gzip: int = 0
    """The gzip size of its files that are always weighed (`always_weighed`), exact."""
    deep_bytes: int = 0
    """The bytes of its deeper files …"""
    sample_bytes: int = 0
    """… the bytes of those in the sample (`sampled`) …"""
    sample_gzip: int = 0
    """… and their gzip size."""


@dataclass
class SiteWeight:
    """The sums of the weights of a site's files, in all and by kind (`kind_of`)."""

    kind_of: Callable[[str], str]
    bytes: int = 0
    files: int = 0
    kinds: dict[str, KindWeight] = field(default_factory=dict)

    def add(self, path: str, weight: Weight) -> None:
        size, gzipped = weight
        self.bytes += size
        self.files += 1
        kind = self.kinds.get(name := self.kind_of(path))
        if kind is None:
            kind = self.kinds[name] = KindWeight()
        kind.bytes += size
        kind.files += 1
        if always_weighed(path):
            kind.near_gzip += gzipped
            return
        kind.deep_bytes += size
        if sampled(path):
            kind.sample_bytes += size
            kind.sample_gzip += gzipped

    def kind_gzip(self, kind: KindWeight) -> int:
        """A kind's gzip size: exact for its files that are always weighed, plus its deeper files'
        bytes at its sample's ratio of gzip size to bytes (at the whole site's sample's where it
        has no sampled bytes)."""
        sample_bytes, sample_gzip = kind.sample_bytes, kind.sample_gzip
        if not sample_bytes:
            sample_bytes = sum(k.sample_bytes for k in self.kinds.values())
            sample_gzip = sum(k.sample_gzip for k in self.kinds.values())
        deep = _scaled(kind.deep_bytes, sample_gzip, sample_bytes) if sample_bytes else kind.deep_bytes
        return kind.near_gzip + deep

    @property
    def gzip_bytes(self) -> int:
        """The site's gzip size, estimated (`kind_gzip`): the sum of its kinds'."""
        return sum(self.kind_gzip(kind) for kind in self.kinds.values())

    def counted(self, rows: Iterable[Row]) -> Iterator[Row]:
        """`rows` (builder.engine.written) as they are, each one's weight added on the way: the build
        sums the rows it writes into the ledger as it writes them."""
        for row in rows:
            self.add(row[0], (row[5], row[6]))
            yield row

    def add_tree(self, prefix: str, folder: Path) -> None:
        """Every file under `folder`, as `prefix/<its path>` (the search index Pagefind wrote)."""
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            path = f"{prefix}/{file.relative_to(folder).as_posix()}"
            self.add(path, weigh(path, file.read_bytes()))

    def report(self, warnings: list[str]) -> dict[str, Any]:
        """The `size` section of build-report.json: kinds heaviest first (then by name), each with
        its share of the site's bytes."""
        kinds = sorted(self.kinds.items(), key=lambda item: (-item[1].bytes, item[0]))
        return {
            "bytes": self.bytes,
            "files": self.files,
            "gzipBytes": self.gzip_bytes,
            "counts": "every file of the site but build-report.json itself",
            "gzipEstimate": (f"gzipBytes: each file as gzip -6 compresses it, summed: exact for every file at the top "
                             f"or in a top-level folder; deeper files estimated from those whose path's CRC-32 is a "
                             f"multiple of {SAMPLE}, at their kind's ratio of gzip size to bytes (the whole "
                             f"sample's where a kind has none)"),
            "warnings": warnings,
            "kinds": [
                {"kind": name, "bytes": kind.bytes, "files": kind.files, "gzipBytes": self.kind_gzip(kind),
                 "share": round(kind.bytes / self.bytes, 4) if self.bytes else 0.0}
                for name, kind in kinds
            ],
        }


def size_text(count: int) -> str:
    """`count` bytes for a person: 3.53 GB, 812 MB, 14.2 kB (decimal units, as GitHub states its limits)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if count >= scale:
            value = count / scale
            return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{count} B"


def size_warning(weight: SiteWeight, limit: int) -> str | None:
    """What an operator should know and do when the site is over `limit` (`size_warning_bytes`),
    in words: None when it is not."""
    if weight.bytes <= limit:
        return None
    size = size_text(weight.bytes)
    heaviest = max(weight.kinds.items(), key=lambda item: (item[1].bytes, item[0]))[0] if weight.kinds else None
    where = f" (the heaviest part: {heaviest}, {size_text(weight.kinds[heaviest].bytes)})" if heaviest else ""
    beyond = ("publish the output folder to object storage behind a CDN instead (README, 'Beyond GitHub Pages'), "
              "or set size_warning_bytes in scorecards.toml above the site's size once it is published elsewhere")
    if weight.bytes > PAGES_ARTIFACT_LIMIT:
        meaning = (f"the site is {size}{where}: above the 10 GB a GitHub Pages artifact may hold, so "
                   "actions/upload-pages-artifact will refuse it; GitHub Pages cannot publish it")
    elif weight.bytes > PAGES_SUPPORTED:
        meaning = (f"the site is {size}{where}: GitHub Pages supports published sites up to 1 GB; a larger one "
                   "may fail to deploy (or time out after 10 minutes) and is not guaranteed to be served")
    else:
        meaning = (f"the site is {size}{where}: above size_warning_bytes = {limit:,} in scorecards.toml "
                   f"(GitHub Pages supports up to 1 GB)")
        beyond = "keep an eye on its growth, or raise size_warning_bytes"
    return f"{meaning}; {beyond}"
