"""The DuckDB store: every grading system's records as tables, so statistics are SQL."""
