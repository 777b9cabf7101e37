"""CLEO's session rubric as the site reads it: the five dimensions, the flag → rule → points table.

CLEO's grader writes one flag string for each rule a session broke, but not the rule or what it
cost. This module is the single place that maps a flag back to its rule, so the site can turn a
run's flags into an improvement checklist ("session.list never called" → Session Discipline, +10
when session.list comes before the first task operation).

Source: the public repository kryptobaseddev/cleo (MIT), read at its grade specification
`docs/specs/CLEO-GRADE-SPEC.md` (version 1.0.0, task T4916, commit 36d1abea) and at the grader that
writes GRADES.jsonl, `src/core/sessions/session-grade.ts` (commit 220e6aa0), whose flag strings the
patterns below match. The variable parts of a flag (counts, task ids, operation names) are
wildcards; the wording after them is not matched, because CLEO has reworded hints before ("prefer
cleo_query" became "prefer query").

A flag no pattern matches (a newer grader, a hand-edited file) is shown as CLEO wrote it and marked
unknown: the site never guesses a rule or a number of points for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Dimension:
    key: str
    """The key in GradeResult.dimensions."""
    label: str
    measures: str
    """What the dimension rewards, in one line."""


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("sessionDiscipline", "Session Discipline",
              "checks existing sessions before starting work and ends the session when done"),
    Dimension("discoveryEfficiency", "Discovery Efficiency",
              "finds tasks with the light tasks.find rather than the heavy tasks.list"),
    Dimension("taskHygiene", "Task Hygiene",
              "creates tasks with descriptions and checks a parent exists before adding subtasks"),
    Dimension("errorProtocol", "Error Protocol",
              "recovers from E_NOT_FOUND with a lookup and does not create duplicate tasks"),
    Dimension("disclosureUse", "Progressive Disclosure Use",
              "loads help or skills when unsure and reads through the MCP query gateway"),
)
DIMENSION_KEYS: tuple[str, ...] = tuple(dimension.key for dimension in DIMENSIONS)
DIMENSION_BY_KEY: dict[str, Dimension] = {dimension.key: dimension for dimension in DIMENSIONS}


@dataclass(frozen=True)
class FlagRule:
    key: str
    pattern: re.Pattern[str]
    label: str
    """The flag without its variable parts, for counting flags across sessions."""
    dimension: str | None
    """The dimension the rule scores; None for the rule that makes a run not gradable at all."""
    rule: str
    """The rubric rule behind the flag, in the specification's terms."""
    points: int | None
    """What breaking the rule cost: what fixing it wins back (before the dimension's floor)."""
    up_to: bool
    """True when the cost depends on a ratio the flag does not carry, so `points` is a maximum."""
    action: str
    """What the agent should do differently."""


def _rule(key: str, pattern: str, label: str, dimension: str | None, rule: str,
          points: int | None, action: str, *, up_to: bool = False) -> FlagRule:
    return FlagRule(key, re.compile(pattern), label, dimension, rule, points, up_to, action)


NO_AUDIT_ENTRIES = "no-audit-entries"

FLAG_RULES: tuple[FlagRule, ...] = (
    _rule(NO_AUDIT_ENTRIES, r"^No audit entries found for session\b", "No audit entries found",
          None, "A session with no audit entries cannot be graded: every dimension is stored as 0.",
          None, "Start the session in grade mode (session.start with grade, or --grade) so CLEO "
          "records every operation, then grade it again."),
    _rule("session-list-never", r"^session\.list never called\b", "session.list never called",
          "sessionDiscipline", "+10 when session.list comes before the first task operation.", 10,
          "Call session.list before the first tasks.* operation."),
    _rule("session-list-late", r"^session\.list called after task ops\b",
          "session.list called after task ops", "sessionDiscipline",
          "+10 when session.list comes before the first task operation.", 10,
          "Move session.list ahead of the first tasks.* operation."),
    _rule("session-end-never", r"^session\.end never called\b", "session.end never called",
          "sessionDiscipline", "+10 when session.end is called at least once.", 10,
          "End the session with session.end when the work is done."),
    _rule("tasks-list-used", r"^tasks\.list used \d+x\b", "tasks.list used for discovery",
          "discoveryEfficiency",
          "Up to +15 for tasks.find's share of discovery calls (find / (find + list)), all 15 at "
          "80% or more.", 15, "Discover tasks with tasks.find; keep tasks.list for known parents.",
          up_to=True),
    _rule("add-without-description", r"^tasks\.add without description\b",
          "tasks.add without description", "taskHygiene",
          "−5 for each tasks.add that succeeded without a description.", 5,
          "Give every new task a description."),
    _rule("subtasks-without-exists", r"^Subtasks created without tasks\.exists parent check\b",
          "Subtasks created without tasks.exists parent check", "taskHygiene",
          "−3 when subtasks are created with no tasks.exists call in the session.", 3,
          "Check the parent with tasks.exists before adding subtasks."),
    _rule("not-found-unrecovered", r"^E_NOT_FOUND \(.*\) not followed by recovery lookup\b",
          "E_NOT_FOUND not followed by recovery lookup", "errorProtocol",
          "−5 for each E_NOT_FOUND (exit code 4) with no tasks.find or tasks.exists in the next "
          "4 operations.", 5,
          "After E_NOT_FOUND, look the task up with tasks.find or tasks.exists."),
    _rule("duplicate-creates", r"^\d+ potentially duplicate task create\(s\) detected\b",
          "Potentially duplicate task creates", "errorProtocol",
          "−5 once when two successful tasks.add calls in the session share a title.", 5,
          "Search with tasks.find before creating a task that may already exist."),
    _rule("no-help", r"^No admin\.help or skill lookup calls\b",
          "No admin.help or skill lookup calls", "disclosureUse",
          "+10 for at least one admin.help or skill lookup (tools.skill.show / tools.skill.list, "
          "skills.list / skills.show).", 10, "Load guidance with admin.help or a skill (ct-cleo)."),
    _rule("no-mcp-query", r"^No MCP query calls\b", "No MCP query calls", "disclosureUse",
          "+10 for at least one call through the MCP query gateway.", 10,
          "Read through the MCP query gateway (cleo_query) rather than the CLI."),
)
RULE_BY_KEY: dict[str, FlagRule] = {rule.key: rule for rule in FLAG_RULES}


def match_flag(flag: str) -> FlagRule | None:
    """The rule behind a flag, or None when the flag is not one this table knows."""
    for rule in FLAG_RULES:
        if rule.pattern.search(flag):
            return rule
    return None


def is_gradable(entry_count: int, flags: Sequence[str]) -> bool:
    """A run with no audit entries says nothing about the agent: CLEO stores 0 in every dimension
    because there was nothing to read, not because the agent failed. Either sign is enough."""
    if entry_count == 0:
        return False
    return not any((rule := match_flag(flag)) is not None and rule.key == NO_AUDIT_ENTRIES
                   for flag in flags)
