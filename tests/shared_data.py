"""The real third-party data the tests read, found or fetched, always checked against its sha256.

Where each file comes from is in tests/shared_registry.py. A test asks for a file by its path in
shared/ and gets it from the first place that has it:

1. the `shared/` folder beside the checkout (`../shared`; CI and development have it, no network
   needed), or the folder named by the environment variable SCORECARDS_SHARED_DATA;
2. pooch's cache (`pooch.os_cache("mcp-scorecard-site")`, under $XDG_CACHE_HOME on Linux), where
   an earlier run left it;
3. a download by pooch from raw.githubusercontent.com at the pinned commit, each upstream file
   checked against its sha256, made into the file as its NOTICE.md says, and checked again.

When none of them has it the test is skipped with one line saying how to get the data; a file that
is there but differs from the registry fails the test (it is not the data the test was written for)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path, PurePosixPath

import pooch
import pytest
import requests
from shared_registry import BY_NAME, RAW_URL, SharedFile

CHECKOUT = Path(__file__).resolve().parents[1]
ENVIRONMENT = "SCORECARDS_SHARED_DATA"
NOT_FOUND = (
    "real third-party data not found: put the shared/ folder beside the checkout (or set SCORECARDS_SHARED_DATA) "
    "or allow downloads from raw.githubusercontent.com; see tests/shared_data.py"
)
_unreachable: list[str] = []  # the first failed download of this run: the others would fail the same way


def local_root() -> Path:
    """The shared/ folder beside the checkout, or the one SCORECARDS_SHARED_DATA names."""
    named = os.environ.get(ENVIRONMENT)
    return Path(named) if named else CHECKOUT.parent / "shared"


def cache_root() -> Path:
    return Path(pooch.os_cache("mcp-scorecard-site"))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shared_file(name: str) -> Path:
    """The file `name` (its path in shared/, e.g. "bad-input/naughty-strings.json"), checked."""
    file = BY_NAME[name]
    local = local_root() / name
    if local.is_file():
        found = sha256(local.read_bytes())
        if found != file.sha256:
            pytest.fail(f"{local}: sha256 {found}, but tests/shared_registry.py registers {file.sha256}", pytrace=False)
        return local
    return _fetched(file)


def shared_folder(folder: str) -> Path:
    """The folder `folder` of shared/ (e.g. "real-tools") holding every registered file under it:
    the local one when it has them all, else the cache's, filled by downloads."""
    names = sorted(name for name in BY_NAME if name.startswith(f"{folder}/"))
    if all((local_root() / name).is_file() for name in names):
        for name in names:
            shared_file(name)
        return local_root() / folder
    for name in names:
        _fetched(BY_NAME[name])
    return cache_root() / "shared" / folder


def registered(folder: str, pattern: str = "*") -> list[str]:
    """The registered names in `folder` (not below it) matching `pattern`, sorted: known without
    reading a file, so tests can be parametrised at collection time."""
    return sorted(name for name in BY_NAME if PurePosixPath(name).parent == PurePosixPath(folder)
                  and PurePosixPath(name).match(pattern))


def fetch(file: SharedFile, cache: Path, base_url: str = RAW_URL) -> Path:
    """`file` in `cache`/shared/: kept from an earlier run, or made from its upstream files, which
    pooch downloads from `base_url` (checking each against its sha256) into `cache`/upstream/.
    Raises ValueError when a download or the file made from them has another sha256."""
    target = cache / "shared" / file.name
    if target.is_file() and sha256(target.read_bytes()) == file.sha256:
        return target
    downloader = pooch.HTTPDownloader(progressbar=False, timeout=30)
    blobs = []
    for source in file.sources:
        where = PurePosixPath(source.path)
        kept = pooch.retrieve(
            source.url(base_url), known_hash=f"sha256:{source.sha256}", fname=where.name,
            path=cache / "upstream" / source.repo / source.commit / where.parent, downloader=downloader,
        )
        blobs.append(Path(kept).read_bytes())
    made = file.make(file, blobs)
    if sha256(made) != file.sha256:
        raise ValueError(f"{file.name}: made from upstream, its sha256 is {sha256(made)}, not the registered {file.sha256}")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.partial")
    partial.write_bytes(made)
    partial.replace(target)
    return target


def _fetched(file: SharedFile) -> Path:
    kept = cache_root() / "shared" / file.name
    if kept.is_file() and sha256(kept.read_bytes()) == file.sha256:
        return kept
    if _unreachable:
        pytest.skip(NOT_FOUND)
    try:
        return fetch(file, cache_root(), RAW_URL)
    except requests.RequestException as error:
        _unreachable.append(str(error))
        pytest.skip(NOT_FOUND)
