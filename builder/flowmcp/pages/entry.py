"""A FlowMCP grading entry's page and its API JSON, at a path mirroring the tree
(`providers/<ns>/<schema>/tools/<tool>/_gradings/<entry>/index.html`): every answer, the veto or
regrading trigger, the grade recomputed from the answers, and the node's audit trail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from builder import urls
from builder.flowmcp.entries import explain
from builder.flowmcp.models import GradingEntry
from builder.flowmcp.pages.hints import Hint, entry_hints
from builder.flowmcp.pages.views import (
    Context,
    DifferenceView,
    View,
    api_json,
    differences,
    entry_models,
    entry_paths,
    exact_float,
    labelled,
    mean_text,
    rollup_page,
)
from builder.flowmcp.records import EntryRecord, Node, Rollup
from builder.flowmcp.rules import TIER_CAP
from builder.pages.page import DataFile, Page


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


def _answer(entry: GradingEntry, record: EntryRecord, position: int) -> AnswerView:
    assert record.computed is not None
    answer, scored = entry.gradings[position], record.computed.answers[position]
    context = answer.selection_context
    evidence = answer.evidence
    return AnswerView(
        position=position,
        question_id=answer.question_id,
        score=str(answer.score),
        value=exact_float(scored.value),
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
        mean=None if veto else exact_float(computed.mean),
        mean_text=None if veto else mean_text(computed.mean),
        before_veto=BeforeVeto(
            mean=exact_float(computed.mean), mean_text=mean_text(computed.mean), raw_grade=computed.raw_grade
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


def entry_outputs(rollup: Rollup) -> Iterator[Page | DataFile]:
    """A page and its API JSON for every grading entry of the rollup's nodes that could be read."""
    for node in rollup.nodes:
        for record in node.trail:
            if record.entry is None:
                continue
            entry = labelled(entry_context(rollup, node, record), entry_models([record]))
            yield Page(entry_paths(rollup, record)[0], "flowmcp/entry.html", entry)
            yield DataFile(entry.api_path, api_json(entry))
