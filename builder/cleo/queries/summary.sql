-- Counts for the CLEO section. Averages are over graded sessions, one vote per session (its
-- current run); sessions without audit entries are counted apart and kept out of every mean.
SELECT
    count(DISTINCT session_slug) AS sessions,
    count(*) FILTER (WHERE is_current AND gradable) AS graded_sessions,
    count(*) FILTER (WHERE is_current AND NOT gradable) AS ungradable_sessions,
    count(*) AS runs,
    count(*) FILTER (WHERE gradable) AS gradable_runs,
    count(*) FILTER (WHERE synthetic) AS synthetic_runs,
    avg(dimension_total / max_score) FILTER (WHERE is_current AND gradable) AS mean_share,
    min(graded_at) AS first_graded_at,
    max(graded_at) AS last_graded_at
FROM cleo_runs;
