"""Reads the TDQS part of a data directory into validated, re-checked records.

For every capture: the ScoreReport is validated with tdqs's own model; the spec version must be
one this build knows; duplicate tool names keep the first; every derived number is re-checked
(`recompute`); and where the tools/list that was scored sits beside it, each definition's
inputHash is recomputed (`input_hash`, tdqs's canonical form). A capture that cannot be used is
rejected with a reason; its server keeps its other captures.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from tdqs import (
    SPEC_VERSION,
    ScoreReport,
    TdqsInputError,
    ToolDefinition,
    ToolScore,
    parse_tool_definitions,
)

from builder.dates import instant_key
from builder.engine.incremental import content_key
from builder.engine.problems import ProblemLog, describe_validation_error, json_path
from builder.sources import jsonfile
from builder.sources.datafolder import Unreadable, kind, read_regular, report_skipped, skip_reason
from builder.sources.jsonfile import read_json, relative_name
from builder.tdqs import layout
from builder.tdqs.coverage import Coverage, coverage
from builder.tdqs.input_hash import input_hash
from builder.tdqs.models import ServerMeta
from builder.tdqs.recompute import CheckedServer, CheckedTool, check_server, check_tool, rollup
from builder.urls import clash_reason, distinct_slugs, slug, slug_clashes

SYSTEM = "tdqs"
SUPPORTED_SPEC_VERSIONS = frozenset({SPEC_VERSION})
STAND_IN_PREFIX = "stand-in/"


def stand_in_models(models: Iterable[str | None]) -> list[str]:
    """The stand-in models among `models`, sorted, each once."""
    return sorted({model for model in models if model and model.startswith(STAND_IN_PREFIX)})


def versions_for(spec_version: str) -> tuple[str, str]:
    """TDQS names one version for its rubric; the site records it as the two separate system
    versions the registry index carries (`1.2` → `scoringSystem/1.2.0`, `gradingSystem/1.2.0`)."""
    parts = [*spec_version.split("."), "0", "0"][:3]
    semver = ".".join(part if part.isdigit() else "0" for part in parts)
    return f"scoringSystem/{semver}", f"gradingSystem/{semver}"


@dataclass(frozen=True)
class Definition:
    tool: ToolDefinition
    input_hash: str
    """The definition's identity, as tdqs's `compute_input_hash` computes it."""


@dataclass(frozen=True)
class ToolRecord:
    name: str
    slug: str
    index: int
    """Position in the capture's `tools` array, for JSON paths in problems."""
    checked: CheckedTool
    definition: Definition | None
    """The definition as scored, from the capture's tools/list, when it has one."""
    latest_hash: str | None
    """inputHash of the newest definition of this tool in a tools/list at least as new as the score."""

    @property
    def score(self):
        return self.checked.score

    @property
    def input_hash(self) -> str:
        return self.checked.score.context_signals.input_hash

    @property
    def stale(self) -> bool:
        """Scored for a definition that a tools/list captured since (or beside it) no longer has: the
        definition known now is newer than the one scored."""
        return self.latest_hash is not None and self.latest_hash != self.input_hash


@dataclass(frozen=True)
class Capture:
    capture_id: str
    file: str
    tools_file: str | None
    report: ScoreReport
    tools: tuple[ToolRecord, ...]
    server: CheckedServer
    scoring_system: str
    grading_system: str
    unscored: tuple[str, ...] = ()
    """Tools in this capture's tools/list that its score report has no score for, by name."""
    not_in_tools_list: tuple[str, ...] = ()
    """Tools the report scored that its own tools/list (read, beside it) does not name, in report order."""
    coverage: Coverage | None = None
    """For the current capture: how much of the server it covers, against the newest tools/list
    (`builder.tdqs.coverage`); `server.coverage_ok` is this coverage's verdict."""
    dropped: frozenset[str] = frozenset()
    """For the current capture: the scored tools the newest tools/list no longer names. They keep
    their pages, but the server's aggregate, its formula and its advice are over `current_tools`."""

    @property
    def current_tools(self) -> tuple[ToolRecord, ...]:
        """The scored tools of the server's current tool set: every scored tool, less `dropped`."""
        if not self.dropped:
            return self.tools
        return tuple(tool for tool in self.tools if tool.name not in self.dropped)

    @property
    def generated_at(self) -> str:
        return self.report.generated_at

    @property
    def order(self) -> tuple[str, str]:
        """When it was made, as the instant (`dates.instant_key`), then its capture id."""
        return instant_key(self.report.generated_at), self.capture_id

    @property
    def foreign_tools_list(self) -> bool:
        """The tools/list beside the report is not the one it scored. tdqs scores every tool of the
        list it is given, so the list a report was scored from names every tool the report scored
        (it may name more: a list captured later with new tools is still that server's). One that
        lacks a tool of the report is most likely another server's, or another time's, filed by
        mistake: sharing no tool, or 1 of 27, its tools would otherwise be published as "not
        scored yet" and the server's coverage counted against it."""
        return bool(self.not_in_tools_list)

    @property
    def shares_no_tool(self) -> bool:
        """The tools/list beside the report names none of the tools it scored."""
        return bool(self.tools) and len(self.not_in_tools_list) == len(self.tools)


@dataclass(frozen=True)
class ToolList:
    """One captured tools/list (a `<capture>.tools.json`), scored or not: the definitions the
    server published at that time. They give a tool's definition history (what changed, since
    when) and the tools of the newest tools/list that have no score."""

    capture_id: str
    captured_at: str
    """The score's generatedAt, or the time in the capture id of a tools/list never scored."""
    scored: bool
    definitions: dict[str, Definition]
    file: str = ""
    """The `.tools.json`, relative to the data folder."""

    @property
    def order(self) -> tuple[str, str]:
        """When it was captured, as the instant (`dates.instant_key`), then its capture id."""
        return instant_key(self.captured_at), self.capture_id


@dataclass(frozen=True)
class Server:
    server_id: str
    slug: str
    meta: ServerMeta
    captures: tuple[Capture, ...]
    """Oldest first; the last one is current."""
    unscored_definitions: dict[str, str] = field(default_factory=dict)
    digest: str = ""
    """Content hash of every file in the server's folder: the key of its pages for incremental
    rebuilds (builder.engine.incremental)."""
    tool_lists: tuple[ToolList, ...] = ()
    """Every captured tools/list, oldest first."""
    unscored_slugs: dict[str, str] = field(default_factory=dict)
    """The page slug of each tool in the newest tools/list that the current capture did not score,
    distinct from every scored tool's slug."""

    @property
    def newest_tool_list(self) -> ToolList | None:
        """The newest captured tools/list, unless a score was captured after it without one."""
        return _newest_list(self.tool_lists, self.current)

    @property
    def newest_tools(self) -> dict[str, Definition]:
        """The newest capture's tools/list (empty when the newest capture came without one)."""
        newest = self.newest_tool_list
        return newest.definitions if newest is not None else {}

    @property
    def unscored_tools(self) -> dict[str, Definition]:
        """Tools of the newest tools/list without a score in the current capture, in list order."""
        scored = {tool.name for tool in self.current.tools}
        return {name: d for name, d in self.newest_tools.items() if name not in scored}

    @property
    def current(self) -> Capture:
        return self.captures[-1]

    @property
    def display_name(self) -> str:
        return self.meta.display_name or self.current.report.server.name or self.server_id


def _newest_list(tool_lists: tuple[ToolList, ...], current: Capture) -> ToolList | None:
    if not tool_lists:
        return None
    newest = tool_lists[-1]
    if newest.order < current.order:
        return None  # a score captured later came without its tools/list
    return newest


def _covered(current: Capture, tool_lists: tuple[ToolList, ...], log: ProblemLog) -> Capture:
    """The current capture with its coverage counted against the newest tools/list, and the
    aggregate published only when that coverage holds (`builder.tdqs.coverage`). A tools/list that
    names fewer tools than the report says the server has is partial: a warning on it."""
    newest = _newest_list(tool_lists, current)
    stated = current.report.server_score.tool_count
    if newest is None or not newest.definitions:
        found = coverage(current.tools, stated, None, None)
    else:
        listed = {name: definition.input_hash for name, definition in newest.definitions.items()}
        found = coverage(current.tools, stated, listed, newest.capture_id)
        if found.unlisted:
            gone = f", less the {found.not_listed} scored tools it no longer names" if found.not_listed else ""
            log.add(
                newest.file, SYSTEM, "$.tools",
                f"a partial tools/list: it names {len(listed)} tools, fewer than the {stated} that "
                f"{current.file}'s serverScore.toolCount says the server has{gone}; coverage is counted "
                f"against {found.tool_count}, and the {found.unlisted} it does not name are not scored",
                severity="warning",
            )
    dropped = frozenset(t.name for t in current.tools if newest is not None and t.name not in newest.definitions)
    kept = [tool.checked for tool in current.tools if tool.name not in dropped]
    # The specification aggregates over the server's tool set: a tool it no longer has sets no minimum.
    rolled = rollup(kept, current.report.server_score) if dropped and kept else current.server.rollup
    return replace(current, coverage=found, dropped=dropped if kept else frozenset(),
                   server=replace(current.server, coverage_ok=found.ok, rollup=rolled))


@dataclass(frozen=True)
class TdqsCorpus:
    servers: tuple[Server, ...]


def _read_definitions(path: Path, data_dir: Path, log: ProblemLog) -> dict[str, Definition] | None:
    document = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return None
    name = relative_name(path, data_dir)
    try:
        parsed = parse_tool_definitions(document)
    except TdqsInputError as error:
        log.reject(name, SYSTEM, "$.tools", f"not a tools/list result: {error}")
        return None
    return {tool.name: Definition(tool, input_hash(tool)) for tool in parsed.tools}


def _read_report(path: Path, data_dir: Path, log: ProblemLog) -> ScoreReport | None:
    document = read_json(path, data_dir, SYSTEM, log)
    if document is None:
        return None
    name = relative_name(path, data_dir)
    if not isinstance(document, dict):
        log.reject(name, SYSTEM, "$", "a capture must be a JSON object (a tdqs ScoreReport)")
        return None
    if _is_lint_report(document):
        log.reject(name, SYSTEM, "$", LINT_REPORT)
        return None
    booleans = _booleans_for_numbers(document)
    if booleans:
        log.reject(name, SYSTEM, booleans[0], "a boolean where a number is expected (true is not 1): "
                   "the capture is not used")
        for where in booleans[1:20]:
            log.add(name, SYSTEM, where, "a boolean where a number is expected")
        return None
    try:
        report = ScoreReport.model_validate(document)
    except ValidationError as error:
        problems = describe_validation_error(error)
        log.reject(name, SYSTEM, problems[0][0], "not a tdqs ScoreReport: " + problems[0][1])
        for where, reason in problems[1:20]:
            log.add(name, SYSTEM, where, reason)
        return None
    if not _is_timestamp(report.generated_at):
        log.reject(
            name, SYSTEM, "$.generatedAt",
            f"generatedAt {report.generated_at!r} is not a date and time (RFC 3339, such as "
            "2026-06-01T00:00:00Z): the capture cannot be placed in its server's history, so it is not used",
        )
        return None
    if report.spec_version not in SUPPORTED_SPEC_VERSIONS:
        known = ", ".join(sorted(SUPPORTED_SPEC_VERSIONS))
        log.reject(
            name, SYSTEM, "$.specVersion",
            f"TDQS spec version {report.spec_version!r} is not one this build knows ({known}); "
            "its scores cannot be checked or compared",
        )
        return None
    if not report.tools:
        log.reject(name, SYSTEM, "$.tools", "the capture scores no tools")
        return None
    return report


LINT_REPORT = ("this is a `tdqs lint` report (findings, no scores), not a tdqs ScoreReport: run `tdqs score "
               "--format json` on the same tools/list and add its output instead")
"""`tdqs lint --format json` writes a file that looks like a ScoreReport (specVersion, server, tools,
generatedAt) but holds no score: told apart, it is named for what it is, not as a report missing `model`."""


def _is_lint_report(document: dict[str, Any]) -> bool:
    """The shape of tdqs's LintReport: the findings and shadow candidates only it has, no serverScore."""
    return {"findings", "shadowCandidates"} <= document.keys() and "serverScore" not in document


_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$")


def _is_timestamp(value: str) -> bool:
    """An RFC 3339 date and time that is a real one (no 2026-13-45). Captures are ordered by it,
    so a string that merely sorts last ("zzz", "9999-…" garbage) must never become current."""
    if not _TIMESTAMP.match(value):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _booleans_for_numbers(document: dict[str, Any]) -> list[str]:
    """JSON paths of booleans where a ScoreReport has a number. pydantic reads `true` as 1 for an
    int, a float and a `Literal[1, …, 5]` alike, even in strict mode; tdqs's models are not ours to
    change, so the places that hold scores and counts are checked here before validation."""
    found: list[str] = []

    def check(value: Any, where: list[str | int]) -> None:
        if isinstance(value, bool):
            found.append(json_path(where))

    server = document.get("server")
    if isinstance(server, dict):
        check(server.get("toolCount"), ["server", "toolCount"])
    rollup = document.get("serverScore")
    if isinstance(rollup, dict):
        for key, value in rollup.items():
            check(value, ["serverScore", key])
        justified = rollup.get("coherenceJustifications")
        for key, value in justified.items() if isinstance(justified, dict) else ():
            check(value.get("score") if isinstance(value, dict) else None, ["serverScore", "coherenceJustifications", key, "score"])
    tools = document.get("tools")
    for index, tool in enumerate(tools if isinstance(tools, list) else ()):
        if not isinstance(tool, dict):
            continue
        check(tool.get("tdqs"), ["tools", index, "tdqs"])
        for group in ("scores", "contextSignals"):
            values = tool.get(group)
            for key, value in values.items() if isinstance(values, dict) else ():
                if group == "scores" or key not in _BOOLEAN_SIGNALS:
                    check(value, ["tools", index, group, key])
        justified = tool.get("justifications")
        for key, value in justified.items() if isinstance(justified, dict) else ():
            check(value.get("score") if isinstance(value, dict) else None, ["tools", index, "justifications", key, "score"])
    return found


_BOOLEAN_SIGNALS = frozenset({"hasAnnotations", "hasNestedObjects", "hasOutputSchema", "titleIsMeaningful"})
"""The context signals that are booleans in tdqs's `ContextSignals`; every other one is a number
(`annotationValues`, an object, holds booleans and is not looked into)."""


def _unique_tools(report: ScoreReport, name: str, log: ProblemLog) -> list[tuple[int, ToolScore]]:
    seen: set[str] = set()
    kept = []
    for index, tool in enumerate(report.tools):
        if tool.name in seen:
            log.add(name, SYSTEM, f"$.tools[{index}].name",
                    f"duplicate tool name {tool.name!r}: the first one is kept, this one is skipped")
            continue
        seen.add(tool.name)
        kept.append((index, tool))
    return kept


def report_clashes(found: list[layout.ServerFiles], data_dir: Path, log: ProblemLog) -> None:
    """A warning for each server folder whose address had to be numbered (`urls.distinct_slugs`)."""
    for name, given, holder in slug_clashes({files.server_id: files.slug for files in found}):
        log.add(f"{layout.SERVERS_DIR}/{name}", SYSTEM, "$", clash_reason(name, given, holder), severity="warning")


@dataclass(frozen=True)
class _Loaded:
    """One capture id's files as read: a score (None for a tools/list captured after the last
    scoring run), the definitions beside it, and the tools kept after de-duplication."""

    files: layout.CaptureFiles
    report: ScoreReport | None
    definitions: dict[str, Definition] | None
    kept: list[tuple[int, ToolScore]]

    @property
    def stamp(self) -> str:
        """The report's own timestamp; for a tools/list without a score, the time in its file name."""
        return self.report.generated_at if self.report else _stamp(self.files.capture_id)

    @property
    def order(self) -> tuple[str, str]:
        """By the instant of `stamp` (never its text: an offset or a fraction would misorder it),
        then by capture id."""
        return instant_key(self.stamp), self.files.capture_id


def _load(files: layout.CaptureFiles, data_dir: Path, log: ProblemLog) -> _Loaded | None:
    definitions = _read_definitions(files.tools, data_dir, log) if files.tools else None
    if files.score is None:
        return _Loaded(files, None, definitions, []) if definitions else None
    report = _read_report(files.score, data_dir, log)
    if report is None:
        return None
    return _Loaded(files, report, definitions, _unique_tools(report, relative_name(files.score, data_dir), log))


def _read_meta(server_files: layout.ServerFiles, data_dir: Path, log: ProblemLog) -> ServerMeta:
    if server_files.meta is None:
        return ServerMeta()
    document = read_json(server_files.meta, data_dir, SYSTEM, log)
    if document is None:
        return ServerMeta()
    try:
        return ServerMeta.model_validate(document)
    except ValidationError as error:
        name = relative_name(server_files.meta, data_dir)
        for where, reason in describe_validation_error(error):
            log.add(name, SYSTEM, where, f"{reason}; server.json ignored")
        return ServerMeta()


def _capture(
    loaded: _Loaded, meta: ServerMeta, slugs: dict[str, str], latest: dict[str, str], data_dir: Path, log: ProblemLog
) -> Capture:
    files, report = loaded.files, loaded.report
    assert report is not None and files.score is not None
    name = relative_name(files.score, data_dir)
    records = []
    for index, tool in loaded.kept:
        definition = loaded.definitions.get(tool.name) if loaded.definitions else None
        scored = definition is not None and definition.input_hash == tool.context_signals.input_hash
        checked = check_tool(tool, index, definition.tool if definition is not None and scored else None)
        for disagreement in checked.disagreements:
            log.add(name, SYSTEM, disagreement.json_path, disagreement.reason, severity="warning")
        if definition is not None and definition.input_hash != tool.context_signals.input_hash:
            assert files.tools is not None  # the definition was read from it
            log.add(
                name, SYSTEM, f"$.tools[{index}].contextSignals.inputHash",
                f"inputHash {tool.context_signals.input_hash} does not match {definition.input_hash}, "
                f"the hash of the definition of {tool.name!r} in {relative_name(files.tools, data_dir)}",
                severity="warning",
            )
        records.append(ToolRecord(tool.name, slugs[tool.name], index, checked, definition, latest.get(tool.name)))
    server = check_server(report, [record.checked for record in records])
    for disagreement in server.disagreements:
        log.add(name, SYSTEM, disagreement.json_path, disagreement.reason, severity="warning")
    stated = report.server_score.tool_count
    if len(records) > stated:
        log.add(
            name, SYSTEM, "$.serverScore.toolCount",
            f"the capture scores {len(records)} tools, more than the {stated} its toolCount says the server has; "
            "the page shows both numbers",
            severity="warning",
        )
    scoring_system, grading_system = versions_for(report.spec_version)
    capture = Capture(
        capture_id=files.capture_id,
        file=name,
        tools_file=relative_name(files.tools, data_dir) if files.tools else None,
        report=report,
        tools=tuple(records),
        server=server,
        scoring_system=meta.scoring_system or scoring_system,
        grading_system=meta.grading_system or grading_system,
        unscored=tuple(sorted(set(loaded.definitions or {}) - {record.name for record in records})),
        not_in_tools_list=() if loaded.definitions is None else tuple(
            record.name for record in records if record.name not in loaded.definitions),
    )
    if capture.foreign_tools_list and capture.tools_file is not None:
        log.add(capture.tools_file, SYSTEM, "$.tools", foreign_tools_reason(capture, name) + (
            ": it looks like another server's tools/list, and its tools are listed as not scored yet"
            if capture.shares_no_tool else
            ": it is not the tools/list the report scored, which names every tool the report scored"),
            severity="warning")
    return capture


def foreign_tools_reason(capture: Capture, report_name: str) -> str:
    """What a tools/list that does not belong beside its report lacks, in one line."""
    names = [record.name for record in capture.tools]
    if capture.shares_no_tool:
        count = len(capture.unscored)
        return (f"none of its {count} tool{'' if count == 1 else 's'} is among the {len(names)} that "
                f"{report_name} scored ({_first_names(names)})")
    listed = len(names) - len(capture.not_in_tools_list)
    return (f"only {listed} of the {len(names)} tools that {report_name} scored {'is' if listed == 1 else 'are'} "
            f"in this tools/list (missing: {_first_names(list(capture.not_in_tools_list))})")


def _first_names(names: list[str], shown: int = 3) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def read_server(
    server_files: layout.ServerFiles, data_dir: Path, log: ProblemLog, digest: str | None = None
) -> Server | None:
    """`digest`: the folder's `folder_digest`, when the caller has it already."""
    folder_name = relative_name(server_files.folder, data_dir)
    for stray in server_files.strays:
        log.reject(relative_name(stray, data_dir), SYSTEM, "$", skip_reason(kind(stray)) or
                   "not a TDQS file (expected server.json, <capture>.score.json or <capture>.tools.json)")
    if not layout.SERVER_ID.match(server_files.server_id):
        log.reject(folder_name, SYSTEM, "$",
                   "server folder name is not a valid server id ([A-Za-z0-9._-], 1-128 characters)")
        return None
    meta = _read_meta(server_files, data_dir, log)
    loaded = sorted(
        (item for files in server_files.captures if (item := _load(files, data_dir, log)) is not None),
        key=lambda item: item.order,
    )
    _report_same_instants(loaded, data_dir, log)
    if not any(item.report for item in loaded):
        if server_files.captures:
            log.add(folder_name, SYSTEM, "$", "no usable score: the server is listed as not scored yet")
        return None
    # For each score, the newest definition of each tool known from a tools/list at least as new as
    # the score: a score made for another hash is stale. A tools/list older than the score says
    # nothing of it (the score was made for a definition that list did not have yet).
    latest_from: dict[int, dict[str, str]] = {}
    known: dict[str, str] = {}
    for position in range(len(loaded) - 1, -1, -1):
        item = loaded[position]
        known = {**{n: d.input_hash for n, d in (item.definitions or {}).items()}, **known}
        if item.report is not None:
            latest_from[position] = known
    newest = loaded[-1]
    unscored = {n: d.input_hash for n, d in (newest.definitions or {}).items()} if newest.report is None else {}
    slugs = distinct_slugs(tool.name for item in loaded for _, tool in item.kept)
    for name, given, holder in slug_clashes(slugs):
        log.add(folder_name, SYSTEM, "$", "tools " + clash_reason(name, given, holder), severity="warning")
    listed = list((newest.definitions or {}).keys())
    current = next(item for item in reversed(loaded) if item.report)
    scored_now = {tool.name for _, tool in current.kept}
    unscored_slugs = _unscored_slugs([name for name in listed if name not in scored_now], slugs)
    captures = [_capture(item, meta, slugs, latest_from[position], data_dir, log)
                for position, item in enumerate(loaded) if item.report]
    tool_lists = tuple(
        ToolList(item.files.capture_id, item.stamp, item.report is not None, item.definitions,
                 relative_name(item.files.tools, data_dir) if item.files.tools else "")
        for item in loaded if item.definitions is not None
    )
    return Server(
        server_id=server_files.server_id,
        slug=server_files.slug or slug(server_files.server_id),
        meta=meta,
        captures=(*captures[:-1], _covered(captures[-1], tool_lists, log)),
        unscored_definitions=unscored,
        digest=digest or folder_digest(server_files),
        tool_lists=tool_lists,
        unscored_slugs=unscored_slugs,
    )


def _report_same_instants(loaded: list[_Loaded], data_dir: Path, log: ProblemLog) -> None:
    """A warning for each score made at the same instant as the one before it: which of the two
    is current cannot be told from their timestamps, so they are ordered by capture id."""
    scores = [item for item in loaded if item.report is not None and item.files.score is not None]
    for before, after in itertools.pairwise(scores):
        if before.order[0] == after.order[0]:
            assert after.files.score is not None and before.files.score is not None
            log.add(
                relative_name(after.files.score, data_dir), SYSTEM, "$.generatedAt",
                f"generatedAt {after.stamp!r} is the same instant as {before.stamp!r} of "
                f"{relative_name(before.files.score, data_dir)}: which is newer cannot be told, so they are "
                f"ordered by capture id and {after.files.capture_id} is taken as the later",
                severity="warning",
            )


def _unscored_slugs(names: list[str], scored: dict[str, str]) -> dict[str, str]:
    """Page slugs for the tools of the newest tools/list without a score: a tool scored before keeps
    its slug, and no new one takes a scored tool's (`-u2`, `-u3` … on a clash)."""
    taken = set(scored.values())
    fresh = distinct_slugs(name for name in names if name not in scored)
    result = {}
    for name in names:
        if name in scored:
            result[name] = scored[name]
            continue
        candidate, counter = fresh[name], 2
        while candidate in taken:
            candidate, counter = f"{fresh[name]}-u{counter}", counter + 1
        taken.add(candidate)
        result[name] = candidate
    return result


def folder_digest(server_files: layout.ServerFiles) -> str:
    parts: list[bytes | str] = [server_files.server_id, server_files.slug]  # the slug: a clash can change it
    paths = [server_files.meta] + [p for c in server_files.captures for p in (c.score, c.tools)]
    for path in sorted((p for p in paths if p is not None), key=lambda p: p.name):
        # Read as the reader reads it (builder.sources.datafolder): a file over the size limit is
        # keyed by the reason it is refused, which names its size, and is never read whole.
        try:
            parts += [path.name, read_regular(path, jsonfile.MAX_FILE_BYTES)]
        except Unreadable as error:
            parts += [path.name, "unreadable: " + error.reason]
    # What the reader says of a stray depends on its name and what it is (a file, a folder, a link):
    # a stray added, removed or changed in kind changes the server's problems, so its key.
    for stray in sorted(server_files.strays, key=lambda p: p.name):
        parts += ["stray", stray.name, kind(stray)]
    return content_key(*parts)


def _stamp(capture_id: str) -> str:
    """`2026-05-14T09-30-00Z` → `2026-05-14T09:30:00Z`, comparable with generatedAt."""
    if "T" in capture_id:
        day, time = capture_id.split("T", 1)
        return day + "T" + time.replace("-", ":")
    return capture_id


def discover_servers(data_dir: Path, log: ProblemLog) -> list[layout.ServerFiles] | None:
    """The data folder's server folders, in data-folder order (what is skipped, and clashing
    slugs, logged); None when it has no TDQS data at all. The TDQS sources of the build
    (builder.tdqs.pages.section) and of `read_servers`."""
    skipped: list[Path] = []
    found = layout.discover(data_dir, skipped)
    report_skipped(skipped, data_dir, SYSTEM, log)
    report_clashes(found, data_dir, log)
    if not found and kind(data_dir / layout.INDEX_FILE) == "missing":
        return None
    return found


def read_servers(data_dir: Path, log: ProblemLog) -> Iterator[Server] | None:
    """The data folder's servers, read and validated one at a time as they are asked for, in
    data-folder order (problems logged); None when it has no TDQS data at all. What reads a whole
    registry without holding it (`scorecards index`, `add`, `demo`) takes them from here: the
    sources the build reads (`discover_servers`), each read by `read_server` as the build does."""
    found = discover_servers(data_dir, log)
    if found is None:
        return None
    return (server for files in found if (server := read_server(files, data_dir, log)) is not None)


def read_tdqs(data_dir: Path, log: ProblemLog) -> TdqsCorpus | None:
    """Every server of the data folder, held (for checking a small staged folder, and for tests)."""
    servers = read_servers(data_dir, log)
    return None if servers is None else TdqsCorpus(servers=tuple(servers))
