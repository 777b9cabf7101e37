"""A TDQS server's page (`servers/<server>/index.html`) and its API JSON: its scores and how
they are made, how to raise them (`builder.tdqs.server_advice`: the tier the tools alone can reach
and the fewest tools for each tier, the shared defects, the weak coherence dimensions, biggest gain
first, and apart what would have no effect), its tools worst first, coherence, history and
provenance.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import Field
from tdqs import COHERENCE_DIMENSIONS, ServerScore
from tdqs.round_half_up import round_half_up

from builder import charts, numbers, urls
from builder.engine.problems import Problem
from builder.pages.page import PageContext
from builder.publish.card_view import CardView
from builder.tdqs.checklist import dimension_scores
from builder.tdqs.coherence_advice import CoherenceStep
from builder.tdqs.identity import identity
from builder.tdqs.models import CurrentScores as ServerScores
from builder.tdqs.pages.views import (
    PASS_LINE,
    BadgeView,
    CategoryLink,
    HistoryPoint,
    Note,
    ProblemFileLink,
    Provenance,
    UnscoredToolRow,
    View,
    category_links,
    notes_for,
    problem_links,
    provenance,
    server_history,
    server_scores,
    stated_text,
    titled,
    unscored_rows,
)
from builder.tdqs.reader import Capture, Server, ToolRecord, stand_in_models
from builder.tdqs.recompute import coherence_scores
from builder.tdqs.server_advice import Pattern, Step, server_advice
from builder.tdqs.tool_reach import TIER_A, Milestone, ToolReach


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


class CoverageView(View):
    """How much of the server the current score covers, against the newest tools/list
    (builder.tdqs.coverage): the page's "n of m tools scored" line."""

    tool_count: int
    scored: int
    stale: int
    unscored: int
    not_listed: int
    tools_capture: str | None
    """The capture id of the newest tools/list counted against; None when the capture's toolCount is."""
    stated_tool_count: int
    more_than_the_server_has: bool
    """The capture scores more tools than its own toolCount says the server has (a data problem)."""
    ok: bool


def coverage_view(capture: Capture) -> CoverageView:
    found = capture.coverage
    assert found is not None, "the current capture's coverage is counted when it is read"
    return CoverageView(
        tool_count=found.tool_count, scored=found.scored, stale=found.stale, unscored=found.unscored,
        not_listed=found.not_listed, tools_capture=found.tools_capture, stated_tool_count=found.stated_tool_count,
        more_than_the_server_has=found.more_than_the_server_has, ok=found.ok,
    )


class CoherenceRow(View):
    key: str
    name: str
    question: str
    score: int
    """The score the coherence score is computed from (`serverScore.<dimension>`)."""
    anchor: str
    justification: str
    justified: int | None = None
    """The justification's own score, when the capture's justification says another (a data problem)."""


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

    kind: Literal["pattern"] = "pattern"
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


class MilestoneView(View):
    """The fewest worst tools whose raising to `level` lifts the overall score into `tier`."""

    kind: Literal["tools"] = "tools"
    tier: str
    level: float
    level_is_tier_a: bool
    """`level` is tier A's lower bound (else it is 5.0, the rubric's top)."""
    tools: list[ToolLink]
    fewer_at_best: int | None
    """How many of the worst tools at 5.0 would reach `tier`, when fewer."""
    description_quality_before: float
    description_quality_after: float
    overall_before: float
    overall_after: float
    overall_tier_after: str


class OffenderView(View):
    name: str
    slug: str | None
    """Its tool page, when the tool is scored."""
    why: str


class CoherenceStepView(View):
    """A coherence dimension below 4: the rubric's action, and what raising it would do."""

    kind: Literal["coherence"] = "coherence"
    key: str
    name: str
    score: int
    target: int
    anchor: str
    target_anchor: str
    do: str
    guidance: str
    coherence_before: float
    coherence_after: float
    overall_before: float | None
    overall_after: float | None
    overall_tier_after: str | None
    """None below the coverage rule."""
    naming_style: str | None = None
    naming_style_count: int = 0
    naming_styled: int = 0
    naming_verb: str | None = None
    naming_verb_count: int = 0
    naming_verbed: int = 0
    offenders: list[OffenderView] = Field(default_factory=list)
    more_offenders: int = 0
    tool_count: int | None = None


StepView = Annotated[MilestoneView | PatternView | CoherenceStepView, Field(discriminator="kind")]
NoEffectView = Annotated[PatternView | CoherenceStepView, Field(discriminator="kind")]
"""A step that would leave the published score where it is: never a milestone, which lifts the tier."""


class ReachView(View):
    """What the tools alone can do: every tool at 5.0, coherence as graded."""

    tier: str
    best_overall: float
    best_tier: str
    coherence: float


class InputAge(View):
    """An input a server page was built from, and when it was made: the page says how many days
    before the data's as-of date (this build's date, never the clock's), as its manifest part does."""

    what: str
    """`capture` (a score report) or `tools/list`."""
    file: str
    """Its path in the data folder."""
    made_at: str
    """The capture's generatedAt; a tools/list's, the time it was captured."""


def input_ages(server: Server) -> list[InputAge]:
    """The current capture, then the tools/list it is counted against (the newest), each once."""
    capture = server.current
    found = [InputAge(what="capture", file=capture.file, made_at=capture.generated_at)]
    newest = server.newest_tool_list
    if newest is not None and newest.file:
        found.append(InputAge(what="tools/list", file=newest.file, made_at=newest.captured_at))
    elif capture.tools_file is not None:
        found.append(InputAge(what="tools/list", file=capture.tools_file, made_at=capture.generated_at))
    return found


def manifest_parts(page_path: str, inputs: list[InputAge]) -> list[str]:
    """The manifest parts that list a page and its inputs (builder.publish.manifest): the page's
    folder's, then any other that lists an input (a data folder named unlike the page's)."""
    folders = [urls.manifest_part(page_path), *(urls.manifest_part(i.file) for i in inputs)]
    return [urls.manifest_part_file(folder) for folder in dict.fromkeys(folders) if folder]


class ServerContext(PageContext):
    server_id: str
    slug: str
    display_name: str
    identity: str
    """Whose server it is, under its name (builder.tdqs.identity)."""
    categories: list[CategoryLink]
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
    steps: list[StepView]
    """What raises the published score, biggest gain first."""
    no_effect: list[NoEffectView]
    """What would leave the published score where it is, said apart."""
    unprojected: list[PatternView]
    """Shared defects below the coverage rule, not projected."""
    reach: ReachView | None
    """None below the coverage rule."""
    history: list[HistoryPoint]
    provenance: Provenance
    inputs: list[InputAge]
    """The inputs the page was built from, with when each was made."""
    manifest_parts: list[str]
    """The manifest parts that list this page and those inputs, by their SHA-256."""
    notes: list[Note]
    problem_files: list[ProblemFileLink]
    """Its input files with a problem (any capture's, its tools lists'), each linked to its problems."""
    api_path: str
    tools_chart: dict[str, Any]
    """Drawn at build time as SVG beside the tools table (builder.chart_svg)."""
    history_chart: dict[str, Any] | None
    """Drawn at build time as SVG above the history list, when there are captures to compare."""
    badge: BadgeView
    card: CardView
    """The embeddable card (builder.tdqs.pages.card), shown beside the badge with its snippets."""
    feed_path: str
    unscored: list[str]
    """Tools in the newest tools/list that have no score yet."""
    unscored_count: int
    """Tools the server reports that have no score, named in `unscored` where a tools/list says which."""
    to_publish: int
    """More tools to score (or score again) before description quality is published (0 once it is),
    counted against the newest tools/list."""
    coverage: CoverageView
    unscored_tools: list[UnscoredToolRow]
    """Tools in the newest tools/list that have no score yet, each with a page."""


def tool_row(tool: ToolRecord) -> ToolRow:
    score, stated = tool.checked.score, tool.checked.stated
    restated = tool.checked.restated
    return ToolRow(
        name=tool.name,
        slug=tool.slug,
        tdqs=tool.checked.tdqs,
        tier=tool.checked.tier,
        scores=dimension_scores(score.scores),
        flags=list(score.flags),
        server_flags=list(score.server_flags),
        smells=list(tool.checked.smells),
        input_hash=tool.input_hash,
        stale=tool.stale,
        stated_tdqs=stated.tdqs if restated else None,
        stated_tier=stated.tier if restated else None,
    )


def formula_numbers(capture: Capture) -> tuple[str, str]:
    """(mean, min) for the description-quality formula line. tdqs's `mean_tdqs` is itself rounded
    to one decimal, and the formula takes the exact mean: printed rounded, it does not always give
    back the score beside it."""
    tenths = [round_half_up(tool.checked.tdqs * 10) for tool in capture.current_tools]
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


def milestone_view(milestone: Milestone, before: ServerScore) -> MilestoneView:
    after = milestone.after
    return MilestoneView(
        tier=milestone.tier, level=milestone.level, level_is_tier_a=milestone.level == TIER_A,
        tools=[tool_link(tool) for tool in milestone.tools], fewer_at_best=milestone.fewer_at_best,
        description_quality_before=before.description_quality_score,
        description_quality_after=after.description_quality_score,
        overall_before=before.overall_score, overall_after=after.overall_score, overall_tier_after=after.overall_tier,
    )


OFFENDERS_SHOWN = 12
"""Naming advice lists this many offending names, then "and N more"."""


def coherence_step_view(step: CoherenceStep, slugs: dict[str, str]) -> CoherenceStepView:
    naming = step.naming
    offenders = naming.offenders if naming else ()
    return CoherenceStepView(
        key=step.key, name=step.name, score=step.score, target=step.target, anchor=step.anchor,
        target_anchor=step.target_anchor, do=step.do, guidance=step.guidance,
        coherence_before=step.coherence_before, coherence_after=step.coherence_after,
        overall_before=step.before.overall_score if step.before else None,
        overall_after=step.after.overall_score if step.after else None,
        overall_tier_after=step.after.overall_tier if step.after else None,
        naming_style=naming.style if naming else None,
        naming_style_count=naming.style_count if naming else 0, naming_styled=naming.styled if naming else 0,
        naming_verb=naming.verb if naming else None,
        naming_verb_count=naming.verb_count if naming else 0, naming_verbed=naming.verbed if naming else 0,
        offenders=[OffenderView(name=o.name, slug=slugs.get(o.name), why=o.why) for o in offenders[:OFFENDERS_SHOWN]],
        more_offenders=max(0, len(offenders) - OFFENDERS_SHOWN), tool_count=step.tool_count,
    )


def step_view(step: Step, capture: Capture) -> MilestoneView | PatternView | CoherenceStepView:
    if isinstance(step, Milestone):
        return milestone_view(step, capture.server.rollup)
    if isinstance(step, Pattern):
        return pattern_view(step, capture)
    return coherence_step_view(step, {tool.name: tool.slug for tool in capture.tools})


def no_effect_view(step: Step, capture: Capture) -> PatternView | CoherenceStepView:
    """A step that would leave the published score where it is. Never a milestone: each lifts the
    overall tier (builder.tdqs.tool_reach), so its gain is positive and it is one of `steps`."""
    view = step_view(step, capture)
    if isinstance(view, MilestoneView):
        raise ValueError(f"a milestone to tier {view.tier} that would not move the published score")
    return view


def reach_view(reach: ToolReach) -> ReachView:
    return ReachView(
        tier=reach.before.overall_tier, best_overall=reach.best.overall_score, best_tier=reach.best.overall_tier,
        coherence=reach.before.coherence_score,
    )


def server_context(
    server: Server, problems: list[Problem], api_path: str, charts_: dict[str, dict[str, Any] | None],
    badge: BadgeView, feed_path: str, card: CardView, problem_files: list[str] | None = None,
) -> ServerContext:
    """`problem_files`: the server's input files with a problem, in order."""
    capture = server.current
    rolled = capture.server.rollup
    coherence = coherence_scores(rolled)
    slugs = {tool.name: tool.slug for tool in capture.tools}
    advice = server_advice(capture)
    unscored = sorted((set(server.unscored_definitions) | set(advice.unscored)) - set(slugs))
    inputs = input_ages(server)
    worst_first = sorted(capture.tools, key=lambda t: (t.checked.tdqs, t.name))
    who = identity(server.server_id, server.meta.repository_url).label
    scores = server_scores(capture)
    grade = (f"overall {scores.overall_tier} {numbers.fixed(scores.overall_score)}" if scores.coverage_ok
             else "overall not published (below 80% coverage)")
    return ServerContext(
        stand_in_models=stand_in_models(c.report.model for c in server.captures),
        title=titled(server.display_name, who),
        description=f"TDQS scorecard of the MCP server {server.display_name} ({who}): {grade}, coherence "
                    f"{scores.coherence_tier} {numbers.fixed(scores.coherence_score)}, {len(capture.tools)} tools scored.",
        grade=grade,
        server_id=server.server_id,
        slug=server.slug,
        display_name=server.display_name,
        identity=who,
        categories=category_links(server.meta.categories),
        about=server.meta.description,
        repository_url=server.meta.repository_url,
        homepage_url=server.meta.homepage_url,
        scores=scores,
        stated=stated_overall(capture),
        formula_mean=formula_numbers(capture)[0],
        formula_min=formula_numbers(capture)[1],
        coherence=[
            CoherenceRow(
                key=d.key, name=d.name, question=d.question,
                score=coherence[d.key], anchor=d.anchors.get(coherence[d.key], ""),
                justification=rolled.coherence_justifications[d.key].justification,
                justified=(rolled.coherence_justifications[d.key].score
                           if rolled.coherence_justifications[d.key].score != coherence[d.key] else None),
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
        steps=[step_view(step, capture) for step in advice.steps],
        no_effect=[no_effect_view(step, capture) for step in advice.no_effect],
        unprojected=[pattern_view(p, capture) for p in advice.unprojected],
        reach=reach_view(advice.reach) if advice.reach else None,
        history=server_history(server),
        provenance=provenance(capture, server),
        inputs=inputs,
        manifest_parts=manifest_parts(urls.server_page(server.slug), inputs),
        notes=notes_for(problems, "$.server"),
        problem_files=problem_links(problem_files or []),
        api_path=api_path,
        tools_chart=charts_["tools"] or {},
        history_chart=charts_["history"],
        badge=badge,
        card=card,
        feed_path=feed_path,
        unscored=unscored,
        unscored_count=max(advice.unscored_count, len(unscored)),
        to_publish=capture.coverage.to_publish if capture.coverage else advice.to_publish,
        coverage=coverage_view(capture),
        unscored_tools=unscored_rows(server),
    )


def server_api(server: Server) -> dict[str, Any]:
    capture = server.current
    return {
        "id": server.server_id,
        "displayName": server.display_name,
        "identity": identity(server.server_id, server.meta.repository_url).label,  # whose server, as its page says
        "description": server.meta.description,
        "repositoryUrl": server.meta.repository_url,
        "homepageUrl": server.meta.homepage_url,
        "categories": list(server.meta.categories or ()),
        "provenance": provenance(capture, server).model_dump(mode="json", by_alias=True),
        "scores": server_scores(capture).model_dump(mode="json", by_alias=True),
        "coverage": coverage_view(capture).model_dump(mode="json", by_alias=True),
        "coherence": {d.key: coherence_scores(capture.server.rollup)[d.key] for d in COHERENCE_DIMENSIONS},
        "shadowingRisks": [
            risk.model_dump(mode="json", by_alias=True) for risk in capture.server.rollup.shadowing_risks
        ],
        "tools": [
            tool_row(tool).model_dump(mode="json", by_alias=True) for tool in capture.tools
        ],
        "captures": [
            {"id": c.capture_id, "scoredAt": c.generated_at, **server_scores(c).model_dump(mode="json", by_alias=True)}
            for c in server.captures
        ],
    }


HISTOGRAM_FROM = 61
"""From this many tools a bar per tool is unreadable: the chart becomes a histogram of tenths."""


def tools_chart(server: Server) -> dict[str, Any]:
    """A bar per tool, worst first, from the axis; past 60 tools a histogram of the tools' TDQS in
    tenths on a numeric axis from 1 to 5 with the passing bar, each bar in its tier's colour (every
    value in a bar shares one tier)."""
    tools = sorted(server.current.tools, key=lambda t: (t.checked.tdqs, t.name))
    if len(tools) >= HISTOGRAM_FROM:
        counts = Counter(t.checked.tdqs for t in tools)
        tiers = {t.checked.tdqs: t.checked.tier for t in tools}
        values = sorted(counts)
        return charts.histogram(
            f"TDQS of the {len(tools)} tools (histogram)", values, [counts[v] for v in values],
            x_title="TDQS", y_title="tools", range_=(1, 5), pass_line=PASS_LINE,
            colours=[charts.TIER_COLOURS[tiers[v]] for v in values],
        )
    return charts.bar(
        "Tool scores, worst first", [t.name for t in tools], [t.checked.tdqs for t in tools],
        x_title="TDQS", horizontal=True, range_=(0, 5),
        colours=[charts.TIER_COLOURS[t.checked.tier] for t in tools],
    )
