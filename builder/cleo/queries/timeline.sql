-- Every gradable run over time, for the scores-over-time chart: all runs, not only current ones,
-- so a session graded repeatedly shows its trend. Runs without audit entries are not plotted.
SELECT
    r.graded_at,
    r.session_id,
    r.run_key,
    100 * g.share AS percent,
    g.grade
FROM cleo_runs AS r
JOIN cleo_run_grades AS g USING (run_key)
WHERE r.gradable
ORDER BY r.graded_at, r.session_id, r.seq;
