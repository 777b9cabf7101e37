"""A pull request against a published registry: how much of the published build the check job reuses.

    python bench/pull_request.py                            # a tenth of the registry: 1,500 servers
    python bench/pull_request.py --servers 300 --tools 4560

As the workflow `scorecards new` writes runs it: the publish job builds the data into the Pages
artifact tar with the Pages URL as the base and keeps that URL beside its output; a pull request then
changes 1% of the servers (bench/change.py) and its check job builds into the restored output with the
kept base URL, after keeping the published tar by a hard link; then `scorecards diff` compares the two
tars as the job's next step does (its time, and how many servers it found changed). Beside it, the same
pull request built as the check job did before it kept the URL (no base URL, into a copy of the
published output). Prints each step's wall time and the share of each build's outputs reused, and
writes them to `<workdir>/pull-request.json`. A benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path[0] = str(ROOT)

from bench.corpus import ensure_corpus, scorecards_command, working_copy  # noqa: E402
from bench.measure import load_average, measure  # noqa: E402

BASE_URL = "https://owner.github.io/registry/"
BUILT = re.compile(r"^built ([\d,]+) files(, build-report\.json and manifest\.jsonl)? \(([\d,]+) reused from the previous build\)",
                   re.MULTILINE)


def _build(data: Path, out: Path, log: Path, env: dict[str, str], *extra: str) -> dict[str, Any]:
    run = measure(scorecards_command("build", str(data), "-o", str(out / "artifact.tar"), *extra), log, env=env)
    if run.returncode != 0:
        raise RuntimeError(f"the build failed (exit {run.returncode}); see {log}")
    found = BUILT.search(log.read_text(encoding="utf-8", errors="replace"))
    if found is None:
        raise RuntimeError(f"no 'built N files (M reused …)' line in {log}")
    files = int(found.group(1).replace(",", "")) + (2 if found.group(2) else 0)
    reused = int(found.group(3).replace(",", ""))
    return {"wall": round(run.wall, 2), "cpu": round(run.cpu, 2), "files": files, "reused": reused,
            "reusedShare": round(reused / files, 4) if files else 0.0}


def _diff(base: Path, head: Path, data: Path, out: Path, log: Path, env: dict[str, str]) -> dict[str, Any]:
    """`scorecards diff` of the kept tar and the check's, as the check job's step runs it (no budgets)."""
    run = measure(scorecards_command("diff", str(base), str(head), "--data", str(data), "--json", str(out), "-q"),
                  log, env=env)
    if run.returncode != 0:
        raise RuntimeError(f"the diff failed (exit {run.returncode}); see {log}")
    tdqs = json.loads(out.read_text(encoding="utf-8"))["systems"].get("tdqs", {})
    servers = {row["server"] for key in ("tierMoves", "overallScores", "toolScores", "coverage", "serversAdded",
                                         "serversRemoved") for row in tdqs.get(key, [])}
    return {"wall": round(run.wall, 2), "cpu": round(run.cpu, 2), "serversChanged": len(servers),
            "tierMoves": len(tdqs.get("tierMoves", [])), "toolScores": len(tdqs.get("toolScores", []))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1_500)
    parser.add_argument("--tools", type=int, default=22_800)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--change-share", type=float, default=0.01)
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / "out")
    args = parser.parse_args(argv)

    from bench.change import apply_change
    from bench.registry import snapshot_code

    work = args.workdir.resolve()
    logs = work / "logs"
    # Every build runs the code as it is now, even if the checkout changes meanwhile (its code is in every key).
    code, digest = snapshot_code(work)
    env = {**os.environ, "PYTHONPATH": str(code)}
    corpus = ensure_corpus(work, args.servers, args.tools, args.seed, logs)
    data = working_copy(corpus.folder, work / "pr-data")
    published, before = work / "pr-published", work / "pr-before"
    for folder in (published, before):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
    load = load_average()
    results: dict[str, Any] = {"machine": {"cpus": platform.machine(), "python": platform.python_version()},
                               "code": digest,
                               "servers": args.servers, "tools": args.tools, "loadAverageBefore": load}
    print(f"publish: {args.servers:,} servers into the Pages artifact tar (load average {load})", flush=True)
    results["publish"] = _build(data, published, logs / "pr-publish.log", env, "--base-url", BASE_URL)
    (published / "base-url").write_text(BASE_URL + "\n", encoding="utf-8")  # as the publish job keeps it
    shutil.copytree(published, before, symlinks=True, dirs_exist_ok=True)
    change = apply_change(data, share=args.change_share, seed=args.seed)
    print(f"pull request: {len(change.servers)} servers changed", flush=True)
    kept = (published / "base-url").read_text(encoding="utf-8").strip()
    kept_tar = work / "pr-published.tar"  # as the check job keeps it: a hard link the new tar leaves alone
    kept_tar.unlink(missing_ok=True)
    os.link(published / "artifact.tar", kept_tar)
    results["check"] = _build(data, published, logs / "pr-check.log", env, "--base-url", kept)
    results["diff"] = _diff(kept_tar, published / "artifact.tar", data, work / "pr-diff.json", logs / "pr-diff.log", env)
    results["checkWithoutTheBaseUrl"] = _build(data, before, logs / "pr-check-before.log", env)
    for name in ("publish", "check", "checkWithoutTheBaseUrl"):
        row = results[name]
        print(f"{name:>24}: {row['wall']:7.1f} s wall, {row['cpu']:7.1f} s CPU, "
              f"{row['reused']:,} of {row['files']:,} outputs reused ({row['reusedShare']:.1%})")
    row = results["diff"]
    print(f"{'diff':>24}: {row['wall']:7.1f} s wall, {row['cpu']:7.1f} s CPU, {row['serversChanged']:,} servers "
          f"with a change, {row['tierMoves']:,} tier moves, {row['toolScores']:,} tool scores changed")
    (work / "pull-request.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
