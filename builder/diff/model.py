"""The comparison of two builds as one value: what each system's changes are, in a fixed order.

Every list is sorted so that the same two builds give the same bytes, largest move first: a score
by the size of its change (a fall before a rise of the same size), a tier by how many tiers it
moved, with "no tier" (a server whose tools are less than 80% scored) counted below the lowest;
ties by server id and tool name. Deltas are exact: each score as the decimal it is written as,
subtracted as fractions (builder.numbers.exact), so 3.2 - 3.5 is -0.3, not -0.30000000000000027.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from tdqs.spec.tiers import TIERS

from builder.numbers import exact, shortest

TIER_ORDER: tuple[str, ...] = tuple(definition.tier for definition in TIERS)
"""TDQS tiers, best first."""


def score_text(value: Fraction | float | None) -> str:
    """A score as written, with at least one decimal as TDQS publishes them: `4.0`, `3.75`; None `—`."""
    if value is None:
        return "—"
    written = shortest(value)
    return written if "." in written else written + ".0"


def delta_text(value: Fraction | None) -> str:
    """A change with its sign: `+0.5`, `-1.1`, `0.0`; None `—`."""
    if value is None:
        return "—"
    return f"+{score_text(value)}" if value > 0 else score_text(value)


def tier_rank(tier: str | None) -> int:
    """A tier's place, 0 the best; no tier (or one this tdqs does not know) below the lowest."""
    return TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER)


@dataclass(frozen=True, order=True)
class Server:
    """A server as a comparison names it: its id, its name, and the data file its score came from
    (the head build's capture, else the base's), relative to the data folder."""

    id: str
    name: str
    file: str | None = None


@dataclass(frozen=True)
class TierMove:
    server: Server
    before: str | None
    after: str | None
    score_before: float | None
    score_after: float | None

    @property
    def steps(self) -> int:
        """Tiers moved: positive up, negative down (a tier lost counts down to below F)."""
        return tier_rank(self.before) - tier_rank(self.after)


@dataclass(frozen=True)
class ScoreMove:
    """An overall score (tool None) or a tool's TDQS, before and after."""

    server: Server
    tool: str | None
    before: float
    after: float
    tier_before: str | None
    tier_after: str | None

    @property
    def delta(self) -> Fraction:
        return exact(self.after) - exact(self.before)


@dataclass(frozen=True)
class Coverage:
    scored: int
    tools: int
    ok: bool

    @property
    def share(self) -> Fraction | None:
        return Fraction(self.scored, self.tools) if self.tools else None


@dataclass(frozen=True)
class CoverageMove:
    """A server whose coverage crossed the 80% rule (its overall score shown, or withheld)."""

    server: Server
    before: Coverage
    after: Coverage


@dataclass(frozen=True, order=True)
class Finding:
    """A smell (a rubric dimension a tool scores low on) or a flag, of a tool or (tool None) of
    the server."""

    server: Server
    tool: str
    name: str


@dataclass(frozen=True)
class ServerSeen:
    """A server only one build has."""

    server: Server
    tier: str | None
    score: float | None
    tools: int


@dataclass(frozen=True)
class ToolSeen:
    """A scored tool only one build has (of a server both have)."""

    server: Server
    tool: str
    tdqs: float
    tier: str | None


@dataclass
class TdqsDiff:
    added: list[ServerSeen] = field(default_factory=list)
    removed: list[ServerSeen] = field(default_factory=list)
    tiers: list[TierMove] = field(default_factory=list)
    overall: list[ScoreMove] = field(default_factory=list)
    tools: list[ScoreMove] = field(default_factory=list)
    tools_added: list[ToolSeen] = field(default_factory=list)
    tools_removed: list[ToolSeen] = field(default_factory=list)
    coverage: list[CoverageMove] = field(default_factory=list)
    new_smells: list[Finding] = field(default_factory=list)
    cleared_smells: list[Finding] = field(default_factory=list)
    new_flags: list[Finding] = field(default_factory=list)
    cleared_flags: list[Finding] = field(default_factory=list)
    changed: list[Server] = field(default_factory=list)
    """Every server with a change above, for the annotations on its data file."""

    def sort(self) -> None:
        self.added.sort(key=lambda seen: seen.server)
        self.removed.sort(key=lambda seen: seen.server)
        self.tiers.sort(key=lambda move: (-abs(move.steps), move.steps, move.server))
        for moves in (self.overall, self.tools):
            moves.sort(key=lambda move: (-abs(move.delta), move.delta, move.server, move.tool or ""))
        for seen in (self.tools_added, self.tools_removed):
            seen.sort(key=lambda tool: (tool.server, tool.tool))
        self.coverage.sort(key=lambda move: (move.after.ok, move.server))
        for findings in (self.new_smells, self.cleared_smells, self.new_flags, self.cleared_flags):
            findings.sort()
        self.changed.sort()

    def __bool__(self) -> bool:
        return any((self.added, self.removed, self.tiers, self.overall, self.tools, self.tools_added,
                    self.tools_removed, self.coverage, self.new_smells, self.cleared_smells, self.new_flags,
                    self.cleared_flags))


@dataclass(frozen=True)
class GradeMove:
    """A FlowMCP or CLEO grade that changed, or a graded item one build has (before or after None)."""

    system: str
    kind: str
    name: str
    before: str | None
    after: str | None
    score_before: float | None
    score_after: float | None
    present_before: bool = True
    present_after: bool = True

    @property
    def delta(self) -> Fraction | None:
        if self.score_before is None or self.score_after is None:
            return None
        return exact(self.score_after) - exact(self.score_before)


@dataclass
class Diff:
    """The whole comparison: the two builds, what each system's changes are, and what was not compared."""

    base: str
    head: str
    base_systems: tuple[str, ...]
    head_systems: tuple[str, ...]
    base_as_of: str | None
    head_as_of: str | None
    tdqs: TdqsDiff | None = None
    grades: list[GradeMove] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What this comparison does not cover, said rather than left out silently."""

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.base_systems) | set(self.head_systems)))

    def __bool__(self) -> bool:
        return bool(self.tdqs) or bool(self.grades)
