"""The registry of the grading systems the site presents, each a reader → loader → pages slice.

Adding a system is adding one entry here: nothing in the build knows a system by name, and no
system knows about another, so FlowMCP or CLEO data never touches the TDQS path. The interface
the entries implement is builder.engine.grading_system, each in its section's `system()`; this
module is the only one that imports every system, and no system imports it.
"""

from __future__ import annotations

from builder.cleo.pages import section as cleo
from builder.engine.grading_system import GradingSystem
from builder.flowmcp.pages import section as flowmcp
from builder.tdqs.pages import section as tdqs


def all_systems() -> list[GradingSystem]:
    """Every system, in the order its section appears in the navigation."""
    return [tdqs.system(), cleo.system(), flowmcp.system()]
