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

    assets/servers/<slug>.json   {"server": server page context, "tools": [tool page contexts]}
    data/site.json               title, nav, stand-in models, data-as-of (every page's frame)
    data/home.json, data/servers.json, data/rubric.json

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

import builder.pages.tdqs_section
from builder.build import read_and_plan
from builder.chart_svg import svg_chart
from builder.config import SiteConfig
from builder.pages.page import NavItem, Page

SERVER_TEMPLATE = "tdqs/server.html"
TOOL_TEMPLATE = "tdqs/tool.html"
HOME_TEMPLATE = "tdqs/home.html"
SERVERS_TEMPLATE = "tdqs/servers.html"


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
            d.key: {"name": d.name, "question": d.question,
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


def lean_server(context: dict[str, Any], path: str) -> dict[str, Any]:
    server = dict(context)
    server["path"] = link(path)
    server["coherence"] = [_drop(row, "name", "question") for row in server["coherence"]]
    # The captions of templates/tdqs/server.html.
    server["tools_chart"] = drawn(server["tools_chart"], f"TDQS of each tool of {server['display_name']}, worst first")
    server["history_chart"] = drawn(server["history_chart"], "Overall score across captures (values listed below)")
    return server


def lean_tool(context: dict[str, Any], provenance: dict[str, Any]) -> dict[str, Any]:
    if context["provenance"] != provenance:
        raise ValueError(f"tool {context['name']!r} has a provenance other than its server's")
    tool = _drop(context, "server_slug", "server_name", "provenance", "tier_meaning")
    # Anchors stay per page: which anchor a score "reached" is the build's judgement (conditional
    # baselines are not anchors), not a plain lookup.
    tool["dimensions"] = [_drop(row, "name", "weight", "question") for row in tool["dimensions"]]
    tool["flags"] = [row["name"] for row in tool["flags"]]
    tool["steps"] = [_drop(row, "name", "weight", "guidance") for row in tool["steps"]]
    # The caption of templates/tdqs/tool.html.
    tool["history_chart"] = drawn(tool["history_chart"], "TDQS across captures (values listed below)")
    # Hugo lower-cases the keys of page params (the templates read `signals.paramcount`), so a
    # map whose keys are shown becomes key-sorted pairs (what ours gets from `dictsort`).
    if tool["definition"] is not None and tool["definition"]["annotations"] is not None:
        tool["definition"] = {**tool["definition"], "annotations": sorted(tool["definition"]["annotations"].items())}
    return tool


def lean_home(context: dict[str, Any]) -> dict[str, Any]:
    """The home page's data with its charts drawn, captioned as in templates/tdqs/home.html."""
    return {
        **context,
        "tier_chart": drawn(context["tier_chart"], "Number of current tools in each tier"),
        "dimension_chart": drawn(context["dimension_chart"], "Mean score of each dimension, 1 to 5"),
        "histogram_chart": drawn(context["histogram_chart"], "Distribution of TDQS over the current tools"),
    }


def _context(page: Page) -> dict[str, Any]:
    """The page's context as JSON data (built now if the build defers it to render time)."""
    context = page.resolved() if hasattr(page, "resolved") else page.context
    return context.model_dump(mode="json")


def _write(path: Path, document: Any) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def export(data_dir: Path, project: Path, config: SiteConfig | None = None) -> dict[str, int]:
    """Writes the Hugo data for `data_dir` into `project`; returns counts for the report."""
    config = config or SiteConfig()
    # The export needs every page's context here, not in the worker processes a registry is read by.
    builder.pages.tdqs_section.OWNED_FROM = sys.maxsize
    model = read_and_plan(data_dir, config)
    server_pages: dict[str, Page] = {}
    tool_pages: dict[str, list[Page]] = defaultdict(list)
    home = listing = None
    for page in (o for o in model.outputs if isinstance(o, Page)):
        if page.template == SERVER_TEMPLATE:
            server_pages[page.path.split("/")[1]] = page
        elif page.template == TOOL_TEMPLATE:
            tool_pages[page.path.split("/")[1]].append(page)
        elif page.template == HOME_TEMPLATE:
            home = lean_home(_context(page))
        elif page.template == SERVERS_TEMPLATE:
            listing = _context(page)
    if home is None or listing is None:
        raise ValueError(f"{data_dir} built no TDQS home or server list: is it a TDQS data folder?")
    nav: list[NavItem] = model.site["nav"]
    written = _write(project / "data" / "site.json", {
        "title": config.title,
        "nav": [{"label": item.label, "link": link(item.path)} for item in nav],
        "stand_in_models": model.site["stand_in_models"],
        "data_as_of": model.site["data_as_of"],
    })
    written += _write(project / "data" / "rubric.json", rubric())
    written += _write(project / "data" / "home.json", home)
    written += _write(project / "data" / "servers.json", listing)
    tools = 0
    for slug, page in server_pages.items():
        # One server at a time: contexts are built, written and dropped, so the export never
        # holds the whole registry's contexts at once.
        server = lean_server(_context(page), page.path)
        entries = []
        for tool_page in tool_pages[slug]:
            context = _context(tool_page)
            if context["server_slug"] != server["slug"]:
                raise ValueError(f"{tool_page.path} is not a tool page of {server['slug']}")
            entries.append({**lean_tool(context, server["provenance"]), "path": link(tool_page.path)})
        tools += len(entries)
        written += _write(project / "assets" / "servers" / f"{slug}.json", {"server": server, "tools": entries})
    return {"servers": len(server_pages), "tools": tools, "bytes": written}


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
