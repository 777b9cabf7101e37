"""What `scorecards add` files for TDQS: a tdqs ScoreReport goes to
`servers/<server-id>/<capture-id>.score.json`, the capture id made from its `generatedAt`
(`layout.capture_id_for`), the tools/list it scored beside it as `<capture-id>.tools.json`. The
server id is the report's server name when that is a valid id, else the operator names it with
`--server`; `--category` adds categories to the server's server.json. Once filed, index.json is
brought up to date.

A tools/list filed beside a ScoreReport must be the one it scored: it names every tool the
report scored (tdqs scores every tool of the list it is given; a list with more tools, captured
later, is still the server's).

An operator who passes another server's tools/list with `--tools` would otherwise publish all of
its tools as "not scored yet" on the wrong server; one that shares a tool or two with the report
(1 of 27) is as wrong, and would also have the server's coverage counted against it. The build only warns about such a pair (it may
already be in a data folder: `scorecards check` lists it); `add`, the moment the pair is made,
refuses it. Both ask the same question of the reader's capture (`Capture.foreign_tools_list`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from builder.engine.adding import AddError, AddKind, AddRequest, Detected, Filing, check_staged, read_file, safe_segment
from builder.engine.problems import ProblemLog, describe_validation_error
from builder.sources import data_writes
from builder.sources.data_writes import RefusedWrite
from builder.sources.jsonfile import MAX_FILE_BYTES
from builder.tdqs import layout
from builder.tdqs.categories import category_key
from builder.tdqs.models import ServerMeta
from builder.tdqs.reader import SYSTEM, Capture, TdqsCorpus, foreign_tools_reason, read_servers, read_tdqs
from builder.tdqs.registry_index import write_index
from builder.urls import portable_name

PLACEHOLDER = "staged"
"""Stands in for an id the report does not give, so its reader can say what is wrong with it."""


def plan_report(source: Path, found: Detected, request: AddRequest) -> list[Filing]:
    tools, server = request.tools, request.server
    document: dict[str, Any] = found.document
    name = document.get("server", {}).get("name") if isinstance(document.get("server"), dict) else None
    wanted = server if server is not None else name
    server_id = wanted if isinstance(wanted, str) and layout.SERVER_ID.match(wanted) and portable_name(wanted) else None
    stamp = document.get("generatedAt")
    capture = safe_segment(layout.capture_id_for(stamp)) if isinstance(stamp, str) and stamp else None
    folder = f"{layout.SERVERS_DIR}/{server_id or PLACEHOLDER}"
    score = f"{folder}/{capture or PLACEHOLDER}{layout.SCORE_SUFFIX}"
    staged = [(score, found.raw, source)]
    if tools is not None:
        staged.append((f"{folder}/{capture or PLACEHOLDER}{layout.TOOLS_SUFFIX}", read_file(tools), tools))
    corpus = check_staged(read_tdqs, staged)
    if not isinstance(corpus, TdqsCorpus) or not corpus.servers:
        raise AddError(source, "$", "the TDQS reader found no usable capture in it")
    if server_id is None:
        if server is not None:
            raise AddError(server, "--server", "not a valid server id (1-128 characters of A-Z a-z 0-9 . _ -, "
                           "starting with a letter or digit, not ending in a dot, not a name Windows reserves)")
        raise AddError(source, "$.server.name", f"{name!r} is not a valid server id (1-128 characters of "
                       "A-Z a-z 0-9 . _ -, starting with a letter or digit, not ending in a dot, not a name Windows "
                       "reserves): name the server with --server ID")
    if capture is None:
        raise AddError(source, "$.generatedAt", f"{stamp!r} cannot name a capture file")
    if tools is not None:
        refuse_foreign_tools(corpus.servers[0].current, source, tools)
    report = corpus.servers[0].current.report
    kind = f"tdqs ScoreReport, {len(report.tools)} tools"
    filings = [Filing(source, staged[0][0], found.raw, kind, SYSTEM)]
    if tools is not None:
        filings.append(Filing(tools, staged[1][0], staged[1][1], "the tools/list it scored", SYSTEM))
    if request.categories:
        filings.append(plan_categories(request.data, filings[0], request.categories))
    return filings


def plan_categories(data: Path, report: Filing, categories: list[str]) -> Filing:
    """The server.json of the report's server with `categories` added to those it names (a name
    it has already, whatever its case or punctuation, is not added twice); a new server.json when
    there is none. Checked with the model the build reads it with."""
    folder = report.target.rsplit("/", 1)[0]
    target = f"{folder}/{layout.SERVER_META}"
    try:
        existing = data_writes.read_target(data, target, MAX_FILE_BYTES)  # never through a link
    except RefusedWrite as error:
        raise AddError(target, "$", str(error)) from None
    document: dict[str, Any] = {}
    if existing is not None:
        try:
            loaded = json.loads(existing.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise AddError(target, "$", f"cannot read it to add categories ({error}); fix it first") from error
        if not isinstance(loaded, dict):
            raise AddError(target, "$", "is not a JSON object; fix it first")
        document = loaded
    named = document.get("categories") or []
    if not isinstance(named, list):
        raise AddError(target, "$.categories", "is not a list; fix it first")
    keys = {category_key(name) for name in named if isinstance(name, str)}
    added = []
    for name in categories:
        if category_key(name) not in keys:
            keys.add(category_key(name))
            added.append(name)
    document = {**document, "categories": [*named, *added]}
    try:
        ServerMeta.model_validate(document)
    except ValidationError as error:
        where, reason = describe_validation_error(error)[0]
        raise AddError(target, where, f"{reason}; with --category {', '.join(categories)}") from error
    content = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    if not added and existing is not None:
        content = existing  # nothing new: "already there", the file untouched
    return Filing(Path("--category"), target, content, "categories " + ", ".join(categories), SYSTEM, update=True)


def refuse_foreign_tools(capture: Capture, report: Path, tools: Path) -> None:
    """AddError naming the tools/list when it lacks a tool of the report it goes beside."""
    if not capture.foreign_tools_list:
        return
    reason = foreign_tools_reason(capture, str(report))
    if capture.shares_no_tool:
        raise AddError(tools, "$.tools", f"{reason}: it looks like another server's tools/list; give the one this "
                       "report scored")
    raise AddError(tools, "$.tools", f"{reason}: the tools/list beside a report must be the one it scored, which "
                   "names every tool the report scored; give that one")


def _tools_list_hint(document: dict[str, Any]) -> str | None:
    if "tools" in document:
        return "this looks like a tools/list result: add it with --tools beside the tdqs ScoreReport that scored it"
    return None


def _update_index(data: Path, prefix: str) -> list[str]:
    """index.json, the registry rollup, made again from every server now filed."""
    servers = read_servers(data, ProblemLog())
    if servers is None:
        return []
    _, count = write_index(data, servers)
    return [f"updated {prefix}index.json ({count} server{'' if count == 1 else 's'})"]


KIND = AddKind(
    name="a tdqs ScoreReport",
    system=SYSTEM,
    matches=lambda document: "specVersion" in document or {"serverScore", "tools"} <= set(document),
    plan=plan_report,
    hint=_tools_list_hint,
    options=frozenset({"tools", "categories"}),
    finish=_update_index,
)
