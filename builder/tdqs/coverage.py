"""How much of a server its current score covers, counted against the newest tools/list.

TDQS publishes a server's description quality (and so its overall score) only once at least 80% of
the server's tools are scored (`recompute.COVERAGE_NUMERATOR / COVERAGE_DENOMINATOR`). The server's
tools are the ones its newest tools/list names, when there is one at least as new as the current
score: a tools/list captured after the last scoring run can add tools and change others. A tool
counts as scored only when the hash of its scored definition (`contextSignals.inputHash`) is the
hash of its definition in that tools/list; a tool scored for another definition is stale, and a
tool of the list without a score is unscored. Without such a tools/list the capture's own
`serverScore.toolCount` is the server's tool count and every scored tool counts, as tdqs counts them.

A tools/list never lowers the count below what the report says the server has: a list that names
fewer tools than `serverScore.toolCount` is partial (a page of a paginated tools/list, a truncated
file), and the tools it lacks are counted as not scored. Only tools known to be gone (scored, and
absent from a newer list) come off the report's count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from builder.tdqs.recompute import COVERAGE_DENOMINATOR, COVERAGE_NUMERATOR


class _Scored(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def input_hash(self) -> str: ...


@dataclass(frozen=True)
class Coverage:
    tool_count: int
    """The server's tools: the newest tools/list's, or the capture's toolCount without one."""
    scored: int
    """Scored for the definition the newest tools/list has (every scored tool, without a list)."""
    stale: int
    """In the newest tools/list, scored for another definition: to be scored again."""
    unscored: int
    """In the newest tools/list, without a score."""
    not_listed: int
    """Scored, but no longer in the newest tools/list (removed since)."""
    tools_capture: str | None
    """The capture id of the newest tools/list counted against; None when the toolCount is."""
    stated_tool_count: int
    """The capture's own serverScore.toolCount."""
    unlisted: int = 0
    """Tools the report says the server has that a partial tools/list does not name (not scored)."""

    @property
    def ok(self) -> bool:
        """At least 80% of the server's tools scored: the aggregate is published."""
        return self.scored * COVERAGE_DENOMINATOR >= self.tool_count * COVERAGE_NUMERATOR

    @property
    def to_publish(self) -> int:
        """How many more tools need an up-to-date score before the aggregate is published."""
        short = COVERAGE_NUMERATOR * self.tool_count - COVERAGE_DENOMINATOR * self.scored
        return max(0, -(-short // COVERAGE_DENOMINATOR))

    @property
    def more_than_the_server_has(self) -> bool:
        """The capture scores more tools than its own toolCount says the server has."""
        return self.tools_capture is None and self.scored > self.tool_count


def coverage(
    tools: Sequence[_Scored], stated_tool_count: int, newest: Mapping[str, str] | None, tools_capture: str | None
) -> Coverage:
    """`tools`: the current capture's scored tools; `newest`: the newest tools/list as name → inputHash
    (None when no tools/list is at least as new as the score)."""
    if newest is None:
        return Coverage(stated_tool_count, len(tools), 0, 0, 0, None, stated_tool_count)
    hashes = {tool.name: tool.input_hash for tool in tools}
    scored = sum(1 for name, digest in newest.items() if hashes.get(name) == digest)
    stale = sum(1 for name, digest in newest.items() if name in hashes and hashes[name] != digest)
    not_listed = sum(1 for name in hashes if name not in newest)
    tool_count = max(len(newest), stated_tool_count - not_listed)
    return Coverage(
        tool_count=tool_count, scored=scored, stale=stale, unscored=len(newest) - scored - stale,
        not_listed=not_listed, tools_capture=tools_capture, stated_tool_count=stated_tool_count,
        unlisted=tool_count - len(newest),
    )
