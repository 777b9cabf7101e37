"""A build killed halfway leaves the previous site whole; a finished build replaces it."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def corpus(data: Path, servers: int, label: str) -> None:
    for s in range(servers):
        tools = [
            tool_score(definition(f"{label}_{t}", f"Tool {t} of {s}"), scores(4, 3, 3, 3, 4, 3)) for t in range(12)
        ]
        write_capture(data, f"s{s:03d}", report(f"s{s:03d}", tools))


def run_build(data: Path, out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "builder.cli", "build", str(data), "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def test_a_killed_build_leaves_the_previous_site_unchanged(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    corpus(data, 5, "old")
    assert run_build(data, out).wait(timeout=120) == 0
    before = snapshot(out)
    assert "servers/s000/tools/old_0/index.html" in before

    corpus(data, 150, "new")  # a bigger corpus, so the build is still writing when it is killed
    process = run_build(data, out)
    deadline = time.monotonic() + 120
    killed = False
    while time.monotonic() < deadline and process.poll() is None:
        staging = [p for p in tmp_path.glob(".site.tmp-*") if p.is_dir()]
        if staging and sum(1 for _ in staging[0].rglob("*.html")) > 50:
            os.kill(process.pid, signal.SIGKILL)
            killed = True
            break
        time.sleep(0.01)
    process.wait(timeout=30)
    assert killed, "the build finished before it could be killed; make the corpus bigger"
    assert snapshot(out) == before

    # The next build cleans up the killed build's staging folder and replaces the site whole.
    assert run_build(data, out).wait(timeout=300) == 0
    after = snapshot(out)
    assert "servers/s149/tools/new_0/index.html" in after
    assert not list(tmp_path.glob(".site.tmp-*")) and not list(tmp_path.glob(".site.old-*"))
