-- FlowMCP at a glance: how much was read, how much of it counts, and how much index.json disagrees.
SELECT
    (SELECT count(*) FROM flowmcp_rollups WHERE owner_kind = 'provider') AS providers,
    (SELECT count(*) FROM flowmcp_rollups WHERE owner_kind = 'selection') AS selections,
    (SELECT count(*) FROM flowmcp_entries) AS grading_files,
    (SELECT count(*) FROM flowmcp_entries WHERE NOT valid) AS rejected_files,
    (SELECT count(*) FROM flowmcp_entries WHERE is_current AND valid) AS current_entries,
    (SELECT count(*) FROM flowmcp_answers WHERE is_current) AS current_answers,
    (SELECT count(*) FROM flowmcp_entries
        WHERE valid AND stored_grade IS DISTINCT FROM coalesce(grade, 'none')) AS entries_differing,
    (SELECT coalesce(sum(differences), 0) FROM flowmcp_rollups) AS index_differences,
    (SELECT count(*) FROM flowmcp_reports WHERE is_current) AS reports
