"""`scorecards diff`: what merging a pull request does to the published scores.

Two builds are compared through what every build publishes (its manifest and its API), never
through the builder's memory of them, so a base may be a build folder, a GitHub Pages tar or the
published site's URL, and a data folder is built first:

- `read`: a build wherever it is, its grading systems, and the API files two builds differ in.
- `tdqs`: the TDQS servers' changes (tier moves, overall and tool scores, coverage, smells, flags).
- `grades`: the FlowMCP and CLEO grades that changed.
- `model`: the comparison as one value, the same for the same two builds.
- `markdown` and `json`: the comparison for people (a job summary) and for tools.
- `annotate`: one workflow command on each data file whose capture changed a score.
- `budgets`: what a pull request may not do (scorecards.toml `[budgets]`), and which it did.

Exit codes (`CODES`) let a workflow tell the failures apart.
"""

from __future__ import annotations

CODES = {
    "compared": 0,
    "build-failed": 1,
    "usage": 2,
    "not-a-build": 3,
    "mixed-systems": 4,
    "bad-budgets": 5,
    "budget-failed": 6,
}
"""0 compared (and no budget failed); 1 a data folder could not be built (a full disk); 2 a bad
argument (as every command); 3 BASE or HEAD is not a build (no manifest, a manifest cut short, a
file that is not what the manifest lists, a site that does not answer); 4 the two builds grade
different systems (nothing in common to compare); 5 the settings file's budgets cannot be used (an
unknown key, a value of the wrong type); 6 a budget failed."""
