"""A TDQS server's embeddable card (builder.publish.cards): its grade and overall score, the figures
behind them (tool definition quality, coherence, how many tools are scored) and the day they were
scored, drawn beside its scorecard at `servers/<server>/card.svg`; and the Markdown and HTML a
maintainer pastes into a README to show it, on the server's page next to the badge's."""

from __future__ import annotations

from builder import numbers, urls
from builder.config import SiteConfig
from builder.dates import day_words
from builder.pages.page import DataFile
from builder.publish.card_view import CardView, card_view
from builder.publish.cards import Card, Figure
from builder.tdqs.identity import identity
from builder.tdqs.pages.publish import badge_label
from builder.tdqs.pages.views import server_scores
from builder.tdqs.reader import STAND_IN_PREFIX, Server

UNPUBLISHED = "not published: coverage below 80%"


def _graded(tier: str | None, score: float | None) -> str:
    return f"{tier} {numbers.fixed(score)}" if tier and score is not None else "not published"


def server_card(server: Server) -> Card:
    """The card of the server's current capture: the scores its page shows, counted as its page counts them."""
    capture = server.current
    scores = server_scores(capture)
    coverage = capture.coverage
    more = coverage is not None and coverage.more_than_the_server_has
    tools = f"{scores.scored_tool_count}" if more else f"{scores.scored_tool_count} of {scores.tool_count}"
    published = scores.coverage_ok and scores.overall_score is not None
    return Card(
        system="TDQS",
        name=server.display_name,
        identity=identity(server.server_id, server.meta.repository_url).label,
        tier=scores.overall_tier if published else None,
        score=numbers.fixed(scores.overall_score) if published else None,
        figures=(
            Figure("Tool definitions", _graded(scores.description_quality_tier, scores.description_quality_score)),
            Figure("Coherence", _graded(scores.coherence_tier, scores.coherence_score)),
            Figure("Tools scored", tools),
        ),
        scored=day_words(capture.generated_at),
        no_grade=UNPUBLISHED,
        note="stand-in" if (capture.report.model or "").startswith(STAND_IN_PREFIX) else None,
    )


def server_card_view(server: Server, config: SiteConfig) -> CardView:
    """The card on the server's page; its snippets say whose scorecard it is, and a stand-in's says so."""
    page = urls.server_page(server.slug)
    return card_view(page, f"{badge_label(server.current)} scorecard of {server.display_name}", config)


def card_file(server: Server) -> DataFile:
    """The card's SVG, drawn when it is written, kept by the server's digest as its page is."""
    return DataFile(urls.card_file(urls.server_page(server.slug)), lambda: server_card(server).svg(), key=server.digest)
