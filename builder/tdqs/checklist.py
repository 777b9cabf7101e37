"""Improvement checklists, drawn from the rubric itself, biggest real gain first.

For a tool: one list of actions, each with what it is worth. A tool with no description has one
action that matters — write one — and every dimension step is meaningless until it exists (the hard
gate scores them all 1), so none is listed. Otherwise every dimension below 5 is a step: to the
minimum viable 3 from below it (the anchors under 3 are defects, never goals), else one point up,
worth weight × points; undocumented parameters are worth lifting Parameter Semantics to the baseline
the rubric gives coverage above 80%. Each gain is the exact weighted sum, and the TDQS it leads to is
tdqs's `compute_tdqs`, so rounding is the specification's. Actions no rubric arithmetic can price
(annotations, an output schema) come last, said to be unpriced.

For a server (`builder.tdqs.server_advice`): the tier the tools alone can reach and the fewest tools for
each tier, the shared defects, and the coherence dimensions below 4, each only where it raises the score.
"""

from __future__ import annotations

from dataclasses import dataclass

from tdqs import LINT_RULES, TOOL_DIMENSIONS, DimensionScores, ToolDimension, compute_tdqs, compute_tier

from builder.tdqs.reader import ToolRecord

_RULES = {rule.key: rule for rule in LINT_RULES}
_DIMENSIONS: dict[str, ToolDimension] = {dimension.key: dimension for dimension in TOOL_DIMENSIONS}

VIABLE = 3
"""The rubric's minimum-viable score (tdqs's `compute_smells` flags every dimension below it). A
projection that assumes a fix "works" assumes the fixed dimension reaches this, and no more."""

DO = {
    "purpose_clarity": "Say exactly what the tool does (verb and resource) and how it differs from its siblings",
    "usage_guidelines": "Say when to use the tool, when not to, and which sibling to use instead",
    "behavioral_transparency": "Disclose its behaviour: side effects, authentication, limits, what it changes",
    "parameter_semantics": "Explain the parameters: formats, units, allowed values, an example",
    "conciseness_structure": "Put the key information first and cut sentences that do not earn their place",
    "contextual_completeness": "Cover what a caller needs to use the result: return values, errors, paging",
}
"""The site's plain-words advice per dimension; the rubric's own anchor is shown beside it."""


def anchor_for(dimension: ToolDimension, score: int) -> str | None:
    """The anchor a score reached, where the rubric's anchors are a ladder of points. Parameter
    Semantics' two anchors are conditional baselines ("3 when coverage is above 80%", "4 for a
    tool with no parameters"), not what every 3 or 4 means, so they are never shown as reached."""
    if dimension.key == "parameter_semantics":
        return None
    return dimension.anchors.get(score)


def weighted_hundredths(before: dict[str, int], after: dict[str, int]) -> int:
    """TDQS points before rounding, in hundredths: Σ weight × (after − before), exactly (the
    weights are whole percentages), so gains sort as ints and divide once, without Fractions."""
    return sum(d.weight * (after[d.key] - before[d.key]) for d in TOOL_DIMENSIONS)


def dimension_scores(scores: DimensionScores) -> dict[str, int]:
    """A tool's six dimension scores as a plain dict of ints (tdqs's `DimensionScores` is a
    TypedDict of them), for the projections that raise some of them."""
    return {dimension.key: scores[dimension.key] for dimension in TOOL_DIMENSIONS}


def raised(scores: dict[str, int], keys: tuple[str, ...], level: int) -> dict[str, int]:
    """`scores` with each of `keys` lifted to `level` (never lowered)."""
    return {key: max(value, level) if key in keys else value for key, value in scores.items()}


@dataclass(frozen=True)
class Action:
    key: str
    """A dimension key, a lint rule, or `write-description`."""
    text: str
    """What to do, in plain words."""
    gain: float | None
    """TDQS points the action is worth before rounding; None where the rubric cannot price it."""
    tdqs_before: float
    tdqs_after: float | None
    tier_before: str
    tier_after: str | None
    assumption: str | None = None
    """What the projection assumes, said beside it."""
    anchor: str | None = None
    """The rubric's anchor for the score the action reaches, where it states one."""
    dimension: str | None = None
    """The dimension the action raises, for a link into the rubric."""
    severity: str | None = None
    """The tdqs lint rule's severity, for actions that are lint findings."""


def undocumented_parameters(tool: ToolRecord) -> list[str]:
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


def has_no_description(tool: ToolRecord) -> bool:
    return "No Description" in tool.checked.score.flags


def lacks_annotations(tool: ToolRecord) -> bool:
    signals = tool.checked.score.context_signals
    values = signals.annotation_values
    return not signals.has_annotations or all(
        v is None for v in (values.read_only, values.destructive, values.idempotent, values.open_world)
    )


def under_documented_parameters(tool: ToolRecord) -> bool:
    """Parameters whose schema descriptions cover less than 80%, the condition of tdqs's
    `lint_server` (the rubric's Parameter Semantics baseline of 3 needs coverage above 80%)."""
    signals = tool.checked.score.context_signals
    return signals.param_count > 0 and signals.schema_description_coverage < 80


def _projected(
    key: str, text: str, tool: ToolRecord, after_scores: dict[str, int], hundredths: int | None = None,
    **extra: object,
) -> Action:
    """`hundredths`: `weighted_hundredths` from the tool's scores to `after_scores`, when the caller
    has it. The gain is hundredths / 100: int division is correctly rounded, as float(Fraction) is."""
    if hundredths is None:
        hundredths = weighted_hundredths(dimension_scores(tool.checked.score.scores), after_scores)
    after = compute_tdqs(after_scores)  # type: ignore[arg-type]
    return Action(
        key=key, text=text, gain=hundredths / 100,
        tdqs_before=tool.checked.tdqs, tdqs_after=after, tier_before=tool.checked.tier,
        tier_after=compute_tier(after), **extra,  # type: ignore[arg-type]
    )


def _unpriced(key: str, text: str, tool: ToolRecord) -> Action:
    return Action(key=key, text=text, gain=None, tdqs_before=tool.checked.tdqs, tdqs_after=None,
                  tier_before=tool.checked.tier, tier_after=None, severity=_RULES[key].severity)  # type: ignore[index]


def _write_description(tool: ToolRecord) -> Action:
    scores = dimension_scores(tool.checked.score.scores)
    return _projected(
        "write-description",
        "Write a description: one or two sentences saying what the tool does (verb and resource), when to "
        "use it instead of its siblings, and what it returns. Without one every dimension scores 1 and no "
        "model reads the tool at all.",
        tool, raised(scores, tuple(scores), VIABLE),
        assumption=f"a plain description graded {VIABLE} on every dimension, the rubric's minimum viable score",
        severity="error",
    )


def _parameter_text(tool: ToolRecord) -> str:
    signals = tool.checked.score.context_signals
    names = undocumented_parameters(tool)
    named = (": " + ", ".join(names)) if names else ""
    missing = signals.param_count - signals.params_with_descriptions
    return (
        f"Describe the parameters in the input schema ({missing} of {signals.param_count} have no description, "
        f"{signals.schema_description_coverage}% coverage{named})."
    )


def _parameter_action(tool: ToolRecord) -> Action | None:
    signals = tool.checked.score.context_signals
    if not under_documented_parameters(tool):
        return None
    if has_no_description(tool):
        return _unpriced("undocumented-parameters", _parameter_text(tool) + " The hard gate holds Parameter "
                         "Semantics at 1 until the tool has a description.", tool)
    text = _parameter_text(tool)
    key = "parameter_semantics"
    scores = dimension_scores(tool.checked.score.scores)
    if scores[key] >= VIABLE:
        return _unpriced("undocumented-parameters", text + " Parameter Semantics is already at its baseline.", tool)
    dimension = _DIMENSIONS[key]
    return _projected(
        "undocumented-parameters", text, tool, raised(scores, (key,), VIABLE),
        assumption=f"Parameter Semantics at {VIABLE}, the rubric's {dimension.anchors[VIABLE]}",
        dimension=key, severity="warning" if signals.schema_description_coverage < 50 else "info",
    )


def tool_actions(tool: ToolRecord) -> list[Action]:
    """Every action for one tool, priced ones biggest gain first, then the unpriced ones."""
    score = tool.checked.score
    scores = dimension_scores(score.scores)
    priced: list[tuple[int, int, Action]] = []  # (gain in hundredths, the dimension's order, the action)
    unpriced: list[Action] = []
    parameters = _parameter_action(tool)
    if parameters is not None and parameters.gain is not None:
        order = next(i for i, d in enumerate(TOOL_DIMENSIONS) if d.key == "parameter_semantics")
        priced.append((weighted_hundredths(scores, raised(scores, ("parameter_semantics",), VIABLE)), order, parameters))
    elif parameters is not None:
        unpriced.append(parameters)
    if has_no_description(tool):
        # The hard gate holds every dimension at 1: no dimension step means anything before this.
        priced.append((weighted_hundredths(scores, raised(scores, tuple(scores), VIABLE)), -1, _write_description(tool)))
    else:
        for order, dimension in enumerate(TOOL_DIMENSIONS):
            now = scores[dimension.key]
            if now >= 5 or (dimension.key == "parameter_semantics" and parameters is not None
                            and parameters.gain is not None):
                continue  # the parameter action above is that step, priced to the baseline
            # Below the minimum viable score the anchors are defects ("tautology", "no guidance"),
            # never goals: a step from there goes to 3; from 3 up, one point.
            target = max(now + 1, VIABLE)
            text = DO[dimension.key]
            if dimension.key == "purpose_clarity" and "Tautological Description" in score.flags:
                text = ("Rewrite the description so it says more than the tool's name: restating the name caps "
                        "Purpose Clarity at 2, whatever else it says")
            if dimension.key == "behavioral_transparency" and "Annotation Contradiction" in score.flags:
                text = ("Make the description agree with the declared annotations: a contradiction scores "
                        "Behavioral Transparency 1")
            after = raised(scores, (dimension.key,), target)
            hundredths = weighted_hundredths(scores, after)
            priced.append((
                hundredths, order,
                _projected(dimension.key, f"{text} ({dimension.name} {now} → {target}).", tool, after, hundredths,
                           anchor=anchor_for(dimension, target) if target > VIABLE else None,
                           dimension=dimension.key),
            ))
    if lacks_annotations(tool):
        unpriced.append(_unpriced(
            "missing-annotations",
            "Declare the MCP annotations readOnlyHint, destructiveHint, idempotentHint and openWorldHint: "
            "with them the description no longer carries the whole behavioural disclosure.", tool))
    if not score.context_signals.has_output_schema:
        unpriced.append(_unpriced(
            "no-output-schema",
            "Add an output schema, so the description need not explain return values and can spend its words "
            "elsewhere.", tool))
    ordered = [action for _, _, action in sorted(priced, key=lambda item: (-item[0], item[1]))]
    return ordered + unpriced
