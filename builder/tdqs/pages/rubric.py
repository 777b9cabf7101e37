"""The rubric page, written as Markdown from tdqs's own metadata and rendered by markdown-it-py.

Nothing here re-types the rubric: dimensions, weights, questions, anchors, guidance, tiers, flags
and lint rules are read from `tdqs`, so the page changes when the package does.
"""

from __future__ import annotations

from tdqs import COHERENCE_DIMENSIONS, FLAGS, LINT_RULES, SPEC_VERSION, TIERS, TOOL_DIMENSIONS

from builder.pages.page import Page, PageContext
from builder.urls import RUBRIC


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def rubric_markdown() -> str:
    lines = [
        f"TDQS {SPEC_VERSION} scores a tool **definition** (what an MCP client sees from `tools/list`) on six "
        "dimensions, 1–5 each. The tool's TDQS is their weighted sum, rounded half-up to one decimal in "
        "exact integer arithmetic.",
        "",
        "## Tool dimensions",
        "",
        "| Dimension | Weight | Question |",
        "| --- | ---: | --- |",
    ]
    lines += [f"| {d.name} | {d.weight}% | {_cell(d.question)} |" for d in TOOL_DIMENSIONS]
    for d in TOOL_DIMENSIONS:
        lines += ["", f"### {d.name} ({d.weight}%)", "", _cell(d.guidance), ""]
        if d.anchors:
            lines += [f"- **{score}**: {_cell(text)}" for score, text in sorted(d.anchors.items(), reverse=True)]
        else:
            lines += ["The specification gives prose guidance rather than per-point anchors for this dimension."]
    lines += ["", "## Tiers", "", "The same mapping applies to every score: tool TDQS, description quality, "
              "coherence and overall.", "", "| Tier | Lower bound | Meaning |", "| --- | ---: | --- |"]
    lines += [
        f"| {t.tier} | {'≥ ' + format(t.minimum, '.1f') if t.minimum is not None else '< 1.0'} | {t.meaning} |"
        for t in TIERS
    ]
    lines += ["", "## Flags and smells", "", "A **smell** is any dimension scoring below 3. **Flags** mark "
              "categorical defects:", "", "| Flag | Level | Raised by | Effect |", "| --- | --- | --- | --- |"]
    lines += [f"| {f.name} | {f.level} | {_cell(f.source)} | {_cell(f.effect)} |" for f in FLAGS]
    lines += [
        "", "## Server scores", "",
        "```",
        "descriptionQualityScore = round1(0.6 × mean(TDQS) + 0.4 × min(TDQS))",
        "coherenceScore          = round1((disambiguation + namingConsistency",
        "                                  + toolCountAppropriateness + completeness) / 4)",
        "overallScore            = round1(0.7 × descriptionQualityScore + 0.3 × coherenceScore)",
        "```",
        "",
        "Description quality is published only once at least 80% of a server's tools are scored. The 40% "
        "weight on the minimum makes one bad tool visible: an agent sees every tool at once.",
        "", "### Coherence dimensions", "",
    ]
    for coherence in COHERENCE_DIMENSIONS:
        lines += ["", f"#### {coherence.name}", "", f"*{_cell(coherence.question)}* {_cell(coherence.guidance)}", ""]
        lines += [f"- **{score}**: {_cell(text)}" for score, text in sorted(coherence.anchors.items(), reverse=True)]
    lines += [
        "", "## How the figures are computed", "",
        "The home page and `api/stats.json` are computed from the stored scores of every server's current tools.",
        "",
        f"- **Tier F.** {_plain_f()}",
        "- **Median and quartiles.** The median is the score half of the tools reach; the quartiles are the "
        "scores a quarter and three quarters of them reach. Where one of these falls between two tools' scores, "
        "it is taken proportionally between them (linear interpolation between the two nearest ranks: DuckDB's "
        "`quantile_cont`, Hyndman & Fan's type 7, numpy's default), over the scores in exact tenths.",
        "- **Shares** count current tools, or servers for server figures; a server below 80% coverage counts "
        "in no description-quality or overall figure.",
    ]
    lines += [
        "", "## Where each figure comes from", "",
        "A scorecard's first line gives what its capture says: when it was scored, by which model, under which "
        "rubric version. Its last line gives the scoring and grading system versions (the capture's server.json's "
        "when it names them, else derived by this site from the rubric version) and the `inputHash` of the "
        "definition that was scored. Every score, tier and rollup is recomputed by this site from the stored "
        "dimension scores with tdqs's exact integer arithmetic; where the capture states a different figure, the "
        "page shows it beside as \"stated in the capture\".",
    ]
    lines += ["", "## Deterministic checks", "", "These need no model; every scorecard lists the ones that apply.",
              "", "| Check | Severity | From |", "| --- | --- | --- |"]
    lines += [f"| {_cell(r.summary)} | {r.severity} | {_cell(r.source)} |" for r in LINT_RULES]
    return "\n".join(lines) + "\n"


def _plain_f() -> str:
    """What tier F is, in plain words: tdqs calls it a "reserved guard tier"."""
    guard = next(t for t in TIERS if t.minimum is None)
    lowest = min(t.minimum for t in TIERS if t.minimum is not None)
    return (f"Tier {guard.tier} is below every other: it is kept for scores under {lowest:.1f}, which the rubric's "
            f"arithmetic never gives (every dimension scores at least 1), so no tool or server is graded {guard.tier} "
            f"today. The specification calls it a \"{_cell(guard.meaning)}\".")


class RubricContext(PageContext):
    markdown: str
    """Written by this project from tdqs's metadata; rendered with the trusted Markdown filter."""


def rubric_page() -> Page:
    return Page(
        RUBRIC,
        "rubric.html",
        RubricContext(
            title=f"The TDQS {SPEC_VERSION} rubric",
            description="How tools and servers are scored: dimensions, weights, anchors, tiers, flags and formulas.",
            markdown=rubric_markdown(),
        ),
    )
