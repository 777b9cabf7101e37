"""Writes a demo corpus: synthetic servers scored by the real tdqs with the stand-in model.

    generate_demo(Path("/tmp/demo"), servers=15036, tools=228369)

produces a TDQS data directory (layout in `layout.py`) the size of Glama's registry, whose
current tools match Glama's published tier shares and dimension means (A 54.1 %, B 19.4 %,
C 23.8 %, D 2.7 %; purpose 4.47 … transparency 2.90; ~56 % with a smell) within about two
points: `quality.py` and `tool_rubric.py` hold the constants calibrated for that.

Same arguments, byte-identical files, however many workers: every server is a pure function of
`(seed, its plan)`, and timestamps are offsets from a fixed date. The folder is only ever
written into if it is empty or carries the marker of an earlier demo output, and nothing is
written outside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from tdqs import parse_tool_definitions, score_server

from scorecards_demo.definitions import build_server, render_tool
from scorecards_demo.history import capture_tools
from scorecards_demo.jsonout import to_json_text
from scorecards_demo.layout import MARKER, capture_id
from scorecards_demo.plan import FORK_SHARE, ServerPlan, plan_corpus
from scorecards_demo.standin import STAND_IN_MODEL, StandInLlm

GENERATOR = "scorecards demo"
_SERVER_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def _write_json(path: Path, value: Any) -> None:
    path.write_text(to_json_text(value), encoding="utf-8")


def _is_demo_output(folder: Path) -> bool:
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        return False
    try:
        content = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(content, dict) and content.get("generator") == GENERATOR


def _prepare(out: Path) -> Path:
    """`out`, ready for a fresh `servers/`: created if missing, or a ValueError.

    A folder that is not empty must carry the marker of an earlier demo output. Then only what
    the demo owns — `servers/` — is removed: a data directory may also hold other grading
    systems' files, which are not the demo's to delete.
    """
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not _is_demo_output(out):
        raise ValueError(
            f"{out} is not empty and is not a previous demo output (it has no {MARKER}); "
            "refusing to write into it. Choose an empty or new folder."
        )
    out.mkdir(parents=True, exist_ok=True)
    servers = out / "servers"
    if servers.is_symlink() or servers.is_file():
        servers.unlink()
    elif servers.is_dir():
        shutil.rmtree(servers)
    return out.resolve()


def write_server(root: Path, seed: int, plan: ServerPlan, llm: StandInLlm) -> None:
    """One server's folder: server.json, then a tools.json and a score.json per capture."""
    if _SERVER_ID.fullmatch(plan.server_id) is None:
        raise ValueError(f"unsafe server id: {plan.server_id!r}")
    folder = root / "servers" / plan.server_id
    folder.mkdir(parents=True)
    _write_json(
        folder / "server.json",
        {
            "id": plan.server_id,
            "displayName": plan.display_name,
            "description": plan.description,
            "repositoryUrl": plan.repository_url,
            "homepageUrl": plan.homepage_url,
            **({"categories": list(plan.categories)} if plan.categories else {}),
        },
    )
    draft = build_server(plan, seed)
    for generated_at, blueprints in zip(plan.captures, capture_tools(draft, seed), strict=True):
        entries = [render_tool(tool, draft.author) for tool in blueprints]
        parsed = parse_tool_definitions({"tools": entries})
        report = score_server(llm=llm, server_name=plan.server_id, tools=parsed.tools, concurrency=1).model_copy(
            update={"generated_at": generated_at}
        )
        capture = capture_id(generated_at)
        _write_json(folder / f"{capture}.tools.json", {"tools": entries})
        _write_json(folder / f"{capture}.score.json", report.model_dump(mode="json"))


def _write_servers(root: str, seed: int, plans: Sequence[ServerPlan]) -> int:
    """A worker's unit of work; returns how many servers it wrote."""
    llm = StandInLlm()
    for plan in plans:
        write_server(Path(root), seed, plan, llm)
    return len(plans)


def generate_demo(
    out: Path,
    *,
    servers: int,
    tools: int,
    seed: int = 0,
    history_share: float = 0.3,
    fork_share: float = FORK_SHARE,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Writes `servers` servers with `tools` current tools in total into `out`.

    `progress(done, total)` is called in this process as servers finish. Raises ValueError for
    impossible sizes or a folder that is neither empty nor an earlier demo output.
    """
    plans = plan_corpus(servers=servers, tools=tools, seed=seed, history_share=history_share, fork_share=fork_share)
    root = _prepare(Path(out))
    _write_json(
        root / MARKER,
        {
            "generator": GENERATOR,
            "model": STAND_IN_MODEL,
            "seed": seed,
            "servers": servers,
            "tools": tools,
            "historyShare": history_share,
        },
    )
    (root / "servers").mkdir()
    workers = max(1, workers if workers is not None else os.cpu_count() or 1)
    size = max(1, min(32, servers // (workers * 8)))
    chunks = [plans[start : start + size] for start in range(0, len(plans), size)]
    done = 0
    if workers == 1:
        for chunk in chunks:
            done += _write_servers(str(root), seed, chunk)
            if progress is not None:
                progress(done, servers)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_write_servers, str(root), seed, chunk) for chunk in chunks]
        try:
            for future in as_completed(futures):
                done += future.result()
                if progress is not None:
                    progress(done, servers)
        except BaseException:
            # Fail now rather than after every queued server has been written.
            pool.shutdown(cancel_futures=True)
            raise
