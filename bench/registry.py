"""The registry-scale benchmark: our build against Hugo on the same pages from the same data.

    python bench/registry.py                       # Glama's registry: 15,036 servers, 228,369 tools
    python bench/registry.py --servers 300 --tools 4500 --skip-hugo

Steps, each measured the same way (wall time, peak memory of the whole process tree; see
`measure.py`): generate (or reuse) the demo corpus; cold-build it; export the same pages' data
for Hugo and build them with Hugo; change 1% of the servers as a registry changes and rebuild
into the same folder; cold-build the changed data into a second folder and compare the two byte
for byte. Prints a table and the verdict on each target, and writes it all to
`<workdir>/results.json`. A benchmark, not a test: it asserts nothing, and a full-scale run takes
about 40 minutes on two cores (10 more the first time, to generate the corpus).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    # Run as a script: import `bench` from the checkout, and not the bench/hugo folder as `hugo`.
    sys.path[0] = str(ROOT)

from bench.compare import compare_trees, footprint, manifest, page_sets  # noqa: E402
from bench.corpus import ensure_corpus, refresh_stale_index, scorecards_command, working_copy  # noqa: E402
from bench.hugo_build import build_with_hugo  # noqa: E402
from bench.measure import Run, build_weight, load_average, measure, site_files, site_size  # noqa: E402
from bench.report import render  # noqa: E402

REGISTRY_SERVERS = 15_036
REGISTRY_TOOLS = 228_369


def snapshot_code(work: Path) -> tuple[Path, str]:
    """A copy of `builder/`, `templates/` and `scorecards_demo/` as they are now, which every step then runs.

    The build is being worked on while a full-scale run takes hours; without a snapshot, the
    cold build, the rebuild and the second cold build could measure three different programs.
    Returns the folder (put first on PYTHONPATH) and a digest of its contents for the report.
    """
    target = work / "code"
    if target.exists():
        shutil.rmtree(target)
    for name in ("builder", "templates", "scorecards_demo"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # Compiled now, so the first measured build does not pay for compiling every module.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(target / "builder")], check=True)
    digest = hashlib.sha256()
    for path in sorted(p for p in target.rglob("*") if p.is_file()):
        digest.update(path.relative_to(target).as_posix().encode() + b"\0" + path.read_bytes())
    return target, digest.hexdigest()[:16]


def _say(message: str) -> None:
    print(f"[bench] {message}", flush=True)


def _machine(workdir: Path) -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    memory = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal:"))) * 1024
    disk = subprocess.run(["df", "-h", "--output=source,fstype,size,avail", str(workdir)],
                          capture_output=True, text=True, check=False).stdout.strip().splitlines()[-1]
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True,
                           check=False).stdout.strip()
    return {
        "cpus": os.cpu_count(), "cpuModel": cpu, "memory": f"{memory / 2**30:.1f} GiB",
        "disk": " ".join(disk.split()), "python": platform.python_version(), "kernel": platform.release(),
        "commit": commit, "uncommittedFiles": len(dirty.splitlines()) if dirty else 0,
    }


def _run_summary(run: Run, site: Path | None = None, timings: Path | None = None) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "wall": run.wall, "cpu": run.cpu, "peakPss": run.peak_pss, "peakRss": run.peak_rss, "maxSingleRss": run.max_single_rss,
        "samples": run.samples, "exit": run.returncode, "log": str(run.log),
    }
    if timings is not None and timings.is_file():
        summary["stages"] = json.loads(timings.read_text(encoding="utf-8"))
    if site is not None:
        measured = site_size(site)
        summary["site"] = {
            "apparentBytes": measured.apparent_bytes, "diskBytes": measured.disk_bytes,
            "fileBytes": sum(measured.by_top.values()), "tarBytes": measured.tar_bytes,
            "gzipBytes": measured.gzip_bytes, "files": measured.files,
            "htmlPages": measured.html_pages, "byTop": measured.by_top,
            "weight": build_weight(site),  # what the build itself reports, by page kind
        }
        summary["pagesPerSecond"] = measured.html_pages / run.wall if run.wall else 0.0
    return summary


def _build(data: Path, site: Path, work: Path, name: str, extra: list[str]) -> dict[str, Any]:
    timings = work / f"timings-{name}.json"
    timings.unlink(missing_ok=True)
    before = load_average()
    _say(f"{name}: scorecards build {data.name} -o {site.name} (load average {before})")
    run = measure(scorecards_command("build", str(data), "-o", str(site), "--timings", str(timings), *extra),
                  work / "logs" / f"{name}.log")
    if run.returncode != 0:
        raise RuntimeError(f"{name} failed (exit {run.returncode}); see {run.log}")
    summary = _run_summary(run, site, timings)
    summary["loadAverageBefore"] = before
    _say(f"{name}: {run.wall:,.1f} s, peak PSS {run.peak_pss / 2**20:,.0f} MiB")
    return summary


def kept_between_runs(site: Path) -> dict[str, int]:
    """What the generated workflow keeps between runs (actions/cache): the output, here after the rebuild,
    and the cache folder beside it. Bytes of files, each counted once however many names it has."""
    from builder.engine.incremental import cache_folder

    def files_bytes(top: Path) -> int:
        seen: set[tuple[int, int]] = set()
        total = 0
        for path in [top] if top.is_file() else top.rglob("*"):
            info = path.lstat()
            if path.is_file() and not path.is_symlink() and (info.st_dev, info.st_ino) not in seen:
                seen.add((info.st_dev, info.st_ino))
                total += info.st_size
        return total

    cache = cache_folder(site)
    return {"output": files_bytes(site), "cache": files_bytes(cache) if cache.exists() else 0}


def search_alone(data: Path, work: Path) -> dict[str, Any]:
    """Pagefind on its own over the search documents of the changed data (bench/search_source.py):
    what indexing the whole registry costs with nothing else running, against which the rebuild's
    budget is measured. Pagefind has no incremental mode, so every rebuild pays it."""
    from bench.search_source import write_search_source

    source = work / "search-source"
    if source.exists():
        shutil.rmtree(source)
    write_search_source(data, source)
    documents = [path for path in source.rglob("*.html") if path.is_file()]
    output = work / "pagefind-alone"
    if output.exists():
        shutil.rmtree(output)
    _say(f"search alone: Pagefind over the changed data's search documents, {len(documents):,} of them")
    run = measure([sys.executable, "-m", "pagefind", "--site", str(source), "--output-path", str(output), "--quiet"],
                  work / "logs" / "search-alone.log")
    shutil.rmtree(output, ignore_errors=True)
    source_bytes = sum(path.stat().st_size for path in documents)
    shutil.rmtree(source)
    if run.returncode != 0:
        raise RuntimeError(f"Pagefind alone failed (exit {run.returncode}); see {run.log}")
    _say(f"search alone: {run.wall:,.1f} s, {run.cpu or 0:,.1f} s of CPU")
    return {"wall": run.wall, "cpu": run.cpu, "peakRss": run.peak_rss, "documents": len(documents),
            "sourceBytes": source_bytes}


def rebuild_mode(stages: dict[str, float], outputs: int) -> str:
    """What kind of rebuild the build under test did: its timings say how many outputs it
    reused (`reused`) when it has an incremental mode."""
    if "reused" in stages:
        reused = int(stages["reused"])
        return f"incremental: {reused:,} of {outputs:,} files reused from the previous build, {outputs - reused:,} written"
    return "this build has no incremental mode, so the rebuild is a second full build into the same folder"


def clear_build_state(site: Path) -> None:
    """Removes a site and everything its build keeps beside it (`.<name>.cache`, staging and old
    folders), so a cold build is cold."""
    for entry in [site, *site.parent.glob(f".{site.name}.*")]:
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        elif entry.exists():
            entry.unlink()


def _hugo(data: Path, work: Path) -> tuple[dict[str, Any], dict[str, Any], Path]:
    _say(f"hugo: exporting the page data, then building (load average {load_average()})")
    counts_file = work / "hugo-export.json"
    hugo = build_with_hugo(data, work, counts_file)
    summary = _run_summary(hugo.build, hugo.site)
    summary["version"] = hugo.version
    summary["loadAverageBefore"] = hugo.load_before
    _say(f"hugo: export {hugo.export.wall:,.1f} s; build {hugo.build.wall:,.1f} s, "
         f"peak PSS {hugo.build.peak_pss / 2**20:,.0f} MiB")
    export_summary = _run_summary(hugo.export) | json.loads(counts_file.read_text(encoding="utf-8"))
    return summary, export_summary, hugo.site


def _html_bytes(site: Path) -> int:
    """Bytes of the server and tool pages (every `index.html` under `servers/`)."""
    return sum(size for path, size in site_files(site) if path.startswith("servers/") and path.endswith("/index.html"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=REGISTRY_SERVERS)
    parser.add_argument("--tools", type=int, default=REGISTRY_TOOLS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / "out")
    parser.add_argument("--skip-hugo", action="store_true", help="measure our build only")
    parser.add_argument("--keep", action="store_true", help="keep the built sites and the Hugo project")
    parser.add_argument("--change-share", type=float, default=0.01, help="share of servers changed (default 0.01)")
    parser.add_argument("--folder", action="store_true",
                        help="build our site into folders instead of GitHub Pages artifact tars")
    parser.add_argument("--build-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for every `scorecards build` (repeatable), e.g. --build-arg=--no-search")
    args = parser.parse_args(argv)

    work = args.workdir.resolve()
    (work / "logs").mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"machine": _machine(work), "loadAverageAtStart": load_average()}
    code, digest = snapshot_code(work)
    results["code"] = {"snapshot": str(code), "digest": digest}
    # Every step runs the snapshot: this process, and every child through PYTHONPATH (children run
    # in the work folder, so the checkout's own builder/ is never first on their path).
    sys.path.insert(0, str(code))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(code), str(ROOT)])
    os.chdir(work)
    from bench.change import apply_change

    corpus = ensure_corpus(work, args.servers, args.tools, args.seed, work / "logs")
    note = (f"generated by scorecards demo in {corpus.generated.wall:,.1f} s" if corpus.generated
            else f"reused {corpus.folder.name}")
    results["corpus"] = {"servers": args.servers, "tools": args.tools, "seed": args.seed, "note": note,
                         "folder": str(corpus.folder),
                         "generate": _run_summary(corpus.generated) if corpus.generated else None}
    refreshed = refresh_stale_index(corpus.folder, work / "logs")
    if refreshed is not None:
        note += f"; its index.json predated the current index format and was rewritten ({refreshed.wall:,.1f} s)"
        results["corpus"]["note"] = note
    _say(f"corpus: {note}")
    from bench.size_floor import measure as size_floor

    floor = size_floor(corpus.folder)
    results["sizeFloor"] = {**asdict(floor), "text": floor.text, "total": floor.total}

    data = working_copy(corpus.folder, work / "data")
    suffix = "" if args.folder else ".tar"
    site_a, site_b = work / f"site-a{suffix}", work / f"site-b{suffix}"
    results["output"] = "folder" if args.folder else "artifact tar"
    for folder in (site_a, site_b):
        clear_build_state(folder)

    results["cold"] = _build(data, site_a, work, "cold", args.build_arg)
    before_change = manifest(site_a)

    if not args.skip_hugo:
        results["hugo"], results["hugoExport"], hugo_site = _hugo(data, work)
        results["pageSets"] = page_sets(site_a, hugo_site).summary()
        results["htmlBytes"] = {"ours": _html_bytes(site_a), "hugo": _html_bytes(hugo_site)}

    _say(f"change: a new capture for {args.change_share:.0%} of the servers")
    change = apply_change(data, share=args.change_share, seed=args.seed)
    results["change"] = {"servers": change.servers, "toolsEdited": change.tools_edited,
                         "toolsAdded": change.tools_added, "toolsRemoved": change.tools_removed}
    results["rebuild"] = _build(data, site_a, work, "rebuild", args.build_arg)
    results["rebuildMode"] = rebuild_mode(results["rebuild"].get("stages", {}), results["rebuild"]["site"]["files"])
    results["kept"] = kept_between_runs(site_a)
    results["searchAlone"] = search_alone(data, work)
    results["cold2"] = _build(data, site_b, work, "cold2", args.build_arg)
    _say("comparing the rebuilt site with the cold build of the same data, byte for byte")
    results["rebuildVsCold"] = compare_trees(site_a, site_b).summary()
    results["changeFootprint"] = footprint(before_change, manifest(site_b))

    text = render(results)
    results["loadAverageAtEnd"] = load_average()
    (work / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (work / "results.txt").write_text(text, encoding="utf-8")
    print()
    print(text)
    if not args.keep:
        for folder in (site_a, site_b):
            clear_build_state(folder)
        for folder in (work / "hugo-site", work / "hugo-project", work / "hugo-cache", data):
            if folder.exists():
                shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
