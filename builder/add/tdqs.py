"""Where a tdqs ScoreReport goes: `servers/<server-id>/<capture-id>.score.json`, the capture id made
from its `generatedAt` (`layout.capture_id_for`), the tools/list it scored beside it as
`<capture-id>.tools.json`. The server id is the report's server name when that is a valid id,
else the operator names it with `--server`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from builder.add.detect import Detected, read_file
from builder.add.plan import AddError, Filing, safe_segment
from builder.add.stage import check_staged
from builder.add.tools_match import refuse_foreign_tools
from builder.engine.problems import describe_validation_error
from builder.sources import data_writes
from builder.sources.data_writes import RefusedWrite
from builder.sources.jsonfile import MAX_FILE_BYTES
from builder.tdqs import layout
from builder.tdqs.categories import category_key
from builder.tdqs.models import ServerMeta
from builder.tdqs.reader import SYSTEM, TdqsCorpus
from builder.urls import portable_name

PLACEHOLDER = "staged"
"""Stands in for an id the report does not give, so its reader can say what is wrong with it."""


def plan_report(source: Path, found: Detected, tools: Path | None, server: str | None) -> list[Filing]:
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
    corpus = check_staged(SYSTEM, staged)
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
