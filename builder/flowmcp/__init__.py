"""FlowMCP: Grading-Spec trees (`grading-data/`, gradingSpec/2.0.x) and Scoring Protocol v1 reports
(`scoring-reports/`).

The Grading-Spec says index.json is derived data, so nothing here trusts it: every grading entry is
validated against the spec's JSON Schema (re-typed as pydantic models, with the spec's error codes),
its grade is recomputed with gradingSystem/1.0.0, and every namespace and selection is rolled up
again from its entries. The stored index.json is kept only to be compared with, and every
disagreement becomes a warning that shows both values.

The whole system in one package: its reader (`reader`, with `layout`, `models`, `entries`, `tree`,
`rollup`, `reports` …), its tables (`store`), its SQL (`queries`) and its page kinds (`pages`).
"""

SYSTEM = "flowmcp"
"""The key of the system in problems, tables (`flowmcp_…`) and the navigation."""
