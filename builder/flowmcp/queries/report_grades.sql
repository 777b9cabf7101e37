-- Current Scoring Protocol v1 reports by recomputed grade, with how many state another grade.
SELECT
    grade,
    count(*) AS reports,
    count(*) FILTER (WHERE stored_grade <> grade) AS stored_differently,
    count(*) FILTER (WHERE NOT validation_passed) AS failed_validation
FROM flowmcp_reports
WHERE is_current
GROUP BY grade
ORDER BY list_position(['A', 'B', 'C', 'D', 'F'], grade)
