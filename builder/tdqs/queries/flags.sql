-- How many current tools carry each flag (tool flags and server flags alike).
WITH current_tools AS (SELECT * FROM tdqs_tools WHERE is_current),
flagged AS (
    SELECT DISTINCT server_id, tool_name, unnest(list_concat(flags, server_flags)) AS flag
    FROM current_tools
)
SELECT flag, count(*) AS count
FROM flagged
GROUP BY flag
ORDER BY flag;
