"""TDQS: captures of a server (tdqs ScoreReports, optionally with the tools/list they scored),
validated with tdqs's own models and re-checked with tdqs's own arithmetic."""
