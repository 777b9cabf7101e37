-- Counts for the CLEO section. Averages are over graded sessions, one vote per session (its
-- current run); sessions without audit entries are counted apart and kept out of every mean. The
-- mean share is taken by the caller from each session's total and maximum, exactly.
SELECT
    count(DISTINCT session_slug) AS sessions,
    count(*) FILTER (WHERE is_current AND gradable) AS graded_sessions,
    count(*) FILTER (WHERE is_current AND NOT gradable) AS ungradable_sessions,
    count(*) AS runs,
    count(*) FILTER (WHERE gradable) AS gradable_runs,
    count(*) FILTER (WHERE synthetic) AS synthetic_runs,
    list(dimension_total ORDER BY run_key) FILTER (WHERE is_current AND gradable) AS totals,
    list(max_score ORDER BY run_key) FILTER (WHERE is_current AND gradable) AS maxima,
    min(graded_at) AS first_graded_at,
    max(graded_at) AS last_graded_at
FROM cleo_runs;
