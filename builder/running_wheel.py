"""The wheel of the running scorecards: what `scorecards new` carries into a repository it makes, so that the
repository installs the very code that made it before the package index has that version (and never by a name
the index may give to someone else).

The wheel is packed from the files the running installation imports: the `builder` package, its templates
(`builder/templates/` in a wheel, the checkout's `templates/` in an editable install: builder.engine.assets
finds them either way) and `scorecards_demo`, less compiled caches, with this distribution's own metadata
(METADATA, entry points, licences) from its installed `.dist-info`. Entries are sorted, dated 1980-01-01 and
given one mode, so the same installation packs to the same bytes and so the same SHA-256, which the new
repository's requirements.txt pins.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import Distribution, distributions
from pathlib import Path

import builder
from builder.engine.assets import TEMPLATES

DISTRIBUTION = "mcp-scorecard-site"
"""This package's name on the package index (pyproject.toml's `project.name`)."""

_EPOCH = (1980, 1, 1, 0, 0, 0)
_MODE = 0o100644 << 16
_SKIPPED_PARTS = {"__pycache__"}
_SKIPPED_SUFFIXES = {".pyc", ".pyo"}


@dataclass(frozen=True)
class Wheel:
    """A packed wheel: its file name (as pip parses it) and its bytes."""

    name: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def _files(root: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not path.is_symlink() and _SKIPPED_PARTS.isdisjoint(relative.parts) \
                and path.suffix not in _SKIPPED_SUFFIXES:
            yield f"{prefix}/{relative.as_posix()}", path


def _package_files() -> dict[str, bytes]:
    """Archive name → bytes of every file the running scorecards is made of (templates under builder/)."""
    # Found, not imported: a build never imports the demo generator (tests/test_package.py).
    demo = importlib.util.find_spec("scorecards_demo")
    if demo is None or not demo.submodule_search_locations:
        raise RuntimeError("scorecards is installed without scorecards_demo: reinstall it")
    packages = Path(builder.__file__).resolve().parent, Path(demo.submodule_search_locations[0]).resolve()
    found: dict[str, bytes] = {}
    for prefix, root in (("builder", packages[0]), ("builder/templates", TEMPLATES), ("scorecards_demo", packages[1])):
        for name, path in _files(root, prefix):
            found.setdefault(name, path.read_bytes())
    return found


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def _installed() -> Distribution:
    """The installed `.dist-info` of this distribution (a checkout on sys.path may also show its
    `.egg-info`, which has no METADATA file)."""
    for found in distributions(name=DISTRIBUTION):
        if found.read_text("METADATA") is not None:
            return found
    raise RuntimeError(f"{DISTRIBUTION} is not installed (no .dist-info with METADATA): pip install it first")


def installed_from_index() -> bool:
    """Whether pip installed the running scorecards from a package index: it records a `direct_url.json`
    for every other source (a wheel or sdist file, a folder, an editable checkout, a URL; PEP 610)."""
    return _installed().read_text("direct_url.json") is None


def _metadata_files(installed: Distribution, dist_info: str) -> dict[str, bytes]:
    metadata = installed.read_text("METADATA") or ""
    files = {f"{dist_info}/METADATA": metadata.encode("utf-8"),
             f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: scorecards\nRoot-Is-Purelib: true\n"
                                   b"Tag: py3-none-any\n"}
    for name in ("entry_points.txt", "top_level.txt"):
        if (text := installed.read_text(name)) is not None:
            files[f"{dist_info}/{name}"] = text.encode("utf-8")
    for licence in installed.metadata.get_all("License-File") or []:
        if (text := installed.read_text(f"licenses/{licence}")) is not None:
            files[f"{dist_info}/licenses/{licence}"] = text.encode("utf-8")
    return files


def running_wheel() -> Wheel:
    """The running scorecards packed as a `py3-none-any` wheel."""
    installed = _installed()
    stem = f"{DISTRIBUTION.replace('-', '_')}-{installed.version}"
    dist_info = f"{stem}.dist-info"
    contents = {**_package_files(), **_metadata_files(installed, dist_info)}
    ordered = sorted(contents, key=lambda name: (name.startswith(dist_info), name))
    record = "\n".join([*(_record_line(name, contents[name]) for name in ordered), f"{dist_info}/RECORD,,"]) + "\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in [*((name, contents[name]) for name in ordered), (f"{dist_info}/RECORD", record.encode())]:
            entry = zipfile.ZipInfo(name, date_time=_EPOCH)
            entry.external_attr = _MODE
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return Wheel(name=f"{stem}-py3-none-any.whl", data=buffer.getvalue())
