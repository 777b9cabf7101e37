"""The comparison for people: GitHub-flavoured Markdown, as a pull request's job summary shows it.

Every text from the data (a server's name, a tool's, a smell's) is escaped for a table cell: HTML's
`&`, `<` and `>` as entities, so `<script>` is text, and Markdown's punctuation with a backslash,
so a `|` does not end the cell and a `*` does not start emphasis; a line break becomes a space. A
table lists at most `ROWS` rows and says how many more the JSON has, so a pull request that
changes a whole registry still fits a job summary (GitHub keeps 1 MiB of one).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from builder.diff.model import Coverage, Diff, GradeMove, Server, TdqsDiff, delta_text, score_text
from builder.numbers import percent

ROWS = 200
"""The most rows one table shows."""

_PUNCTUATION = re.compile(r"([\\`*_{}\[\]|~#!])")
SYSTEM_NAMES = {"tdqs": "TDQS", "flowmcp": "FlowMCP", "cleo": "CLEO"}


def text(value: object) -> str:
    """`value` as text that stays itself in a Markdown table cell."""
    escaped = html.escape(" ".join(str(value).split()), quote=False)
    return _PUNCTUATION.sub(r"\\\1", escaped)


number, delta = score_text, delta_text
"""Scores and changes as the JSON's `deltaText` writes them (builder.diff.model)."""


def _moved(steps: int, before: str | None, after: str | None) -> str:
    if after is None:
        return "tier withheld"
    if before is None:
        return "tier given"
    return f"{'up' if steps > 0 else 'down'} {abs(steps)}"


def _server(server: Server) -> str:
    if server.name == server.id:
        return text(server.id)
    return f"{text(server.name)} ({text(server.id)})"


def _tier(tier: str | None) -> str:
    return text(tier) if tier else "no tier"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], count: int) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for number_, row in enumerate(rows):
        if number_ == ROWS:
            break
        lines.append("| " + " | ".join(row) + " |")
    if count > ROWS:
        lines.append("")
        lines.append(f"…and {count - ROWS:,} more (the JSON, `scorecards diff --json`, lists every one).")
    return lines


def _section(title: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    if not rows:
        return []
    return ["", f"#### {title} ({len(rows):,})", "", *_table(head, rows, len(rows))]


def _coverage(coverage: Coverage) -> str:
    shown = percent(coverage.share, 0)
    verdict = "overall shown" if coverage.ok else "overall withheld"
    return f"{coverage.scored} of {coverage.tools} tools scored ({shown}): {verdict}"


def _tdqs(changes: TdqsDiff) -> list[str]:
    lines = ["", "### TDQS", "",
             f"{len(changes.tiers)} servers change tier, {len(changes.overall)} overall scores and "
             f"{len(changes.tools)} tool scores change, {len(changes.coverage)} servers cross the 80% coverage "
             f"rule, {len(changes.new_smells)} new smells and {len(changes.new_flags)} new flags; "
             f"{len(changes.added)} servers added, {len(changes.removed)} removed."]
    lines += _section("Tier moves", ("Server", "Tier", "Overall"), [
        (_server(move.server),
         f"{_tier(move.before)} → {_tier(move.after)} ({_moved(move.steps, move.before, move.after)})",
         f"{number(move.score_before)} → {number(move.score_after)}") for move in changes.tiers])
    lines += _section("Overall scores", ("Server", "Before", "After", "Change"), [
        (_server(move.server), number(move.before), number(move.after), delta(move.delta))
        for move in changes.overall])
    lines += _section("Tool scores", ("Server", "Tool", "Before", "After", "Change", "Tier"), [
        (_server(move.server), text(move.tool), number(move.before), number(move.after), delta(move.delta),
         f"{_tier(move.tier_before)} → {_tier(move.tier_after)}" if move.tier_before != move.tier_after
         else _tier(move.tier_after)) for move in changes.tools])
    lines += _section("Coverage crossing 80%", ("Server", "Before", "After"), [
        (_server(move.server), _coverage(move.before), _coverage(move.after)) for move in changes.coverage])
    for title, findings, what in (("New smells", changes.new_smells, "Smell"),
                                  ("Cleared smells", changes.cleared_smells, "Smell"),
                                  ("New flags", changes.new_flags, "Flag"),
                                  ("Cleared flags", changes.cleared_flags, "Flag")):
        lines += _section(title, ("Server", "Tool", what), [
            (_server(finding.server), text(finding.tool) if finding.tool else "(the server)", text(finding.name))
            for finding in findings])
    for title, tools in (("Tools scored", changes.tools_added), ("Tools no longer scored", changes.tools_removed)):
        lines += _section(title, ("Server", "Tool", "TDQS", "Tier"), [
            (_server(tool.server), text(tool.tool), number(tool.tdqs), _tier(tool.tier)) for tool in tools])
    for title, seen in (("Servers added", changes.added), ("Servers removed", changes.removed)):
        lines += _section(title, ("Server", "Tier", "Overall", "Tools"), [
            (_server(one.server), _tier(one.tier), number(one.score), str(one.tools)) for one in seen])
    return lines


def _grade(move: GradeMove, before: bool) -> str:
    present, grade = (move.present_before, move.before) if before else (move.present_after, move.after)
    return (text(grade) if grade else "no grade") if present else "absent"


def _grades(system: str, moves: Sequence[GradeMove]) -> list[str]:
    lines = ["", f"### {SYSTEM_NAMES[system]}", ""]
    if not moves:
        return [*lines, "No grade changes."]
    return lines + _table(("Kind", "Name", "Grade", "Score", "Change"), [
        (text(move.kind), text(move.name), f"{_grade(move, True)} → {_grade(move, False)}",
         f"{number(move.score_before)} → {number(move.score_after)}", delta(move.delta)) for move in moves],
        len(moves))


def render(diff: Diff, failed: Sequence[str], base: str | None = None, head: str | None = None) -> str:
    """The comparison as Markdown, ending in a newline; `failed`: the budgets that failed; `base` and `head`:
    what to call the two builds (default: as they were given)."""
    systems = ", ".join(SYSTEM_NAMES[system] for system in diff.systems) or "no grading system"
    lines = ["## What this change does to the scores", "",
             f"Compared {text(base or diff.base)} (data as of {text(diff.base_as_of or 'unknown')}) with {text(head or diff.head)} "
             f"(data as of {text(diff.head_as_of or 'unknown')}): {systems}."]
    if failed:
        lines += ["", f"**{len(failed)} budget{'s' if len(failed) != 1 else ''} failed** (scorecards.toml "
                      "`[budgets]`):", ""]
        lines += [f"- {text(line)}" for line in failed]
    if not diff:
        lines += ["", "No score changes."]
    if diff.tdqs is not None and diff.tdqs:
        lines += _tdqs(diff.tdqs)
    elif diff.tdqs is not None and diff:
        lines += ["", "### TDQS", "", "No score changes."]
    for system in ("flowmcp", "cleo"):
        if system in diff.systems:
            lines += _grades(system, [move for move in diff.grades if move.system == system])
    if diff.notes:
        lines += ["", "Compared for the other systems: " + "; ".join(text(note) for note in diff.notes) + "."]
    return "\n".join(lines) + "\n"
