"""One reader per grading system. Each turns files under the data directory into validated records
and problems; none of them knows about DuckDB, pages or each other."""
