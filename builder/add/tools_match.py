"""A tools/list filed beside a ScoreReport must be the one it scored: it names every tool the
report scored (tdqs scores every tool of the list it is given; a list with more tools, captured
later, is still the server's).

An operator who passes another server's tools/list with `--tools` would otherwise publish all of
its tools as "not scored yet" on the wrong server; one that shares a tool or two with the report
(1 of 27) is as wrong, and would also have the server's coverage counted against it. The build only warns about such a pair (it may
already be in a data folder: `scorecards check` lists it); `add`, the moment the pair is made,
refuses it. Both ask the same question of the reader's capture (`Capture.foreign_tools_list`).
"""

from __future__ import annotations

from pathlib import Path

from builder.add.plan import AddError
from builder.tdqs.reader import Capture, foreign_tools_reason


def refuse_foreign_tools(capture: Capture, report: Path, tools: Path) -> None:
    """AddError naming the tools/list when it lacks a tool of the report it goes beside."""
    if not capture.foreign_tools_list:
        return
    reason = foreign_tools_reason(capture, str(report))
    if capture.shares_no_tool:
        raise AddError(tools, "$.tools", f"{reason}: it looks like another server's tools/list; give the one this "
                       "report scored")
    raise AddError(tools, "$.tools", f"{reason}: the tools/list beside a report must be the one it scored, which "
                   "names every tool the report scored; give that one")
