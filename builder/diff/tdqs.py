"""What changed for TDQS servers between two builds, from their API files (`api/servers/<id>.json`).

Only the files whose bytes differ are read (builder.diff.read), so a server whose file is the same
in both builds has not changed. A server both builds have is compared on its overall tier and
score, each scored tool's TDQS and tier, its coverage against the 80% rule (`coverage.ok`), and its
tools' smells and flags; a server one build has is listed as added or removed, its smells not
repeated (they are on its page).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builder.diff.model import (
    Coverage,
    CoverageMove,
    Finding,
    ScoreMove,
    Server,
    ServerSeen,
    TdqsDiff,
    TierMove,
    ToolSeen,
)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _scores(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    scores = doc.get("scores")
    return scores if isinstance(scores, dict) else {}


def _tools(doc: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    tools = doc.get("tools")
    return {tool["name"]: tool for tool in tools if isinstance(tool, dict) and isinstance(tool.get("name"), str)} \
        if isinstance(tools, list) else {}


def _coverage(doc: Mapping[str, Any]) -> Coverage | None:
    coverage = doc.get("coverage")
    if not isinstance(coverage, dict):
        return None
    scored, tools = coverage.get("scored"), coverage.get("toolCount")
    if not isinstance(scored, int) or not isinstance(tools, int):
        return None
    return Coverage(scored, tools, coverage.get("ok") is True)


def _names(values: Any) -> set[str]:
    """Smells or flags: each a name (a flag published as an object is named by its `flag`/`name`)."""
    names = set()
    for value in values if isinstance(values, list) else ():
        if isinstance(value, dict):
            value = value.get("flag", value.get("name", value.get("code")))
        if value is not None:
            names.add(str(value))
    return names


def _findings(doc: Mapping[str, Any], key: str) -> set[tuple[str, str]]:
    """(tool, name) of every tool's `key` (`smells` or `flags`); with `flags`, the server's own
    flags too, as tool ""."""
    found = set()
    for name, tool in _tools(doc).items():
        found |= {(name, smell) for smell in _names(tool.get(key))}
        if key == "flags":
            found |= {("", flag) for flag in _names(tool.get("serverFlags"))}
    return found


def _server(doc: Mapping[str, Any]) -> Server:
    provenance = doc.get("provenance")
    file = _text(provenance.get("file")) if isinstance(provenance, dict) else None
    identity = str(doc.get("id"))
    return Server(identity, _text(doc.get("displayName")) or identity, file)


def _seen(doc: Mapping[str, Any]) -> ServerSeen:
    scores = _scores(doc)
    return ServerSeen(_server(doc), _text(scores.get("overallTier")), _number(scores.get("overallScore")),
                      len(_tools(doc)))


def compare(base: Mapping[str, Mapping[str, Any]], head: Mapping[str, Mapping[str, Any]]) -> TdqsDiff:
    """The changes from `base` to `head`, each a map of server id to its API document (only the
    servers whose documents differ need be given)."""
    diff = TdqsDiff()
    for identity in sorted(set(base) | set(head)):
        before, after = base.get(identity), head.get(identity)
        if before is None and after is not None:
            diff.added.append(_seen(after))
        elif after is None and before is not None:
            diff.removed.append(_seen(before))
        elif before is not None and after is not None:
            _compare_server(diff, before, after)
    diff.sort()
    return diff


def _compare_server(diff: TdqsDiff, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    server = _server(after)
    if server.file is None:
        server = Server(server.id, server.name, _server(before).file)
    counts = _counts(diff)
    old, new = _scores(before), _scores(after)
    tier_before, tier_after = _text(old.get("overallTier")), _text(new.get("overallTier"))
    score_before, score_after = _number(old.get("overallScore")), _number(new.get("overallScore"))
    if tier_before != tier_after:
        diff.tiers.append(TierMove(server, tier_before, tier_after, score_before, score_after))
    if score_before is not None and score_after is not None and score_before != score_after:
        diff.overall.append(ScoreMove(server, None, score_before, score_after, tier_before, tier_after))
    old_tools, new_tools = _tools(before), _tools(after)
    for name in sorted(set(old_tools) | set(new_tools)):
        was = _number(old_tools[name].get("tdqs")) if name in old_tools else None
        now = _number(new_tools[name].get("tdqs")) if name in new_tools else None
        was_tier = _text(old_tools[name].get("tier")) if name in old_tools else None
        now_tier = _text(new_tools[name].get("tier")) if name in new_tools else None
        if was is not None and now is not None and (was != now or was_tier != now_tier):
            diff.tools.append(ScoreMove(server, name, was, now, was_tier, now_tier))
        elif was is None and now is not None:
            diff.tools_added.append(ToolSeen(server, name, now, now_tier))
        elif now is None and was is not None:
            diff.tools_removed.append(ToolSeen(server, name, was, was_tier))
    coverage_before, coverage_after = _coverage(before), _coverage(after)
    if coverage_before is not None and coverage_after is not None and coverage_before.ok != coverage_after.ok:
        diff.coverage.append(CoverageMove(server, coverage_before, coverage_after))
    for key, new_list, cleared_list in (("smells", diff.new_smells, diff.cleared_smells),
                                        ("flags", diff.new_flags, diff.cleared_flags)):
        was_found, now_found = _findings(before, key), _findings(after, key)
        new_list.extend(Finding(server, tool, name) for tool, name in sorted(now_found - was_found))
        cleared_list.extend(Finding(server, tool, name) for tool, name in sorted(was_found - now_found))
    if _counts(diff) != counts:
        diff.changed.append(server)


def _counts(diff: TdqsDiff) -> int:
    return sum(len(items) for items in (diff.tiers, diff.overall, diff.tools, diff.tools_added, diff.tools_removed,
                                        diff.coverage, diff.new_smells, diff.cleared_smells, diff.new_flags,
                                        diff.cleared_flags))
