-- Rollup statuses (operational, partial, blocked, pending, rejected) of namespaces and selections.
SELECT
    status,
    count(*) FILTER (WHERE owner_kind = 'provider') AS providers,
    count(*) FILTER (WHERE owner_kind = 'selection') AS selections,
    count(*) AS rollups
FROM flowmcp_rollups
GROUP BY status
ORDER BY list_position(['operational', 'partial', 'blocked', 'pending', 'rejected'], status)
