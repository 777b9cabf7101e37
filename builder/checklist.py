"""Improvement checklists, drawn from the rubric itself.

For a tool: every dimension below 5, with the anchor it reached and the next one, ordered by what
raising it one point is worth (weight × points), with the TDQS it would then have — computed by
tdqs's `compute_tdqs`, so rounding is the specification's. Then the deterministic items that need
no model: the lint rules of tdqs (`LINT_RULES`), each parameter without a description named.

For a server: the tools that pull the min term of description quality down, and what raising the
worst one would do to the server's description quality and overall score (tdqs's rollup again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tdqs import LINT_RULES, TOOL_DIMENSIONS, ServerScore, ToolDimension, compute_tdqs, compute_tier

from builder.sources.tdqs.reader import Capture, ToolRecord
from builder.sources.tdqs.recompute import CheckedTool, rollup

_RULES = {rule.key: rule for rule in LINT_RULES}
TARGET_TDQS = 3.5
"""The worst tool is imagined at the tier-A bound ("genuinely helpful definition")."""


@dataclass(frozen=True)
class DimensionStep:
    key: str
    name: str
    weight: int
    score: int
    anchor_now: str | None
    anchor_next: str | None
    """The rubric's anchor for the score, where the specification states one per point."""
    guidance: str
    points_per_step: float
    """weight × 1 point, in TDQS points: what one step up is worth before rounding."""
    tdqs_after: float
    tier_after: str
    full_gain: float
    """weight × (5 − score): what reaching 5 on this dimension is worth."""


@dataclass(frozen=True)
class LintItem:
    rule: str
    severity: str
    message: str
    source: str


@dataclass(frozen=True)
class ToolChecklist:
    steps: tuple[DimensionStep, ...]
    items: tuple[LintItem, ...]


def anchor_for(dimension: ToolDimension, score: int) -> str | None:
    """The anchor a score reached, where the rubric's anchors are a ladder of points. Parameter
    Semantics' two anchors are conditional baselines ("3 when coverage is above 80%", "4 for a
    tool with no parameters"), not what every 3 or 4 means, so they are never shown as reached."""
    if dimension.key == "parameter_semantics":
        return None
    return dimension.anchors.get(score)


def dimension_steps(scores: dict[str, int]) -> list[DimensionStep]:
    steps = []
    for order, dimension in enumerate(TOOL_DIMENSIONS):
        score = scores[dimension.key]
        if score >= 5:
            continue
        raised = dict(scores)
        raised[dimension.key] = score + 1
        after = compute_tdqs(raised)  # type: ignore[arg-type]
        steps.append(
            (
                -dimension.weight,
                order,
                DimensionStep(
                    key=dimension.key,
                    name=dimension.name,
                    weight=dimension.weight,
                    score=score,
                    anchor_now=anchor_for(dimension, score),
                    anchor_next=anchor_for(dimension, score + 1),
                    guidance=dimension.guidance,
                    points_per_step=dimension.weight / 100,
                    tdqs_after=after,
                    tier_after=compute_tier(after),
                    full_gain=dimension.weight * (5 - score) / 100,
                ),
            )
        )
    return [step for _, _, step in sorted(steps, key=lambda item: (item[0], item[1]))]


def _undocumented_parameters(tool: ToolRecord) -> list[str]:
    if tool.definition is None or tool.definition.tool.input_schema is None:
        return []
    properties = tool.definition.tool.input_schema.get("properties")
    if not isinstance(properties, dict):
        return []
    missing = []
    for name, schema in properties.items():
        description = schema.get("description") if isinstance(schema, dict) else None
        if not (isinstance(description, str) and description):
            missing.append(str(name))
    return missing


def lint_items(tool: ToolRecord) -> list[LintItem]:
    """The deterministic checklist: the same conditions as `tdqs.lint_server`, read from the
    context signals stored with the score, so it works for captures without their definitions."""
    score = tool.checked.score
    signals = score.context_signals
    items: list[LintItem] = []

    def add(rule: str, message: str, severity: str | None = None) -> None:
        definition = _RULES[rule]  # type: ignore[index]
        items.append(LintItem(rule, severity or definition.severity, message, definition.source))

    if "No Description" in score.flags:
        add("no-description", "No description: every dimension scores 1. Write one specific sentence: verb, resource, scope.")
    if "Tautological Description" in score.flags:
        add("tautological-description", "The description restates the name or title, so Purpose Clarity is capped at 2.")
    values = signals.annotation_values
    if not signals.has_annotations or all(
        v is None for v in (values.read_only, values.destructive, values.idempotent, values.open_world)
    ):
        add("missing-annotations", "No MCP annotations: declare readOnlyHint, destructiveHint, idempotentHint, openWorldHint.")
    names = _undocumented_parameters(tool)
    named = (": " + ", ".join(names)) if names else ""
    if signals.param_count > 0 and signals.schema_description_coverage < 80:
        add(
            "undocumented-parameters",
            f"{signals.param_count - signals.params_with_descriptions} of {signals.param_count} parameters have no "
            f"schema description ({signals.schema_description_coverage}% coverage){named}; above 80% lifts the "
            "Parameter Semantics baseline to 3.",
            "warning" if signals.schema_description_coverage < 50 else "info",
        )
    elif names:
        add("undocumented-parameters", f"Parameters without a schema description{named}.", "info")
    if not signals.has_output_schema:
        add("no-output-schema", "No output schema, so the description has to explain return values itself.")
    return items


def tool_checklist(tool: ToolRecord) -> ToolChecklist:
    return ToolChecklist(
        steps=tuple(dimension_steps(dict(tool.checked.score.scores))),
        items=tuple(lint_items(tool)),
    )


@dataclass(frozen=True)
class WhatIf:
    tool: str
    tool_slug: str
    tdqs_before: float
    tdqs_after: float
    before: ServerScore
    after: ServerScore


@dataclass(frozen=True)
class ServerChecklist:
    pulling_down: tuple[ToolRecord, ...]
    """Tools a full point or more below the server's mean, and the minimum itself: the min term
    carries 40% of description quality, so these cost the server the most."""
    what_if: WhatIf | None


def server_checklist(capture: Capture) -> ServerChecklist:
    tools: Sequence[ToolRecord] = capture.tools
    rolled = capture.server.rollup
    mean, low = rolled.mean_tdqs, rolled.min_tdqs
    pulling = sorted(
        (t for t in tools if t.checked.tdqs == low or mean - t.checked.tdqs >= 1.0 - 1e-9),
        key=lambda t: (t.checked.tdqs, t.name),
    )
    worst = pulling[0] if pulling else None
    what_if = None
    if worst is not None and worst.checked.tdqs < TARGET_TDQS:
        raised = [
            t.checked if t is not worst else _with_tdqs(t, TARGET_TDQS) for t in tools
        ]
        after = rollup(raised, capture.report.server_score)
        what_if = WhatIf(worst.name, worst.slug, worst.checked.tdqs, TARGET_TDQS, rolled, after)
    return ServerChecklist(tuple(pulling), what_if)


def _with_tdqs(tool: ToolRecord, value: float) -> CheckedTool:
    return replace(tool.checked, tdqs=value, tier=compute_tier(value))
