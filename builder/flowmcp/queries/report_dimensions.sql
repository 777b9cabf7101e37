-- Per dimension of the current reports (whenToUse and parameters first): how many, and every score,
-- for the mean and lowest the statistics take in exact arithmetic (builder.flowmcp.pages.stats).
SELECT
    d.dimension,
    count(*) AS reports,
    list(d.score ORDER BY d.file) AS scores,
    count(*) FILTER (WHERE d.score < 3.5) AS below_b
FROM flowmcp_report_dimensions AS d
WHERE d.is_current
GROUP BY d.dimension
ORDER BY coalesce(list_position(['whenToUse', 'parameters'], d.dimension), 99), d.dimension
