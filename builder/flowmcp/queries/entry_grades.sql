-- Current grading entries (the newest valid file of each node) by the grade recomputed for them.
-- No grade (nothing counts toward the mean, or a partial grading without a full one) is 'pending'.
SELECT
    coalesce(grade, 'pending') AS grade,
    count(*) FILTER (WHERE tier = 'autonomous') AS autonomous,
    count(*) FILTER (WHERE tier = 'group-bound') AS group_bound,
    count(*) AS entries
FROM flowmcp_entries
WHERE is_current AND valid
GROUP BY 1
ORDER BY list_position(['A', 'B', 'C', 'D', 'F', 'REJECTED', 'pending'], coalesce(grade, 'pending'))
