"""The registry of the grading systems the site presents, each a reader → loader → pages slice.

Adding a system is adding one entry here: nothing in the build knows a system by name, and no
system knows about another, so FlowMCP or CLEO data never touches the TDQS path. The interface
the entries implement is builder.engine.grading_system; this module is the only one that imports every
system, and no system imports it.
"""

from __future__ import annotations

from builder.cleo.pages import section as cleo_pages
from builder.engine.grading_system import GradingSystem
from builder.flowmcp.pages import section as flowmcp_pages
from builder.tdqs.pages import outputs as tdqs_pages
from builder.tdqs.pages.section import read_section


def all_systems() -> list[GradingSystem]:
    """Every system, in the order its section appears in the navigation."""
    return [
        GradingSystem(
            key="tdqs",
            read=read_section,
            load=lambda con, section: section.load(con),
            outputs=tdqs_pages.outputs,
            nav=tdqs_pages.nav,
            stand_in_models=lambda corpus: corpus.stand_in_models,
            data_as_of=lambda corpus: corpus.data_as_of,
            page_dates=tdqs_pages.page_dates,
            owners=lambda section: section.owners,
            search_docs=lambda section: section.search_docs(),
        ),
        cleo_pages.system(),
        flowmcp_pages.system(),
    ]
