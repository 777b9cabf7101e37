"""A TDQS tool's page (`servers/<server>/tools/<tool>/index.html`): its score by dimension, flags
and smells, what to do about them (biggest gain first), its definition and how it changed, its
history, and whether its score is stale.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from pydantic import ConfigDict, Field
from tdqs import FLAGS, TIERS, TOOL_DIMENSIONS

from builder import numbers, urls
from builder.engine.problems import Problem
from builder.pages.page import PageContext
from builder.tdqs.checklist import Action, anchor_for, tool_actions
from builder.tdqs.identity import identity
from builder.tdqs.pages import publish
from builder.tdqs.pages.definitions import DefinitionChange, changes, first_seen, summary
from builder.tdqs.pages.siblings import OtherTools
from builder.tdqs.pages.views import (
    BadgeView,
    DefinitionView,
    HistoryPoint,
    Note,
    Provenance,
    SiblingTool,
    View,
    describe_definition,
    notes_for,
    provenance,
    stated_text,
    titled,
    tool_changes,
)
from builder.tdqs.reader import Server, ToolRecord, stand_in_models

FLAG_BY_NAME = {flag.name: flag for flag in FLAGS}


class DimensionRow(View):
    key: str
    name: str
    weight: int
    question: str
    score: int
    anchor: str
    justification: str
    stated: int | None = None
    """The capture's own score when the hard gates or overrides changed it."""


class FlagRow(View):
    name: str
    level: str
    effect: str
    explanation: str


class StaleView(View):
    """Why a score is stale: the definition changed after it was scored."""

    since_capture: str | None
    since_date: str | None
    """The first capture whose tools/list has the newest definition."""
    changed: list[str]


class ToolContext(PageContext):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)  # other_tools_html stays Markup

    server_slug: str
    server_name: str
    server_identity: str
    """Whose server it is (builder.tdqs.identity), beside its name in the breadcrumb and the title."""
    name: str
    slug: str
    tdqs: float
    tier: str
    tier_meaning: str
    stated: str | None
    """What the capture stated ("A 4.0") when the recomputation publishes another TDQS or tier."""
    stated_flags: list[str] | None
    """The capture's own flags when the recomputation changed them."""
    summary: str
    dimensions: list[DimensionRow]
    flags: list[FlagRow]
    smells: list[str]
    """The dimension keys scored below 3 (tdqs's compute_smells)."""
    signals: dict[str, Any]
    input_hash: str
    stale: bool
    latest_hash: str | None
    stale_view: StaleView | None
    definition: DefinitionView | None
    actions: list[Action]
    """What to do, biggest gain first: the priced actions, then those the rubric cannot price."""
    definition_changes: list[DefinitionChange]
    """Newest first: what changed in the definition between captures, with a text diff."""
    other_tools: list[SiblingTool]
    """The server's other tools by name, at most OTHER_TOOLS of them."""
    more_tools: int
    """How many more the server has than `other_tools` shows."""
    other_tools_html: Markup = Field(exclude=True)
    """The `<li>` items of `other_tools`, drawn once for all the server's tool pages (siblings)."""
    history: list[HistoryPoint]
    history_chart: dict[str, Any] | None
    """When set, drawn at build time as SVG above the history list (builder.chart_svg)."""
    provenance: Provenance
    notes: list[Note]
    badge: BadgeView

    @property
    def priced_actions(self) -> list[Action]:
        """The actions with a gain, for the numbered checklist. A property, not a filter in the
        template (`selectattr`), which cost several times more on every tool page."""
        return [action for action in self.actions if action.gain is not None]

    @property
    def unpriced_actions(self) -> list[Action]:
        return [action for action in self.actions if action.gain is None]

    @property
    def smell_names(self) -> list[str]:
        """The smells as the dimension table names them, in its order (not tdqs's keys)."""
        return [row.name for row in self.dimensions if row.key in self.smells]


def tier_meaning(tier: str) -> str:
    return next((t.meaning for t in TIERS if t.tier == tier), "")


def definition_view(tool: ToolRecord) -> DefinitionView | None:
    return None if tool.definition is None else describe_definition(tool.definition.tool)


def tool_history(server: Server, name: str) -> list[HistoryPoint]:
    points: list[HistoryPoint] = []
    previous: ToolRecord | None = None
    for capture in server.captures:
        record = next((tool for tool in capture.tools if tool.name == name), None)
        if record is None and previous is None:
            continue
        points.append(
            HistoryPoint(
                capture_id=capture.capture_id,
                scored_at=capture.generated_at,
                tdqs=record.checked.tdqs if record else None,
                tier=record.checked.tier if record else None,
                input_hash=record.input_hash if record else None,
                model=capture.report.model,
                changes=tool_changes(previous, record) if points else [],
            )
        )
        previous = record
    return points


def stale_view(server: Server, tool: ToolRecord) -> StaleView | None:
    if not tool.stale or tool.latest_hash is None:
        return None
    since = first_seen(server, tool.name, tool.latest_hash)
    latest = next(
        (listed.definitions[tool.name] for listed in reversed(server.tool_lists)
         if tool.name in listed.definitions and listed.definitions[tool.name].input_hash == tool.latest_hash),
        None,
    )
    changed = (
        summary(tool.definition.tool, latest.tool) if tool.definition is not None and latest is not None
        else ["definition changed"]
    )
    return StaleView(since_capture=since[0] if since else None, since_date=since[1] if since else None,
                     changed=changed)


def tool_context(
    server: Server, tool: ToolRecord, problems: list[Problem], badge: BadgeView, history_chart: dict[str, Any] | None,
    siblings: OtherTools,
) -> ToolContext:
    capture = server.current
    score, stated = tool.checked.score, tool.checked.stated
    signals = score.context_signals.model_dump(by_alias=True)
    others, more = siblings.of(tool.name)
    who = identity(server.server_id, server.meta.repository_url).label
    return ToolContext(
        stand_in_models=stand_in_models(c.report.model for c in server.captures),
        title=f"{tool.name} · {titled(server.display_name, who)}",
        description=(
            f"TDQS {numbers.fixed(tool.checked.tdqs)} (tier {tool.checked.tier}) for the tool {tool.name} "
            f"of {titled(server.display_name, who)}."
        ),
        grade=f"TDQS {tool.checked.tier} {numbers.fixed(tool.checked.tdqs)}",
        server_slug=server.slug,
        server_name=server.display_name,
        server_identity=who,
        name=tool.name,
        slug=tool.slug,
        tdqs=tool.checked.tdqs,
        tier=tool.checked.tier,
        tier_meaning=tier_meaning(tool.checked.tier),
        stated=stated_text(stated.tier, stated.tdqs) if tool.checked.restated else None,
        stated_flags=list(stated.flags) if sorted(stated.flags) != sorted(score.flags) else None,
        summary=score.summary,
        dimensions=[
            DimensionRow(
                key=d.key, name=d.name, weight=d.weight, question=d.question,
                score=score.scores[d.key],  # type: ignore[literal-required]
                anchor=anchor_for(d, score.scores[d.key]) or "",  # type: ignore[literal-required]
                justification=score.justifications[d.key].justification,  # type: ignore[literal-required]
                stated=(
                    stated.scores[d.key]  # type: ignore[literal-required]
                    if stated.scores[d.key] != score.scores[d.key] else None  # type: ignore[literal-required]
                ),
            )
            for d in TOOL_DIMENSIONS
        ],
        flags=[
            FlagRow(name=name, level=FLAG_BY_NAME[name].level, effect=FLAG_BY_NAME[name].effect,
                    explanation=FLAG_BY_NAME[name].explanation)
            for name in [*score.flags, *score.server_flags]
        ],
        smells=list(tool.checked.smells),
        signals=signals,
        input_hash=tool.input_hash,
        stale=tool.stale,
        latest_hash=tool.latest_hash,
        stale_view=stale_view(server, tool),
        definition=definition_view(tool),
        actions=tool_actions(tool),
        definition_changes=changes(server, tool.name),
        other_tools=others,
        more_tools=more,
        other_tools_html=siblings.items(tool.name, urls.tool_page(server.slug, tool.slug)),
        history=tool_history(server, tool.name),
        history_chart=history_chart,
        provenance=provenance(capture, server),
        notes=notes_for(problems, f"$.tools[{tool.index}]"),
        badge=badge,
    )


def tool_page_context(
    server: Server, tool: ToolRecord, problems: list[Problem], badge: BadgeView, siblings: OtherTools
) -> ToolContext:
    return tool_context(server, tool, problems, badge, publish.tool_history_chart(server, tool), siblings)
