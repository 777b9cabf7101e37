"""Typed page contexts of the TDQS section, and the functions that fill them from the records.

Every template of the section reads exactly one of these models; a test checks that templates
use no other names. The API JSON of a server is generated from the same view rows.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from tdqs import COHERENCE_DIMENSIONS, FLAGS, TIERS, TOOL_DIMENSIONS, ToolDefinition
from tdqs.round_half_up import round_half_up

from builder import numbers
from builder.checklist import Action, anchor_for, tool_actions
from builder.pages.page import PageContext
from builder.pages.tdqs_definitions import DefinitionChange, as_json, changes, first_seen, schema_text, summary
from builder.problems import Problem
from builder.server_advice import FixWorst, Pattern, server_advice
from builder.sources.tdqs.models import CurrentScores as ServerScores
from builder.sources.tdqs.reader import Capture, Server, ToolRecord
from builder.sources.tdqs.registry_index import current_scores
from builder.stats.tdqs import RegistryStats

_FLAGS = {flag.name: flag for flag in FLAGS}


class View(BaseModel):
    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)


class Provenance(View):
    scored_at: str
    spec_version: str
    model: str | None
    scoring_system: str
    grading_system: str
    capture_id: str
    file: str
    systems_source: str
    """Where scoringSystem and gradingSystem come from: `server.json` when it states them, else
    `derived` (this site names them from the capture's specVersion; a ScoreReport has neither).
    The scored time, specVersion and model are the capture's own."""


def _systems_source(server: Server | None, capture: Capture) -> str:
    meta = server.meta if server is not None else None
    if meta is not None and (meta.scoring_system or meta.grading_system):
        return "server.json"
    return "derived"


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


class ToolRow(View):
    name: str
    slug: str
    tdqs: float
    tier: str
    scores: dict[str, int]
    flags: list[str]
    """Tool flags only; a server flag (Shadowing Risk) is in `server_flags`."""
    server_flags: list[str]
    smells: list[str]
    input_hash: str
    stale: bool
    stated_tdqs: float | None = None
    """The capture's own TDQS and tier, when they are not what the site recomputed (else None)."""
    stated_tier: str | None = None


class HistoryPoint(View):
    capture_id: str
    scored_at: str
    tdqs: float | None
    tier: str | None
    input_hash: str | None
    model: str | None
    changes: list[str]


class Parameter(View):
    name: str
    type: str
    required: bool
    description: str | None
    enum: list[str] | None
    """Each allowed value as JSON text (`"asc"`, `true`, `3`)."""


class DefinitionView(View):
    title: str | None
    description: str | None
    parameters: list[Parameter]
    annotations: list[tuple[str, str]] | None
    """(hint, value as JSON text), sorted by hint: `readOnlyHint: false`, never Python's `False`."""
    has_output_schema: bool
    input_schema_json: str
    """The raw input schema, pretty-printed, for a collapsed block on the tool's page."""


class SiblingTool(View):
    """Another tool of the same server, for the links on a tool's page."""

    name: str
    slug: str
    tier: str | None
    """None for a tool of the newest tools/list that has no score yet."""
    tdqs: float | None


class UnscoredToolRow(View):
    """A tool in the newest tools/list without a score: a row and a page of its own."""

    name: str
    slug: str
    reason: str


class StaleView(View):
    """Why a score is stale: the definition changed after it was scored."""

    since_capture: str | None
    since_date: str | None
    """The first capture whose tools/list has the newest definition."""
    changed: list[str]


class CoherenceRow(View):
    key: str
    name: str
    question: str
    score: int
    anchor: str
    justification: str


class ShadowRow(View):
    tool: str
    tool_slug: str | None
    invocation_cost: int
    cheaper_sibling: str
    cheaper_sibling_slug: str | None
    cheaper_sibling_invocation_cost: int
    justification: str


class ToolLink(View):
    name: str
    slug: str
    tdqs: float
    tier: str


class PatternView(View):
    """Many tools sharing one defect, said once, with what fixing all of them would do."""

    says: str
    fix: str
    count: int
    total: int
    dimensions: list[str]
    """The dimensions the projection raises; empty when it raises all of them."""
    level: int
    held: int
    tools: list[ToolLink]
    description_quality_before: float | None
    description_quality_after: float | None
    overall_before: float | None
    overall_after: float | None
    overall_tier_after: str | None
    """None below the coverage rule: nothing unpublished is projected."""


class FixWorstView(View):
    """The fewest worst tools whose fixing lifts the overall tier, or, when no number of them
    can, what fixing all of them would do."""

    tools: list[ToolLink]
    target: float
    reaches: bool
    next_tier: str
    description_quality_before: float
    description_quality_after: float
    overall_before: float
    overall_after: float
    overall_tier_after: str
    coherence: float


class BadgeView(View):
    svg_path: str
    endpoint_path: str
    markdown: str
    """The snippet to paste into a README: this grade's dated badge, linking to its scorecard."""
    stable_endpoint: bool = False
    """The endpoint follows the current grade (a server's badge.json), not this one grade."""
    stable_markdown: str | None = None
    """The snippet for shields.io's endpoint badge over the stable endpoint; None without the site's
    absolute URL (`--site-url`), which shields.io needs to fetch it."""


class Note(View):
    """A stored value that disagrees with the recomputation, or another data note."""

    json_path: str
    reason: str


# ---- page contexts ----------------------------------------------------------------------------


class TierRow(View):
    tier: str
    meaning: str
    minimum: float | None
    count: int
    share: float


class StatRow(View):
    key: str
    name: str
    weight: int
    mean: float | None
    smell_rate: float | None


class SectionLink(View):
    label: str
    path: str
    summary: str


class HomeContext(PageContext):
    stats: RegistryStats
    tiers: list[TierRow]
    dimensions: list[StatRow]
    flags: list[tuple[str, int, float]]
    coherence: list[tuple[str, float | None]]
    models: list[str]
    spec_versions: list[str]
    tier_chart: dict[str, Any]
    dimension_chart: dict[str, Any]
    histogram_chart: dict[str, Any]


class ServerContext(PageContext):
    server_id: str
    slug: str
    display_name: str
    about: str | None
    repository_url: str | None
    homepage_url: str | None
    scores: ServerScores
    stated: str | None
    """What the capture stated for the overall score ("B 3.4") when the recomputation differs."""
    formula_mean: str
    formula_min: str
    """The mean and min TDQS as the formula line prints them: the exact mean, with as many
    decimals as `round1(0.6 × mean + 0.4 × min)` needs to give the published description quality."""
    coherence: list[CoherenceRow]
    coherence_summary: str
    shadowing: list[ShadowRow]
    tools: list[ToolRow]
    pulling_down: list[ToolRow]
    patterns: list[PatternView]
    fix_worst: FixWorstView | None
    history: list[HistoryPoint]
    provenance: Provenance
    notes: list[Note]
    api_path: str
    tools_chart: dict[str, Any]
    """Drawn at build time as SVG beside the tools table (builder.chart_svg)."""
    history_chart: dict[str, Any] | None
    """Drawn at build time as SVG above the history list, when there are captures to compare."""
    badge: BadgeView
    feed_path: str
    unscored: list[str]
    """Tools in the newest tools/list that have no score yet."""
    unscored_count: int
    """Tools the server reports that have no score, named in `unscored` where a tools/list says which."""
    to_publish: int
    """More tools to score before description quality is published (0 once it is)."""
    unscored_tools: list[UnscoredToolRow]
    """Tools in the newest tools/list that have no score yet, each with a page."""


class ToolContext(PageContext):
    server_slug: str
    server_name: str
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
    history: list[HistoryPoint]
    history_chart: dict[str, Any] | None
    """When set, drawn at build time as SVG above the history list (builder.chart_svg)."""
    provenance: Provenance
    notes: list[Note]
    badge: BadgeView


# ---- builders ---------------------------------------------------------------------------------


def provenance(capture: Capture, server: Server | None = None) -> Provenance:
    return Provenance(
        systems_source=_systems_source(server, capture),
        scored_at=capture.generated_at,
        spec_version=capture.report.spec_version,
        model=capture.report.model,
        scoring_system=capture.scoring_system,
        grading_system=capture.grading_system,
        capture_id=capture.capture_id,
        file=capture.file,
    )


def server_scores(capture: Capture) -> ServerScores:
    """The published scores, as index.json records them."""
    return current_scores(capture)


def tool_row(tool: ToolRecord) -> ToolRow:
    score, stated = tool.checked.score, tool.checked.stated
    restated = tool.checked.restated
    return ToolRow(
        name=tool.name,
        slug=tool.slug,
        tdqs=tool.checked.tdqs,
        tier=tool.checked.tier,
        scores=dict(score.scores),
        flags=list(score.flags),
        server_flags=list(score.server_flags),
        smells=list(tool.checked.smells),
        input_hash=tool.input_hash,
        stale=tool.stale,
        stated_tdqs=stated.tdqs if restated else None,
        stated_tier=stated.tier if restated else None,
    )


def stated_text(tier: str, score: float) -> str:
    """`A 4.0`: a stored grade and score as the capture states it."""
    return f"{tier} {numbers.fixed(score, 1)}"


def _type_of(schema: object) -> str:
    if not isinstance(schema, dict):
        return "any"
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if isinstance(kind, str):
        if kind == "array" and isinstance(schema.get("items"), dict):
            return f"array of {_type_of(schema['items'])}"
        return kind
    for union in ("anyOf", "oneOf"):
        if isinstance(schema.get(union), list):
            return " | ".join(_type_of(branch) for branch in schema[union])
    return "any"


def definition_view(tool: ToolRecord) -> DefinitionView | None:
    return None if tool.definition is None else describe_definition(tool.definition.tool)


def describe_definition(definition: ToolDefinition) -> DefinitionView:
    schema = definition.input_schema or {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    parameters = []
    for name, prop in (properties or {}).items():
        prop_dict = prop if isinstance(prop, dict) else {}
        description = prop_dict.get("description")
        enum = prop_dict.get("enum")
        parameters.append(
            Parameter(
                name=str(name),
                type=_type_of(prop_dict),
                required=name in required,
                description=description if isinstance(description, str) else None,
                enum=[as_json(value) for value in enum] if isinstance(enum, list) else None,
            )
        )
    return DefinitionView(
        title=definition.title,
        description=definition.description,
        parameters=parameters,
        annotations=sorted((str(k), as_json(v)) for k, v in definition.annotations.items())
        if definition.annotations else None,
        has_output_schema=bool(definition.output_schema),
        input_schema_json=schema_text(definition),
    )


def _changes(before: ToolRecord | None, after: ToolRecord | None) -> list[str]:
    """What moved between two captures of one tool, in words."""
    if before is None and after is not None:
        return ["tool added"]
    if after is None:
        return ["tool removed"]
    assert before is not None
    changes = []
    if before.input_hash != after.input_hash:
        changes.append("definition changed")
    for dimension in TOOL_DIMENSIONS:
        a = before.checked.score.scores[dimension.key]  # type: ignore[literal-required]
        b = after.checked.score.scores[dimension.key]  # type: ignore[literal-required]
        if a != b:
            changes.append(f"{dimension.name} {a} → {b}")
    if before.checked.tier != after.checked.tier:
        changes.append(f"tier {before.checked.tier} → {after.checked.tier}")
    return changes


tool_changes = _changes


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
                changes=_changes(previous, record) if points else [],
            )
        )
        previous = record
    return points


def server_history(server: Server) -> list[HistoryPoint]:
    points = []
    previous: Capture | None = None
    for capture in server.captures:
        scores = server_scores(capture)
        changes: list[str] = []
        if previous is not None:
            before = {t.name: t for t in previous.tools}
            after = {t.name: t for t in capture.tools}
            for name in sorted(set(before) | set(after)):
                moved = _changes(before.get(name), after.get(name))
                if moved:
                    changes.append(f"{name}: {', '.join(moved)}")
            old = server_scores(previous)
            if old.overall_tier != scores.overall_tier:
                changes.insert(0, f"overall tier {old.overall_tier or '—'} → {scores.overall_tier or '—'}")
        points.append(
            HistoryPoint(
                capture_id=capture.capture_id,
                scored_at=capture.generated_at,
                tdqs=scores.overall_score,
                tier=scores.overall_tier,
                input_hash=None,
                model=capture.report.model,
                changes=changes,
            )
        )
        previous = capture
    return points


def notes_for(problems: list[Problem], prefix: str = "") -> list[Note]:
    return [
        Note(json_path=p.json_path, reason=p.reason)
        for p in problems
        if not prefix or p.json_path == prefix or p.json_path.startswith((prefix + ".", prefix + "["))
    ]


def formula_numbers(capture: Capture) -> tuple[str, str]:
    """(mean, min) for the description-quality formula line. tdqs's `mean_tdqs` is itself rounded
    to one decimal, and the formula takes the exact mean: printed rounded, it does not always give
    back the score beside it."""
    tenths = [round_half_up(tool.checked.tdqs * 10) for tool in capture.tools]
    mean, low = Fraction(sum(tenths), 10 * len(tenths)), Fraction(min(tenths), 10)
    result = numbers.exact(capture.server.rollup.description_quality_score)
    weight_mean, weight_min = Fraction(6, 10), Fraction(4, 10)
    text = numbers.reproducing(
        mean, 1, lambda written: numbers.half_up(weight_mean * written + weight_min * low, 1) == result
    )
    return text, numbers.fixed(low, 1)


def stated_overall(capture: Capture) -> str | None:
    stored, rolled = capture.report.server_score, capture.server.rollup
    if not capture.server.coverage_ok:
        return None
    if stored.overall_tier == rolled.overall_tier and abs(stored.overall_score - rolled.overall_score) < 1e-9:
        return None
    return stated_text(stored.overall_tier, stored.overall_score)


def tier_meaning(tier: str) -> str:
    return next((t.meaning for t in TIERS if t.tier == tier), "")


def tool_link(tool: ToolRecord) -> ToolLink:
    return ToolLink(name=tool.name, slug=tool.slug, tdqs=tool.checked.tdqs, tier=tool.checked.tier)


def pattern_view(pattern: Pattern, capture: Capture) -> PatternView:
    by_name = {tool.name: tool for tool in capture.tools}
    before, after = pattern.before, pattern.after
    return PatternView(
        says=pattern.says, fix=pattern.fix, count=len(pattern.tools), total=pattern.total,
        dimensions=list(pattern.dimensions), level=pattern.level, held=pattern.held,
        tools=[tool_link(by_name[name]) for name in pattern.tools],
        description_quality_before=before.description_quality_score if before else None,
        description_quality_after=after.description_quality_score if after else None,
        overall_before=before.overall_score if before else None,
        overall_after=after.overall_score if after else None,
        overall_tier_after=after.overall_tier if after else None,
    )


def fix_worst_view(fix: FixWorst) -> FixWorstView:
    return FixWorstView(
        tools=[tool_link(tool) for tool in fix.tools], target=fix.target, reaches=fix.reaches,
        next_tier=fix.next_tier,
        description_quality_before=fix.before.description_quality_score,
        description_quality_after=fix.after.description_quality_score,
        overall_before=fix.before.overall_score, overall_after=fix.after.overall_score,
        overall_tier_after=fix.after.overall_tier, coherence=fix.before.coherence_score,
    )


def server_context(
    server: Server, problems: list[Problem], api_path: str, charts_: dict[str, dict[str, Any] | None],
    badge: BadgeView, feed_path: str,
) -> ServerContext:
    capture = server.current
    rolled = capture.server.rollup
    slugs = {tool.name: tool.slug for tool in capture.tools}
    advice = server_advice(capture)
    unscored = sorted((set(server.unscored_definitions) | set(advice.unscored)) - set(slugs))
    worst_first = sorted(capture.tools, key=lambda t: (t.checked.tdqs, t.name))
    return ServerContext(
        title=server.display_name,
        description=f"TDQS scorecard of the MCP server {server.display_name}: {len(capture.tools)} tools scored.",
        server_id=server.server_id,
        slug=server.slug,
        display_name=server.display_name,
        about=server.meta.description,
        repository_url=server.meta.repository_url,
        homepage_url=server.meta.homepage_url,
        scores=server_scores(capture),
        stated=stated_overall(capture),
        formula_mean=formula_numbers(capture)[0],
        formula_min=formula_numbers(capture)[1],
        coherence=[
            CoherenceRow(
                key=d.key, name=d.name, question=d.question,
                score=rolled.coherence_justifications[d.key].score,
                anchor=d.anchors.get(rolled.coherence_justifications[d.key].score, ""),
                justification=rolled.coherence_justifications[d.key].justification,
            )
            for d in COHERENCE_DIMENSIONS
        ],
        coherence_summary=rolled.coherence_summary,
        shadowing=[
            ShadowRow(
                tool=risk.tool, tool_slug=slugs.get(risk.tool), invocation_cost=risk.invocation_cost,
                cheaper_sibling=risk.cheaper_sibling, cheaper_sibling_slug=slugs.get(risk.cheaper_sibling),
                cheaper_sibling_invocation_cost=risk.cheaper_sibling_invocation_cost,
                justification=risk.justification,
            )
            for risk in rolled.shadowing_risks
        ],
        tools=[tool_row(t) for t in worst_first],
        pulling_down=[tool_row(t) for t in advice.pulling_down],
        patterns=[pattern_view(p, capture) for p in advice.patterns],
        fix_worst=fix_worst_view(advice.fix_worst) if advice.fix_worst else None,
        history=server_history(server),
        provenance=provenance(capture, server),
        notes=notes_for(problems, "$.server"),
        api_path=api_path,
        tools_chart=charts_["tools"] or {},
        history_chart=charts_["history"],
        badge=badge,
        feed_path=feed_path,
        unscored=unscored,
        unscored_count=max(advice.unscored_count, len(unscored)),
        to_publish=advice.to_publish,
        unscored_tools=unscored_rows(server),
    )


def unscored_rows(server: Server) -> list[UnscoredToolRow]:
    listed = server.tool_lists[-1] if server.tool_lists else None
    when = f"{listed.captured_at[:10]} ({listed.capture_id})" if listed else ""
    reason = (
        f"listed in the tools/list of {when}, captured after the last scoring run"
        if listed is not None and not listed.scored
        else f"listed in the tools/list of {when}, but the score report has no score for it"
    )
    return [
        UnscoredToolRow(name=name, slug=server.unscored_slugs[name], reason=reason)
        for name in server.unscored_tools
    ]


OTHER_TOOLS = 50
"""Links to other tools on a tool's page: enough to move around a server, bounded at registry scale."""


def other_tools(server: Server, name: str) -> tuple[list[SiblingTool], int]:
    links = [
        SiblingTool(name=t.name, slug=t.slug, tier=t.checked.tier, tdqs=t.checked.tdqs)
        for t in server.current.tools if t.name != name
    ] + [
        SiblingTool(name=n, slug=server.unscored_slugs[n], tier=None, tdqs=None)
        for n in server.unscored_tools if n != name
    ]
    links.sort(key=lambda link: (link.name.lower(), link.name))
    return links[:OTHER_TOOLS], max(0, len(links) - OTHER_TOOLS)


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
    server: Server, tool: ToolRecord, problems: list[Problem], badge: BadgeView, history_chart: dict[str, Any] | None
) -> ToolContext:
    capture = server.current
    score, stated = tool.checked.score, tool.checked.stated
    signals = score.context_signals.model_dump(by_alias=True)
    others, more = other_tools(server, tool.name)
    return ToolContext(
        title=f"{tool.name} · {server.display_name}",
        description=(
            f"TDQS {numbers.fixed(tool.checked.tdqs)} (tier {tool.checked.tier}) for the tool {tool.name} "
            f"of {server.display_name}."
        ),
        server_slug=server.slug,
        server_name=server.display_name,
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
            FlagRow(name=name, level=_FLAGS[name].level, effect=_FLAGS[name].effect,
                    explanation=_FLAGS[name].explanation)
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
        history=tool_history(server, tool.name),
        history_chart=history_chart,
        provenance=provenance(capture, server),
        notes=notes_for(problems, f"$.tools[{tool.index}]"),
        badge=badge,
    )
