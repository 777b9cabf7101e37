-- Each rubric dimension over graded sessions (their current runs), in the rubric's order: how many,
-- and every score and maximum, which the caller sums exactly (builder.cleo.pages.stats). Sessions
-- without audit entries store 0 everywhere and are left out.
SELECT
    d.dimension,
    count(*) AS sessions,
    list(d.score ORDER BY d.run_key) AS scores,
    list(d.max ORDER BY d.run_key) AS maxima
FROM cleo_dimensions AS d
JOIN cleo_runs AS r USING (run_key)
WHERE r.is_current AND r.gradable
GROUP BY d.position, d.dimension
ORDER BY d.position;
