-- Namespaces and selections by their recomputed rollup grade; no grade yet is 'none'.
SELECT
    coalesce(grade, 'none') AS grade,
    count(*) FILTER (WHERE owner_kind = 'provider') AS providers,
    count(*) FILTER (WHERE owner_kind = 'selection') AS selections,
    count(*) AS rollups
FROM flowmcp_rollups
GROUP BY 1
ORDER BY list_position(['A', 'B', 'C', 'D', 'F', 'REJECTED', 'none'], coalesce(grade, 'none'))
