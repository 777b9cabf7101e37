-- The mean score of each rubric dimension over graded sessions (their current runs), in the
-- rubric's order. Sessions without audit entries store 0 everywhere and are left out.
SELECT
    d.dimension,
    count(*) AS sessions,
    avg(d.score) AS mean_score,
    avg(d.max) AS mean_max,
    avg(d.score / d.max) AS mean_share
FROM cleo_dimensions AS d
JOIN cleo_runs AS r USING (run_key)
WHERE r.is_current AND r.gradable
GROUP BY d.position, d.dimension
ORDER BY d.position;
