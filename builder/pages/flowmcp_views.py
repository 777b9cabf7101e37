"""Typed contexts of the FlowMCP pages, and the functions that fill them from the records.

Each template of `templates/flowmcp/` reads exactly one of these models, and the API JSON beside
each page is the same model (camelCase). Every grading and every node carries `scoringSystem` and
`gradingSystem` as two separate fields, as the Grading-Spec requires (07 §4).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from builder import numbers, urls
from builder.pages.flowmcp_hints import Hint, entry_hints, report_hints, rollup_hints, stable_gap
from builder.pages.page import PageContext
from builder.sources.flowmcp.entries import explain
from builder.sources.flowmcp.models import GradingEntry
from builder.sources.flowmcp.records import Difference, EntryRecord, Node, Rollup
from builder.sources.flowmcp.reports import ReportRecord, ReportSet
from builder.sources.flowmcp.rules import BANDS, GRADING_SYSTEM, TIER_CAP
from builder.urls import slug

BAND_MINIMA = tuple(bound for bound, _ in BANDS)
"""The Grading-Spec's bands as lower bounds, best first (A ≥ 4.5 … D ≥ 1.5)."""

SECTION = "FlowMCP"
NODE_STATUS_ORDER = ("pending", "blocked", "graded", "stable", "rejected")


class View(BaseModel):
    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)


class Context(PageContext):
    """A page context whose API JSON is the context itself, in camelCase."""

    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)


class DifferenceView(View):
    file: str
    json_path: str
    field: str
    stored: str | None
    recomputed: str | None
    why: str


class NodeView(View):
    path: str
    """The node as index.json addresses it, dotted: `schemas.prices.tools.getFirstPrice`."""
    name: str
    kind: str
    area: str | None
    status: str
    grade: str | None
    reason: str | None
    source: str
    stored_status: str | None
    stored_grade: str | None
    listed: bool
    differences: list[DifferenceView]
    scoring_system: str | None
    grading_system: str | None
    graded_at: str | None
    mean: float | None
    """The current full entry's weighted mean, unrounded; None when it is vetoed (REJECTED)."""
    mean_text: str | None
    """`mean` as printed beside the grade: it bands to the grade (builder.numbers.banded)."""
    entries: int
    entry_page: str | None
    """Output path of the current entry's page."""
    not_stable_because: str | None


class SchemaView(View):
    name: str
    node: NodeView
    tools_aggregate: NodeView
    tools: list[NodeView]
    snapshot_file: str | None
    snapshot_hash: str | None


class BlockerView(View):
    node: str
    reason: str
    origin: str


class VersionsView(View):
    scoring_system: str
    grading_system: str


class GradeBasis(View):
    """One node that feeds the rollup grade."""

    name: str
    grade: str | None


class MemberView(View):
    schema_id: str
    node: NodeView
    provider_page: str | None
    pinned_status: str | None
    pinned_hash: str | None
    pinned_version: str | None


class LockView(View):
    selection_id: str | None
    selection_version: str | None
    selection_hash: str | None
    generated_at: str | None


class RollupContext(Context):
    kind: str
    name: str
    slug: str
    status: str
    grade: str | None
    stored_status: str | None
    stored_grade: str | None
    index_state: str
    index_file: str | None
    updated_at: str | None
    last_scored_under: str | None
    last_graded_under: str | None
    versions: list[VersionsView]
    status_counts: dict[str, int]
    grade_basis: list[GradeBasis]
    grade_rule: str
    about: NodeView
    skills: list[NodeView]
    blockers: list[BlockerView]
    differences: list[DifferenceView]
    hints: list[Hint]
    api_path: str
    section_path: str


class ProviderContext(RollupContext):
    description_node: NodeView
    namespace_aggregate: NodeView
    schemas: list[SchemaView]
    summary_stored: dict[str, str]
    summary: dict[str, str]


class SelectionContext(RollupContext):
    selection_aggregate: NodeView
    members: list[MemberView]
    lock_snapshot: LockView | None
    definition_file: str | None
    display_name: str | None
    summary_text: str | None
    when_to_use: str | None
    persona_ids: list[str]


class AnswerView(View):
    position: int
    question_id: str
    score: str
    value: float | None
    counted: bool
    left_out: str | None
    na_reason: str | None
    weight: float
    determinism: str
    grader_kind: str
    grader_name: str
    grader_version: str
    llm_model: str | None
    persona_ids: list[str]
    group_id: str | None
    domain_doc_id: str | None
    timestamp: str
    evidence_text: str | None
    """A string evidence: a link on the page only when it is an http(s) URL."""
    evidence_json: str | None
    """An object evidence, as JSON text."""
    reasoning: str | None
    below_b: bool


class VetoView(View):
    triggered_by: str
    grader_kind: str
    grader_name: str
    grader_version: str
    evidence: str
    reasoning: str | None
    timestamp: str


class RegradingView(View):
    triggered_by: str
    previous_grading_id: str
    reported_issue: str | None
    requested_by: str | None
    timestamp: str


class TrailItem(View):
    stamp: str
    timestamp: str
    file: str
    valid: bool
    grading_mode: str | None
    grade: str | None
    stored_grade: str | None
    page: str | None
    current: bool
    reasons: list[str]


class BeforeVeto(View):
    mean: float | None
    mean_text: str | None
    raw_grade: str | None


def mean_text(value: Fraction | float | None) -> str | None:
    """A Grading-Spec mean as printed beside its grade: two decimals, or as many more as keep it
    in its band (3.4999 is a C, never `3.50`)."""
    return None if value is None else numbers.banded(value, BAND_MINIMA, 2)


def _exact_float(value: Fraction | None) -> float | None:
    """The API's value: the nearest float, not a rounded one."""
    return None if value is None else float(value)


def _node_mean(current: EntryRecord | None) -> float | None:
    if current is None or current.computed is None or not _full(current):
        return None
    if current.entry is not None and current.entry.categorical_veto is not None:
        return None
    return _exact_float(current.computed.mean)


class EntryContext(Context):
    owner_kind: str
    owner_name: str
    owner_page: str
    node_path: str
    node_status: str
    current: bool
    file: str
    ref: str
    grading_id: str
    schema_id: str
    area: str
    tier: str
    tier_cap: str
    grading_mode: str
    version: str
    schema_hash: str
    about_hash: str | None
    harness: str
    persona: str | None
    skill_id: str | None
    selection_id: str | None
    scoring_system: str
    grading_system: str
    stored_grade: str
    grade: str | None
    raw_grade: str | None
    """None when vetoed: the band of the mean is only `before_veto`."""
    mean: float | None
    """The weighted mean, unrounded; None when vetoed."""
    mean_text: str | None
    before_veto: BeforeVeto | None
    """For a vetoed entry: what the answers would have given, had the veto not short-circuited."""
    grade_explanation: str
    stored_max_attainable: str
    stored_tier: str
    veto: VetoView | None
    regrading: RegradingView | None
    answers: list[AnswerView]
    counted_answers: int
    trail: list[TrailItem]
    differences: list[DifferenceView]
    hints: list[Hint]
    api_path: str
    section_path: str


class DimensionView(View):
    dimension: str
    score: float
    reasoning: str | None
    prompt: str | None
    below_b: bool


class ReportVersion(View):
    file: str
    date: str
    grade: str
    stored_grade: str
    score: float
    score_text: str
    page: str
    current: bool


class ReportContext(Context):
    folder: str
    slug: str
    file: str
    current: bool
    schema_id: str
    schema_id_slug: str
    schema_path: str | None
    schema_hash: str
    date: str
    stored_grade: str
    grade: str
    stored_score: float
    score: float
    """The mean of the dimension scores, unrounded."""
    score_text: str
    """`score` as printed: it bands to the band of the score."""
    scoring_protocol: str
    grading_system: str
    """The bands this site applied (the protocol delegates them to the Grading-Spec)."""
    creator: dict[str, str | None]
    harness: dict[str, str | None]
    timestamps: dict[str, str | None]
    dimensions: list[DimensionView]
    validation_passed: bool
    validation_errors: list[str]
    prompts_file: str | None
    scores_file: str | None
    scoring_instructions: str | None
    history: list[ReportVersion]
    differences: list[DifferenceView]
    hints: list[Hint]
    api_path: str
    section_path: str
    report_page: str


# ---- builders --------------------------------------------------------------------------------------


def differences(found: tuple[Difference, ...]) -> list[DifferenceView]:
    return [
        DifferenceView(
            file=d.file, json_path=d.json_path, field=d.field, stored=d.stored, recomputed=d.recomputed, why=d.why
        )
        for d in found
    ]


def owner_folder(rollup: Rollup) -> str:
    return f"{'providers' if rollup.kind == 'provider' else 'selections'}/{rollup.slug}"


def entry_paths(rollup: Rollup, record: EntryRecord) -> tuple[str, str]:
    """(page, api) output paths of an entry, below its node's folder in the tree."""
    folder = "/".join((owner_folder(rollup), *record.page_dir))
    entry_slug = slug(record.file.rsplit("/", 1)[-1].removesuffix(".json"))
    return urls.flowmcp_grading_page(folder, entry_slug), urls.flowmcp_grading_api(folder, entry_slug)


def rollup_page(rollup: Rollup) -> str:
    if rollup.kind == "provider":
        return urls.flowmcp_provider_page(rollup.slug)
    return urls.flowmcp_selection_page(rollup.slug)


def rollup_api(rollup: Rollup) -> str:
    if rollup.kind == "provider":
        return urls.flowmcp_provider_api(rollup.slug)
    return urls.flowmcp_selection_api(rollup.slug)


def _node_name(node: Node) -> str:
    names = {
        "about": "About",
        "description": "Description",
        "namespace-aggregate": "Namespace aggregate",
        "selection-aggregate": "Selection aggregate",
        "tools-aggregate": "Tools aggregate",
    }
    return names.get(node.kind, node.path[-1])


def _full(record: EntryRecord) -> bool:
    return record.entry is not None and record.entry.grading_mode == "full"


def node_view(rollup: Rollup, node: Node) -> NodeView:
    current = node.current
    entry = current.entry if current is not None else None
    return NodeView(
        path=node.label,
        name=_node_name(node),
        kind=node.kind,
        area=node.area,
        status=node.status,
        grade=node.grade,
        reason=node.reason,
        source=node.source,
        stored_status=node.stored_status,
        stored_grade=node.stored_grade,
        listed=node.listed,
        differences=differences(node.differences),
        scoring_system=entry.scoring_system if entry else None,
        grading_system=entry.grading_system if entry else None,
        graded_at=current.name.timestamp if current else None,
        mean=_node_mean(current),
        mean_text=mean_text(_node_mean(current)),
        entries=len(node.trail),
        entry_page=entry_paths(rollup, current)[0] if current is not None and entry is not None else None,
        not_stable_because=stable_gap(node),
    )


def _required(rollup: Rollup, *path: str) -> Node:
    """A node every rollup has (the rollup builders always make it)."""
    node = rollup.node(*path)
    if node is None:
        raise LookupError(f"{rollup.name} has no node {'.'.join(path)}")
    return node


def _entry_links(rollup: Rollup) -> dict[str, str]:
    return {
        node.label: entry_paths(rollup, node.current)[0]
        for node in rollup.nodes
        if node.current is not None and node.current.entry is not None
    }


def _status_counts(rollup: Rollup) -> dict[str, int]:
    counts = {status: 0 for status in NODE_STATUS_ORDER}
    for node in rollup.nodes:
        counts[node.status] += 1
    return {status: count for status, count in counts.items() if count}


def _common(rollup: Rollup, basis_kinds: tuple[str, ...], grade_rule: str) -> dict[str, Any]:
    return dict(
        title=f"{rollup.name} ({'namespace' if rollup.kind == 'provider' else 'selection'})",
        description=f"FlowMCP {'namespace' if rollup.kind == 'provider' else 'selection'} {rollup.name}: "
        f"{rollup.status}, grade {rollup.grade or 'none yet'}, recomputed from its grading entries.",
        kind=rollup.kind,
        name=rollup.name,
        slug=rollup.slug,
        status=rollup.status,
        grade=rollup.grade,
        stored_status=rollup.stored_status,
        stored_grade=rollup.stored_grade,
        index_state=rollup.index_state,
        index_file=rollup.index_file,
        updated_at=rollup.updated_at,
        last_scored_under=rollup.last_scored_under,
        last_graded_under=rollup.last_graded_under,
        versions=[VersionsView(scoring_system=s, grading_system=g) for s, g in rollup.versions],
        status_counts=_status_counts(rollup),
        grade_basis=[GradeBasis(name=n.label, grade=n.grade) for n in rollup.nodes if n.kind in basis_kinds],
        grade_rule=grade_rule,
        about=node_view(rollup, _required(rollup, "about")),
        skills=[node_view(rollup, n) for n in rollup.nodes if n.kind == "skill"],
        blockers=[BlockerView(node=b.node, reason=b.reason, origin=b.origin) for b in rollup.blockers],
        differences=differences(rollup.differences),
        hints=rollup_hints(rollup, _entry_links(rollup)),
        api_path=rollup_api(rollup),
        section_path=urls.FLOWMCP,
    )


def provider_context(rollup: Rollup) -> ProviderContext:
    schemas = []
    for node in rollup.nodes:
        if node.kind != "schema":
            continue
        name = node.path[1]
        tools = [n for n in rollup.nodes if n.kind == "tool" and n.path[1] == name]
        stored = rollup.index and (rollup.index.schemas or {}).get(name)
        snapshot = stored.get("snapshot") if isinstance(stored, dict) else None
        schemas.append(
            SchemaView(
                name=name,
                node=node_view(rollup, node),
                tools_aggregate=node_view(rollup, _required(rollup, "schemas", name, "toolsAggregate")),
                tools=[node_view(rollup, t) for t in tools],
                snapshot_file=str(snapshot.get("file"))
                if isinstance(snapshot, dict) and snapshot.get("file")
                else None,
                snapshot_hash=str(snapshot.get("hash"))
                if isinstance(snapshot, dict) and snapshot.get("hash")
                else None,
            )
        )
    tools = [n for n in rollup.nodes if n.kind == "tool"]
    skills = [n for n in rollup.nodes if n.kind == "skill"]
    description = _required(rollup, "description")
    summary = {
        "schemas": str(len(schemas)),
        "tools": str(len(tools)),
        "toolsStable": str(sum(1 for t in tools if t.status == "stable")),
        "about": _required(rollup, "about").status,
        "description": description.status,
        "skills": str(sum(1 for s in skills if s.status in ("graded", "stable"))),
    }
    stored_summary = rollup.index.summary if rollup.index and rollup.index.summary else {}
    return ProviderContext(
        **_common(
            rollup,
            ("schema", "namespace-aggregate", "description", "skill"),
            "the worst grade among the schemas (each from its tools aggregate), the namespace aggregate, "
            "the description and the skills; REJECTED when any node is rejected",
        ),
        description_node=node_view(rollup, description),
        namespace_aggregate=node_view(rollup, _required(rollup, "namespaceAggregate")),
        schemas=schemas,
        summary_stored={
            key: json.dumps(value) if not isinstance(value, str) else value
            for key, value in sorted(stored_summary.items())
        },
        summary=summary,
    )


def selection_context(rollup: Rollup, providers: dict[str, Rollup]) -> SelectionContext:
    members = []
    for node in rollup.nodes:
        if node.kind != "member":
            continue
        pin = node.pinned
        provider = providers.get(node.provider[0]) if node.provider else None
        members.append(
            MemberView(
                schema_id=node.path[1],
                node=node_view(rollup, node),
                provider_page=rollup_page(provider) if provider else None,
                pinned_status=pin.grading_status if pin else None,
                pinned_hash=pin.schema_hash if pin else None,
                pinned_version=pin.schema_version if pin else None,
            )
        )
    lock = rollup.lock_snapshot
    definition = rollup.definition
    return SelectionContext(
        **_common(
            rollup, ("selection-aggregate",), "the selection aggregate's grade; REJECTED when any node is rejected"
        ),
        selection_aggregate=node_view(rollup, _required(rollup, "selectionAggregate")),
        members=members,
        lock_snapshot=LockView(
            selection_id=lock.selection_id,
            selection_version=lock.selection_version,
            selection_hash=lock.selection_hash,
            generated_at=lock.generated_at,
        )
        if lock
        else None,
        definition_file=rollup.definition_file,
        display_name=definition.name if definition else None,
        summary_text=definition.description if definition else None,
        when_to_use=definition.when_to_use if definition else None,
        persona_ids=list(definition.persona_ids) if definition else [],
    )


def _answer(entry: GradingEntry, record: EntryRecord, position: int) -> AnswerView:
    assert record.computed is not None
    answer, scored = entry.gradings[position], record.computed.answers[position]
    context = answer.selection_context
    evidence = answer.evidence
    return AnswerView(
        position=position,
        question_id=answer.question_id,
        score=str(answer.score),
        value=_exact_float(scored.value),
        counted=scored.counted,
        left_out=scored.left_out,
        na_reason=answer.na_reason,
        weight=answer.weight,
        determinism=answer.determinism,
        grader_kind=answer.grader_identity.kind,
        grader_name=answer.grader_identity.name,
        grader_version=answer.grader_identity.version,
        llm_model=answer.llm_model,
        persona_ids=list(context.persona_ids) if context else [],
        group_id=context.group_id if context else None,
        domain_doc_id=context.domain_doc_id if context else None,
        timestamp=answer.timestamp,
        evidence_text=evidence if isinstance(evidence, str) else None,
        evidence_json=json.dumps(evidence, ensure_ascii=False, sort_keys=True, indent=2)
        if isinstance(evidence, dict)
        else None,
        reasoning=answer.reasoning,
        below_b=scored.counted and scored.value is not None and scored.value < 3.5,
    )


def entry_context(rollup: Rollup, node: Node, record: EntryRecord) -> EntryContext:
    entry, computed = record.entry, record.computed
    assert entry is not None and computed is not None
    api = entry_paths(rollup, record)[1]
    veto = entry.categorical_veto
    trigger = entry.regrading_trigger
    trail = [
        TrailItem(
            stamp=r.name.stamp,
            timestamp=r.name.timestamp,
            file=r.file,
            valid=r.valid,
            grading_mode=r.entry.grading_mode if r.entry else None,
            grade=r.grade,
            stored_grade=r.entry.aggregate_grade if r.entry else None,
            page=entry_paths(rollup, r)[0] if r.entry else None,
            current=r is node.current,
            reasons=list(r.reasons),
        )
        for r in reversed(node.trail)
    ]
    persona = f"{entry.persona.base_persona_id} · {entry.persona.lens_id}" if entry.persona else None
    return EntryContext(
        title=f"{entry.area} of {node.label} · {record.name.stamp}",
        description=f"FlowMCP grading entry {entry.grading_id}: {entry.area}, grade {record.grade or 'none'}, "
        f"recomputed from its {len(entry.gradings)} answers.",
        owner_kind=rollup.kind,
        owner_name=rollup.name,
        owner_page=rollup_page(rollup),
        node_path=node.label,
        node_status=node.status,
        current=record is node.current,
        file=record.file,
        ref=record.ref,
        grading_id=entry.grading_id,
        schema_id=entry.schema_id,
        area=entry.area,
        tier=record.tier,
        tier_cap=TIER_CAP[record.tier],
        grading_mode=entry.grading_mode,
        version=entry.version,
        schema_hash=entry.schema_hash,
        about_hash=entry.about_hash,
        harness=entry.harness,
        persona=persona,
        skill_id=entry.skill_id,
        selection_id=entry.selection_id,
        scoring_system=entry.scoring_system,
        grading_system=entry.grading_system,
        stored_grade=entry.aggregate_grade,
        grade=record.grade,
        raw_grade=None if veto else computed.raw_grade,
        mean=None if veto else _exact_float(computed.mean),
        mean_text=None if veto else mean_text(computed.mean),
        before_veto=BeforeVeto(
            mean=_exact_float(computed.mean), mean_text=mean_text(computed.mean), raw_grade=computed.raw_grade
        ) if veto else None,
        grade_explanation=explain(entry, computed, record.tier, record.grade_note),
        stored_max_attainable=entry.max_attainable_grade,
        stored_tier=entry.grading_tier,
        veto=VetoView(
            triggered_by=veto.triggered_by,
            grader_kind=veto.grader_identity.kind,
            grader_name=veto.grader_identity.name,
            grader_version=veto.grader_identity.version,
            evidence=veto.evidence,
            reasoning=veto.reasoning,
            timestamp=veto.timestamp,
        )
        if veto
        else None,
        regrading=RegradingView(
            triggered_by=trigger.triggered_by,
            previous_grading_id=trigger.previous_grading_id,
            reported_issue=trigger.reported_issue,
            requested_by=trigger.requested_by,
            timestamp=trigger.timestamp,
        )
        if trigger
        else None,
        answers=[_answer(entry, record, i) for i in range(len(entry.gradings))],
        counted_answers=sum(1 for a in computed.answers if a.counted),
        trail=trail,
        differences=differences(record.differences),
        hints=entry_hints(record, toward_next=True),
        api_path=api,
        section_path=urls.FLOWMCP,
    )


def report_context(found: ReportSet, record: ReportRecord, *, as_index: bool) -> ReportContext:
    report = record.report
    prompts = {p.dimension: p.prompt for p in found.prompts.prompts} if found.prompts else {}
    given = {s.dimension: s.reasoning for s in found.scores.scores} if found.scores else {}
    file_slug = slug(record.stem)
    api = urls.flowmcp_report_api(found.slug) if as_index else urls.flowmcp_report_version_api(found.slug, file_slug)
    reasoning = {d.dimension: d.reasoning or given.get(d.dimension) for d in report.dimensions}
    return ReportContext(
        title=f"Scoring report: {report.schema_id} ({report.date})",
        description=f"Scoring Protocol v1 report of {report.schema_id}: grade {record.grade}, "
        f"score {mean_text(record.score)}.",
        folder=found.folder,
        slug=found.slug,
        file=record.file,
        current=record is found.current,
        schema_id=report.schema_id,
        schema_id_slug=report.schema_id_slug,
        schema_path=report.schema_path,
        schema_hash=report.schema_hash,
        date=report.date,
        stored_grade=report.grade,
        grade=record.grade,
        stored_score=report.score,
        score=float(record.score),
        score_text=mean_text(record.score) or "—",
        scoring_protocol=report.scoring_protocol,
        grading_system=GRADING_SYSTEM,
        creator={
            "skill": report.creator.skill,
            "skillVersion": report.creator.skill_version,
            "session": report.creator.session,
        },
        harness={
            "name": report.harness.name,
            "version": report.harness.version,
            "model": report.harness.model,
            "modelContext": report.harness.model_context,
        },
        timestamps={
            "startedAt": report.timestamps.started_at,
            "scoredAt": report.timestamps.scored_at,
            "gradedAt": report.timestamps.graded_at,
            "reportedAt": report.timestamps.reported_at,
        },
        dimensions=[
            DimensionView(
                dimension=d.dimension,
                score=d.score,
                reasoning=reasoning[d.dimension],
                prompt=prompts.get(d.dimension),
                below_b=d.score < 3.5,
            )
            for d in report.dimensions
        ],
        validation_passed=report.validation_passed,
        validation_errors=[
            e if isinstance(e, str) else json.dumps(e, ensure_ascii=False, sort_keys=True)
            for e in report.validation_errors
        ],
        prompts_file=found.prompts_file,
        scores_file=found.scores_file,
        scoring_instructions=found.prompts.scoring_instructions if found.prompts else None,
        history=[
            ReportVersion(
                file=r.file,
                date=r.report.date,
                grade=r.grade,
                stored_grade=r.report.grade,
                score=float(r.score),
                score_text=mean_text(r.score) or "—",
                page=urls.flowmcp_report_version_page(found.slug, slug(r.stem)),
                current=r is found.current,
            )
            for r in reversed(found.reports)
        ],
        differences=differences(record.differences),
        hints=report_hints(record, reasoning),
        api_path=api,
        section_path=urls.FLOWMCP,
        report_page=urls.flowmcp_report_page(found.slug),
    )
