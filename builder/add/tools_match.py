"""A tools/list filed beside a ScoreReport must be the one it scored: at least one tool in common.

An operator who passes another server's tools/list with `--tools` would otherwise publish all of
its tools as "not scored yet" on the wrong server. The build only warns about such a pair (it may
already be in a data folder: `scorecards check` lists it); `add`, the moment the pair is made,
refuses it. Both ask the same question of the reader's capture (`Capture.foreign_tools_list`).
"""

from __future__ import annotations

from pathlib import Path

from builder.add.plan import AddError
from builder.tdqs.reader import Capture, foreign_tools_reason


def refuse_foreign_tools(capture: Capture, report: Path, tools: Path) -> None:
    """AddError naming the tools/list when it shares no tool with the report it goes beside."""
    if capture.foreign_tools_list:
        raise AddError(tools, "$.tools", f"{foreign_tools_reason(capture, str(report))}: "
                       "it looks like another server's tools/list; give the one this report scored")
