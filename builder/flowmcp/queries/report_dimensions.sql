-- Per dimension of the current reports (whenToUse and parameters first): count, mean, lowest.
SELECT
    d.dimension,
    count(*) AS reports,
    round(avg(d.score), 6) AS mean,
    min(d.score) AS lowest,
    count(*) FILTER (WHERE d.score < 3.5) AS below_b
FROM flowmcp_report_dimensions AS d
WHERE d.is_current
GROUP BY d.dimension
ORDER BY coalesce(list_position(['whenToUse', 'parameters'], d.dimension), 99), d.dimension
