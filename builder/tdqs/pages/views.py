"""What the TDQS pages share: the view rows several page kinds show (provenance, history points,
definitions, sibling tools, badges, notes, scores) and the functions that fill them.

Every template of the section reads exactly one context model, defined in the module of its page
kind (home, server_list, server, tool, unscored, publish). The API
JSON of a server is generated from the same view rows.
"""

from __future__ import annotations

from typing import Any

from tdqs import TIERS, TOOL_DIMENSIONS, ToolDefinition

from builder import numbers, urls
from builder.engine.problems import Problem
from builder.pages.page import CamelView
from builder.tdqs.categories import category_slug
from builder.tdqs.models import CurrentScores as ServerScores
from builder.tdqs.pages.definitions import as_json, schema_text
from builder.tdqs.reader import Capture, Server, ToolRecord
from builder.tdqs.registry_index import current_scores

View = CamelView


class CategoryLink(View):
    """A category a server names, linking to the page ranking that category's servers."""

    name: str
    path: str


def category_links(names: list[str] | None) -> list[CategoryLink]:
    return [CategoryLink(name=name, path=urls.category_page(category_slug(name))) for name in names or []]


def titled(display_name: str, who: str) -> str:
    """A server page's title, for the browser's tab and link previews: `Bugline MCP (jdoe/bugline)`,
    so that same-named servers are told apart wherever their pages are shared."""
    return f"{display_name} ({who})"


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
    """The published scores. For the current capture the tools are counted as its coverage counts
    them, against the newest tools/list (`builder.tdqs.coverage`), so every page, the API and the
    downloads say what the server page says; index.json keeps the capture's own counts."""
    scores = current_scores(capture)
    found = capture.coverage
    if found is None:
        return scores
    return scores.model_copy(update={"tool_count": found.tool_count, "scored_tool_count": found.scored})


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


def describe_definition(definition: ToolDefinition) -> DefinitionView:
    schema = definition.input_schema or {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required: list[Any] = schema["required"] if isinstance(schema.get("required"), list) else []
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


def _overall(tier: str | None, score: float | None) -> str:
    return f"{tier} {numbers.fixed(score, 1)}" if tier is not None and score is not None else "not published"


def overall_change(before: ServerScores, after: ServerScores) -> str | None:
    """Every change of the overall score in words, with the tier change when there is one: `overall
    A 3.5 → A 3.8` inside a tier, `overall tier A → B (A 3.5 → B 3.4)` across one, and `overall tier
    A → — (A 3.5 → not published)` when coverage stops it being published. None when it stayed."""
    if (before.overall_tier, before.overall_score) == (after.overall_tier, after.overall_score):
        return None
    scores = f"{_overall(before.overall_tier, before.overall_score)} → {_overall(after.overall_tier, after.overall_score)}"
    if before.overall_tier == after.overall_tier:
        return f"overall {scores}"
    return f"overall tier {before.overall_tier or '—'} → {after.overall_tier or '—'} ({scores})"


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
            overall = overall_change(server_scores(previous), scores)
            if overall:
                changes.insert(0, overall)
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


class ProblemFileLink(View):
    """One of a server's input files with a problem, and the stable address of its problems."""

    file: str
    path: str


def problem_links(files: list[str]) -> list[ProblemFileLink]:
    """`files`, in order, each linked to where the data problems pages list its problems
    (urls.problem_file_page: the same address whichever page holds it in a build)."""
    return [ProblemFileLink(file=file, path=urls.problem_file_page(file)) for file in files]


def notes_for(problems: list[Problem], prefix: str = "") -> list[Note]:
    return [
        Note(json_path=p.json_path, reason=p.reason)
        for p in problems
        if not prefix or p.json_path == prefix or p.json_path.startswith((prefix + ".", prefix + "["))
    ]


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



PASS_LINE = (next(float(t.minimum) for t in TIERS if t.tier == "B" and t.minimum is not None), "passing bar (B)")
"""Where tdqs's rubric puts "adequate, the passing bar" (tier B's minimum), as a histogram draws it."""
