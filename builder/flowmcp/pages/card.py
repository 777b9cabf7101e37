"""A FlowMCP namespace's embeddable card (builder.publish.cards): its grade (a letter: FlowMCP's
grades have no score), the figures behind it (the rollup's status, how many of its tools are
stable, how many schemas it has) and when its index was last updated, beside its page at
`providers/<namespace>/card.svg`. A rejected namespace, or one with no grade yet, says so; grades
of a stand-in model say "stand-in" on the chip, as the page says "Stand-in scores"."""

from __future__ import annotations

from builder import urls
from builder.config import SiteConfig
from builder.dates import day_words
from builder.flowmcp.pages.views import entry_models
from builder.flowmcp.reader import STAND_IN_PREFIX
from builder.flowmcp.records import Rollup
from builder.flowmcp.rules import LETTERS
from builder.pages.page import DataFile
from builder.publish.card_view import CardView, card_view
from builder.publish.cards import Card, Figure


def provider_card(rollup: Rollup) -> Card:
    tools = [n for n in rollup.nodes if n.kind == "tool"]
    schemas = [n for n in rollup.nodes if n.kind == "schema"]
    letter = rollup.grade if rollup.grade in LETTERS else None
    return Card(
        system="FlowMCP",
        name=rollup.name,
        identity="namespace",
        tier=letter,
        score=None,
        figures=(
            Figure("Status", rollup.status),
            Figure("Tools stable", f"{sum(1 for t in tools if t.status == 'stable')} of {len(tools)}"),
            Figure("Schemas", str(len(schemas))),
        ),
        scored=day_words(rollup.updated_at) if rollup.updated_at else None,
        no_grade="rejected" if rollup.grade == "REJECTED" else "no grade yet",
        made="updated",
        note="stand-in" if any(model.startswith(STAND_IN_PREFIX) for model in entry_models(rollup.entries)) else None,
    )


def provider_card_file(rollup: Rollup) -> DataFile:
    return DataFile(urls.card_file(urls.flowmcp_provider_page(rollup.slug)), lambda: provider_card(rollup).svg())


def provider_card_view(rollup: Rollup, config: SiteConfig) -> CardView:
    label = "FlowMCP (stand-in)" if provider_card(rollup).note else "FlowMCP"
    return card_view(urls.flowmcp_provider_page(rollup.slug), f"{label} scorecard of namespace {rollup.name}", config)
