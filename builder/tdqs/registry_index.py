"""index.json, the registry rollup: rebuilt from the captures, and checked against them.

index.json is derived data. `scorecards index DATA` writes it so nobody edits it by hand; a
build compares the stored file with what the captures say now and reports every disagreement
(a server missing from the index, a stale current capture, a score that moved), because an
index that lags its captures is exactly what a registry's API consumers would be misled by.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from builder.engine.problems import ProblemLog, describe_validation_error, json_path
from builder.sources.data_writes import write_file
from builder.tdqs import layout
from builder.tdqs.models import (
    CurrentScores,
    IndexCapture,
    IndexServer,
    RegistryIndex,
    Versions,
)
from builder.tdqs.reader import SYSTEM, Capture, Server

INDEX_COMMAND = "`scorecards index DATA`"
"""The command that rebuilds index.json, as a problem says it: the build report is published with
the site, so it names no folder of the machine that built it; `scorecards check` and `build -v`
print it with the data folder as it was typed (`index_command`)."""
REBUILD = f"run {INDEX_COMMAND} to rebuild it from the captures"


def index_command(data: str) -> str:
    """INDEX_COMMAND for the data folder `data`, quoted for a shell where it needs to be."""
    return f"`scorecards index {shlex.quote(data)}`"


def _versions(capture: Capture) -> Versions:
    return Versions(
        spec_version=capture.report.spec_version,
        model=capture.report.model,
        scoring_system=capture.scoring_system,
        grading_system=capture.grading_system,
    )


def current_scores(capture: Capture) -> CurrentScores:
    rollup = capture.server.rollup
    published = capture.server.coverage_ok
    return CurrentScores(
        overall_score=rollup.overall_score if published else None,
        overall_tier=rollup.overall_tier if published else None,
        description_quality_score=rollup.description_quality_score if published else None,
        description_quality_tier=rollup.description_quality_tier if published else None,
        coherence_score=rollup.coherence_score,
        coherence_tier=rollup.coherence_tier,
        mean_tdqs=rollup.mean_tdqs,
        min_tdqs=rollup.min_tdqs,
        tool_count=rollup.tool_count,
        scored_tool_count=rollup.scored_tool_count,
        coverage_ok=published,
    )


def index_server(server: Server) -> IndexServer:
    current = server.current
    return IndexServer(
        id=server.server_id,
        display_name=server.display_name,
        description=server.meta.description,
        repository_url=server.meta.repository_url,
        homepage_url=server.meta.homepage_url,
        current_capture=current.capture_id,
        scores=current_scores(current),
        versions=_versions(current),
        captures=[
            IndexCapture(
                id=capture.capture_id,
                generated_at=capture.generated_at,
                score_file=capture.file,
                tools_file=capture.tools_file,
                overall_score=current_scores(capture).overall_score,
                overall_tier=current_scores(capture).overall_tier,
                versions=_versions(capture),
            )
            for capture in server.captures
        ],
    )


def _dump(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def dump_index(index: RegistryIndex) -> str:
    return _dump(index.model_dump(mode="json", by_alias=True)) + "\n"


def index_text(servers: Iterable[Server]) -> Iterator[str]:
    """`dump_index` of the index of `servers`, piece by piece as the servers come: the same text,
    without holding a registry's servers or entries (each entry is dumped as its server is read)."""
    empty = _dump(RegistryIndex(servers=[]).model_dump(mode="json", by_alias=True))
    before, after = empty.split('"servers": []')
    yield before + '"servers": ['
    separator = "\n"
    for server in servers:
        entry = _dump(index_server(server).model_dump(mode="json", by_alias=True))
        yield separator + "\n".join("    " + line for line in entry.split("\n"))
        separator = ",\n"
    yield ("\n  ]" if separator == ",\n" else "]") + after + "\n"


def write_index(data_dir: Path, servers: Iterable[Server]) -> tuple[Path, int]:
    """Writes `index.json` from `servers` (read as they are written, see `index_text`) through the
    data folder's one write rule (builder.sources.data_writes): whole to a temporary file beside
    it, then renamed into place, so an `index.json` that is a symbolic link is replaced by the file,
    never written through into what it points at (which may lie outside the data folder), and a
    failed or killed write leaves the previous index whole. Returns the path and the server count."""
    count = 0

    def counted() -> Iterator[Server]:
        nonlocal count
        for server in servers:
            count += 1
            yield server

    pieces = (piece.encode("utf-8") for piece in index_text(counted()))
    write_file(data_dir, layout.INDEX_FILE, pieces, replace=True)
    return data_dir / layout.INDEX_FILE, count


def index_entry_json(server: Server) -> str:
    """The server's index.json entry as JSON: what a build keeps of it to compare with the stored
    index (a fifth of the memory the model takes, fifteen thousand times over in a registry)."""
    return index_server(server).model_dump_json(by_alias=True)


def compare_index(stored: object | None, expected_entries: Iterable[tuple[str, str]], log: ProblemLog) -> None:
    """Report every way the stored index.json (as parsed, None when absent) disagrees with the
    entries the captures give: (server id, `index_entry_json`) each, read once, in any order (a
    registry's are streamed from the build's spool: only those that differ are held)."""
    if stored is None:
        if any(True for _ in expected_entries):
            log.add(layout.INDEX_FILE, SYSTEM, "$",
                    f"index.json is missing; run {INDEX_COMMAND} to build it from the captures",
                    severity="warning")
        return
    try:
        index = RegistryIndex.model_validate(stored)
    except ValidationError as error:
        for where, reason in describe_validation_error(error)[:20]:
            log.add(layout.INDEX_FILE, SYSTEM, where, f"{reason}; index.json ignored, the captures are used")
        return
    first: dict[str, int] = {}
    for position, entry in enumerate(index.servers):
        first.setdefault(entry.id, position)
    matched: set[int] = set()
    differing: dict[int, str] = {}
    """Position in the stored index → the entry the captures give, where the two differ."""
    unlisted: set[str] = set()
    for server_id, want in expected_entries:
        found = first.get(server_id)
        if found is None:
            unlisted.add(server_id)
            continue
        matched.add(found)
        if index.servers[found].model_dump_json(by_alias=True) == want:  # most of a registry's entries end here
            differing.pop(found, None)
        else:
            differing[found] = want
    for position, entry in enumerate(index.servers):
        here = json_path(["servers", position])
        if position not in matched or first[entry.id] != position:
            log.add(layout.INDEX_FILE, SYSTEM, here,
                    f"server {entry.id!r} is in index.json but has no usable capture; {REBUILD}", severity="warning")
            continue
        if position not in differing:
            continue
        have_doc = entry.model_dump(mode="json", by_alias=True)
        want_doc = IndexServer.model_validate_json(differing[position]).model_dump(mode="json", by_alias=True)
        for key in sorted(want_doc):
            if have_doc.get(key) != want_doc[key]:
                for sub, before, after in _differences(have_doc.get(key), want_doc[key], [key]):
                    log.add(
                        layout.INDEX_FILE, SYSTEM, json_path(["servers", position, *sub]),
                        f"index.json says {_short(before)} but the captures say {_short(after)}; {REBUILD}",
                        severity="warning",
                    )
    for server_id in sorted(unlisted):
        log.add(layout.INDEX_FILE, SYSTEM, "$.servers",
                f"server {server_id!r} has captures but is not in index.json; {REBUILD}", severity="warning")


def _differences(have: object, want: object, path: list[str | int]) -> list[tuple[list[str | int], object, object]]:
    if isinstance(have, dict) and isinstance(want, dict):
        found = []
        for key in sorted(set(have) | set(want)):
            if have.get(key) != want.get(key):
                found.extend(_differences(have.get(key), want.get(key), [*path, key]))
        return found
    if isinstance(have, list) and isinstance(want, list) and len(have) == len(want):
        found = []
        for position, (a, b) in enumerate(zip(have, want, strict=True)):
            if a != b:
                found.extend(_differences(a, b, [*path, position]))
        return found
    return [(path, have, want)]


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."
