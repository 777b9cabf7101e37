"""TDQS: captures of a server (tdqs ScoreReports, optionally with the tools/list they scored),
validated with tdqs's own models and re-checked with tdqs's own arithmetic.

The whole system in one package: its reader (`reader`, `layout`, `models`, `registry_index`,
`unscored`, `input_hash`, `recompute`), its tables (`store`), its SQL (`queries`) and statistics
(`stats`), its page kinds (`pages`), and what only it publishes or advises (`bulk`, `checklist`,
`server_advice`).
"""
