-- The letter grade of every CLEO run: the letter of the highest threshold its share of maxScore
-- reaches (F's threshold is 0). A run that is not gradable (no audit entries) has no letter.
-- totalScore is by definition the sum of the dimension scores, so a run is graded from that sum
-- (dimension_total); a stored totalScore that disagrees is shown beside it and reported.
-- The one place a letter is computed: every page, statistic and API row reads this view.
CREATE OR REPLACE VIEW cleo_run_grades AS
SELECT
    r.run_key,
    r.dimension_total / r.max_score AS share,
    CASE WHEN r.gradable THEN (
        SELECT s.letter
        FROM cleo_grade_scale AS s
        WHERE r.dimension_total / r.max_score >= s.min_share
        ORDER BY s.min_share DESC, s.position
        LIMIT 1
    ) END AS grade
FROM cleo_runs AS r;
