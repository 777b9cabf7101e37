-- How many graded sessions (by their current run) hold each letter, every letter listed even
-- when none does, with the number of graded sessions (the caller makes the exact share). Sessions without audit entries have no letter and are not in the distribution.
WITH graded AS (
    SELECT g.grade
    FROM cleo_runs AS r
    JOIN cleo_run_grades AS g USING (run_key)
    WHERE r.is_current AND r.gradable
)
SELECT
    s.letter AS grade,
    s.min_share,
    count(graded.grade) AS sessions,
    (SELECT count(*) FROM graded) AS graded
FROM cleo_grade_scale AS s
LEFT JOIN graded ON graded.grade = s.letter
GROUP BY s.position, s.letter, s.min_share
ORDER BY s.position;
