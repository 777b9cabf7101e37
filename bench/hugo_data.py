"""Exports the data of our TDQS pages for the Hugo project, so Hugo renders the same pages.

Hugo cannot read the data directory the way our build does (validate every capture with tdqs's
models, recompute every score, run the statistics in DuckDB, derive checklists and what-ifs), so
a Hugo user would run a script like this one first. It takes the page contexts our own build
computes (`read_and_plan`) and writes them as Hugo data, which makes the comparison conservative:
Hugo is timed on rendering alone, while our build's wall time includes all of that work.

The export is what a Hugo user would write, not a dump: text that is the same on every page
(the rubric's dimension names, weights, questions and guidance; flag explanations; tier
meanings) is written once into `data/rubric.json` and looked up by the templates, the
provenance is written once per server, and everything that differs per page stays per page.

Charts are exported drawn: our pages carry each chart as SVG drawn at build time (builder.chart_svg,
no plotly.js), and Hugo has nothing to draw a Plotly figure with, so the export draws each one with
the label our template gives it and the Hugo partial places it (`{"svg": …, "label": …}`).

Links stay output paths (`servers/x/index.html`), as in our contexts: the Hugo templates turn
each into a link (`_partials/link.html`), as ours call `url()` for each.

Every TDQS page of ours has its Hugo page, from the same context: the home page, every page of
the servers list in every view, the changes page, each server's page (or its "not scored yet"
page) and the page of each of its tools (scored or not), the comparisons (the chosen one and each
scored server's with its neighbours) and the category pages (the list of categories and every page
of each category):

    assets/servers/<slug>.json   {"server": page context, "tools": [tool pages], "unscored_tools": [tool pages]}
                                 ("unscored": true for a server without a usable score)
    assets/lists/<n>.json        a page of the servers list (its path and context), but the first
    data/servers.json            the first page of the servers list (`servers/index.html`)
    data/site.json               title, nav, stand-in models, data-as-of, tier colours (every page's frame)
    assets/compare/<slug>.json   a scored server's static comparison (its path and context)
    assets/categories/<n>.json   a page of a category (its path and context)
    data/home.json, data/changes.json, data/rubric.json, data/compare.json (the chosen comparison),
    data/categories.json (the list of categories)

A servers-list row shown outside the list (the home's best servers, a category's) keeps only what
those pages show of it: its name, identity, page, tier, overall score and the cells they draw.

Run as `python -m bench.hugo_data DATA PROJECT` (the runner does, in its own process).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from tdqs import COHERENCE_DIMENSIONS, FLAGS, TIERS, TOOL_DIMENSIONS

from builder.build import read_and_plan
from builder.chart_svg import svg_chart
from builder.config import SiteConfig
from builder.pages.page import NavItem, Page
from builder.tdqs.coherence_advice import DO
from builder.tdqs.pages.server_list import COLUMNS

SERVER_TEMPLATE = "tdqs/server.html"
TOOL_TEMPLATE = "tdqs/tool.html"
UNSCORED_SERVER_TEMPLATE = "tdqs/server_unscored.html"
UNSCORED_TOOL_TEMPLATE = "tdqs/tool_unscored.html"
HOME_TEMPLATE = "tdqs/home.html"
SERVERS_TEMPLATE = "tdqs/servers.html"
CHANGES_TEMPLATE = "tdqs/changes.html"
FIRST_CHANGES_PAGE = "changes/index.html"
"""The changes pages' first page: the Hugo side draws it alone (its newest changes)."""
COMPARE_TEMPLATE = "tdqs/compare.html"
CATEGORIES_TEMPLATE = "tdqs/categories.html"
CATEGORY_TEMPLATE = "tdqs/category.html"
CHOSEN_COMPARE_PAGE = "compare/index.html"
"""The comparison a visitor chooses is the `compare` section's own page in Hugo; the static
comparisons are pages of that section."""
HEADINGS = [column.heading for column in COLUMNS[1:]]
"""The headings of a servers-list row's cells, in order (`ServerListRow.cell`)."""
ROW_CELLS = ("Overall", "Tools", "Scored")
"""The cells of a row that the home and category pages draw."""
FIRST_LIST_PAGE = "servers/index.html"
"""The servers list's first page is the `servers` section's own page in Hugo; the others are
pages of the `servers-by` section."""


def link(path: str) -> str:
    """An output path as Hugo's root-relative link: `servers/index.html` → `/servers/`."""
    if path == "index.html":
        return "/"
    if path.endswith("/index.html"):
        return "/" + path[: -len("index.html")]
    return "/" + path


def rubric() -> dict[str, Any]:
    return {
        "dimensions": {
            d.key: {"name": d.name, "weight": d.weight, "question": d.question, "guidance": d.guidance,
                    "anchors": {str(score): text for score, text in d.anchors.items()}}
            for d in TOOL_DIMENSIONS
        },
        "coherence": {
            d.key: {"name": d.name, "question": d.question, "guidance": d.guidance, "do": DO[d.key],
                    "anchors": {str(score): text for score, text in d.anchors.items()}}
            for d in COHERENCE_DIMENSIONS
        },
        "flags": {f.name: {"level": f.level, "effect": f.effect, "explanation": f.explanation} for f in FLAGS},
        "tiers": {t.tier: t.meaning for t in TIERS},
    }


def drawn(figure: dict[str, Any] | None, label: str) -> dict[str, str] | None:
    """A chart as our page shows it: the SVG chart_svg draws and its caption (None: no chart)."""
    return {"svg": svg_chart(figure, label), "label": label} if figure else None


def _drop(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in keys}


def lean_step(step: dict[str, Any]) -> dict[str, Any]:
    """A step of the server's advice; a coherence step's name, anchors, action and guidance are
    the rubric's, looked up by key and score."""
    if step["kind"] != "coherence":
        return step
    return _drop(step, "name", "anchor", "target_anchor", "do", "guidance")


def lean_server(context: dict[str, Any]) -> dict[str, Any]:
    server = dict(context)
    # Coherence names come from the rubric, looked up by key (the advice and the table both show them).
    server["coherence"] = [_drop(row, "name", "question") for row in server["coherence"]]
    server["steps"] = [lean_step(step) for step in server["steps"]]
    server["no_effect"] = [lean_step(step) for step in server["no_effect"]]
    # The captions of templates/tdqs/server.html.
    server["tools_chart"] = drawn(server["tools_chart"], f"TDQS of each tool of {server['display_name']}, worst first")
    server["history_chart"] = drawn(server["history_chart"], "Overall score across captures (values listed below)")
    return server


def lean_tool(context: dict[str, Any], provenance: dict[str, Any]) -> dict[str, Any]:
    if context["provenance"] != provenance:
        raise ValueError(f"tool {context['name']!r} has a provenance other than its server's")
    tool = _drop(context, "server_slug", "server_name", "server_identity", "provenance", "tier_meaning")
    # Anchors stay per page: which anchor a score "reached" is the build's judgement (conditional
    # baselines are not anchors), not a plain lookup.
    tool["dimensions"] = [_drop(row, "name", "weight", "question") for row in tool["dimensions"]]
    tool["flags"] = [row["name"] for row in tool["flags"]]
    # The caption of templates/tdqs/tool.html.
    tool["history_chart"] = drawn(tool["history_chart"], "TDQS across captures (values listed below)")
    # Hugo lower-cases the keys of page params (the templates read `signals.paramcount`); a map
    # whose keys are shown is exported as key-sorted pairs (the definition's `annotations` are).
    return tool


def lean_unscored_tool(context: dict[str, Any]) -> dict[str, Any]:
    """The server's name, slug and identity are its server's, given to the page beside it."""
    return _drop(context, "server_slug", "server_name", "server_identity")


def lean_row(row: dict[str, Any]) -> dict[str, Any]:
    """A servers-list row as the home and category pages show it: the cells they draw by heading
    (lower-cased: Hugo lower-cases page params' keys), not the whole row."""
    return {
        "display_name": row["display_name"], "identity": row["identity"], "page": row["page"],
        "slug": row["slug"], "reason": row.get("reason"),  # a scored row is ticked to compare (data-pick)
        "tier": row["tier"], "overall": row["overall"],
        "cell": {heading.lower(): row["cells"][HEADINGS.index(heading)] for heading in ROW_CELLS},
    }


def lean_categories(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**summary, "best": [lean_row(row) for row in summary["best"]]} for summary in summaries]


def lean_home(context: dict[str, Any]) -> dict[str, Any]:
    """The home page's data with its charts drawn, captioned as in templates/tdqs/home.html."""
    return {
        **context,
        "best": [lean_row(row) for row in context["best"]],
        "categories": lean_categories(context["categories"]),
        "tier_chart": drawn(context["tier_chart"], "Number of current tools in each tier"),
        "histogram_chart": drawn(context["histogram_chart"], "Distribution of TDQS over the current tools"),
    }


def lean_category(context: dict[str, Any]) -> dict[str, Any]:
    return {**context, "rows": [lean_row(row) for row in context["rows"]]}


def _context(page: Page) -> dict[str, Any]:
    """The page's context as JSON data (built now if the build defers it to render time)."""
    context = page.resolved() if hasattr(page, "resolved") else page.context
    return context.model_dump(mode="json")


def _write(path: Path, document: Any) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def _server_slug(page: Page) -> str:
    return page.path.split("/")[1]


def server_document(page: Page, tools: list[Page]) -> dict[str, Any]:
    """One server's Hugo data: its page's context and its tools' pages, each with its output path."""
    unscored = page.template == UNSCORED_SERVER_TEMPLATE
    context = _context(page)
    server = context if unscored else lean_server(context)
    server["path"] = page.path
    scored: list[dict[str, Any]] = []
    not_scored: list[dict[str, Any]] = []
    for tool_page in tools:
        tool = _context(tool_page)
        if tool["server_slug"] != server["slug"] or tool["server_identity"] != server["identity"]:
            raise ValueError(f"{tool_page.path} is not a tool page of {server['slug']}")
        if tool_page.template == TOOL_TEMPLATE:
            if unscored:
                raise ValueError(f"{tool_page.path}: a scored tool of a server without a score")
            scored.append({**lean_tool(tool, server["provenance"]), "path": tool_page.path})
        else:
            not_scored.append({**lean_unscored_tool(tool), "path": tool_page.path})
    return {"unscored": unscored, "server": server, "tools": scored, "unscored_tools": not_scored}


def export(data_dir: Path, project: Path, config: SiteConfig | None = None) -> dict[str, int]:
    """Writes the Hugo data for `data_dir` into `project`; returns counts for the report."""
    config = config or SiteConfig()
    # The export needs every page's context here, not in the worker processes a registry is read by.
    model = read_and_plan(data_dir, config)
    server_pages: dict[str, Page] = {}
    tool_pages: dict[str, list[Page]] = defaultdict(list)
    list_pages: list[Page] = []
    compare_pages: list[Page] = []
    category_pages: list[Page] = []
    home = changes = chosen = categories = None
    for page in (o for o in model.outputs if isinstance(o, Page)):
        if page.template in (SERVER_TEMPLATE, UNSCORED_SERVER_TEMPLATE):
            server_pages[_server_slug(page)] = page
        elif page.template in (TOOL_TEMPLATE, UNSCORED_TOOL_TEMPLATE):
            tool_pages[_server_slug(page)].append(page)
        elif page.template == HOME_TEMPLATE:
            home = lean_home(_context(page))
        elif page.template == SERVERS_TEMPLATE:
            list_pages.append(page)
        elif page.template == CHANGES_TEMPLATE and page.path == FIRST_CHANGES_PAGE:
            changes = _context(page)
        elif page.template == COMPARE_TEMPLATE:
            if page.path == CHOSEN_COMPARE_PAGE:
                chosen = _context(page)
            else:
                compare_pages.append(page)
        elif page.template == CATEGORIES_TEMPLATE:
            categories = _context(page)
            categories["categories"] = lean_categories(categories["categories"])
        elif page.template == CATEGORY_TEMPLATE:
            category_pages.append(page)
    first = next((page for page in list_pages if page.path == FIRST_LIST_PAGE), None)
    if home is None or first is None or changes is None or chosen is None or categories is None:
        raise ValueError(f"{data_dir} built no TDQS home, server list, changes, compare or categories page: "
                         "is it a TDQS data folder?")
    if set(tool_pages) - set(server_pages):
        raise ValueError(f"tool pages without their server's page: {sorted(set(tool_pages) - set(server_pages))[:5]}")
    nav: list[NavItem] = model.site["nav"]
    written = _write(project / "data" / "site.json", {
        "title": config.title,
        "nav": [{"label": item.label, "path": item.path} for item in nav],
        "stand_in_models": model.site["stand_in_models"],
        "data_as_of": model.site["data_as_of"],
    })
    written += _write(project / "data" / "rubric.json", rubric())
    written += _write(project / "data" / "home.json", home)
    written += _write(project / "data" / "changes.json", changes)
    written += _write(project / "data" / "servers.json", _context(first))
    written += _write(project / "data" / "compare.json", chosen)
    written += _write(project / "data" / "categories.json", categories)
    for page in compare_pages:
        written += _write(project / "assets" / "compare" / f"{_server_slug(page)}.json",
                          {"path": page.path, "page": _context(page)})
    for number, page in enumerate(category_pages, start=1):
        written += _write(project / "assets" / "categories" / f"{number}.json",
                          {"path": page.path, "page": lean_category(_context(page))})
    lists = 0
    for page in list_pages:
        if page is not first:
            lists += 1
            written += _write(project / "assets" / "lists" / f"{lists}.json",
                              {"path": page.path, "page": _context(page)})
    tools = unscored_tools = unscored_servers = 0
    for slug, page in server_pages.items():
        # One server at a time: contexts are built, written and dropped, so the export never
        # holds the whole registry's contexts at once.
        document = server_document(page, tool_pages.pop(slug, []))
        tools += len(document["tools"])
        unscored_tools += len(document["unscored_tools"])
        unscored_servers += document["unscored"]
        written += _write(project / "assets" / "servers" / f"{slug}.json", document)
    return {"servers": len(server_pages), "tools": tools, "unscoredServers": unscored_servers,
            "unscoredTools": unscored_tools, "listPages": len(list_pages),
            "comparePages": len(compare_pages) + 1, "categoryPages": len(category_pages) + 1, "bytes": written}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("project", type=Path)
    parser.add_argument("--summary", type=Path, help="write the counts as JSON here")
    args = parser.parse_args(argv)
    counts = export(args.data, args.project)
    if args.summary:
        args.summary.write_text(json.dumps(counts) + "\n", encoding="utf-8")
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
