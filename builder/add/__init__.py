"""`scorecards add DATA FILE…`: files grading results where the build will read them.

An operator has a tdqs ScoreReport called `report.json`, a FlowMCP grading entry, a Scoring
Protocol v1 report or CLEO's GRADES.jsonl; the data folder's layout (docs/data-format*.md) is the
build's business, not theirs. `add` reads each file's kind from its content (`detect`), works out
where it belongs (each grading system's `add` module: its `AddKind`s, builder.engine.adding), and
validates it with the build's own readers on a staged copy laid out exactly as it will be filed, so a file `add` accepts is
a file the build accepts. Everything is planned and checked before anything is written (`write`):
a broken file, or a different file already at the same name, writes nothing at all.
"""

from builder.add.run import add_files
from builder.engine.adding import AddError, Filing

__all__ = ["AddError", "Filing", "add_files"]
