-- Node statuses (pending, blocked, graded, stable, rejected): tools, schemas, about, skills, members.
-- The rollup vocabulary is counted separately (flowmcp_rollup_statuses.sql): the two never mix.
SELECT
    status,
    count(*) FILTER (WHERE owner_kind = 'provider') AS provider_nodes,
    count(*) FILTER (WHERE owner_kind = 'selection') AS selection_nodes,
    count(*) AS nodes
FROM flowmcp_nodes
GROUP BY status
ORDER BY list_position(['pending', 'blocked', 'graded', 'stable', 'rejected'], status)
