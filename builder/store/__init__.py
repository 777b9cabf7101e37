"""The DuckDB store: the tables every grading system loads its records into (`tables`, `spool`), so
statistics are SQL, and the runner of SQL files (`queries`). Each system's tables and SQL are in its
package (builder.tdqs, builder.flowmcp, builder.cleo)."""
