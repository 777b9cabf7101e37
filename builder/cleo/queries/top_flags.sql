-- The most frequent flags among graded sessions (current runs, one vote per session). Flags of
-- one rubric rule count together ("tasks.add without description (taskId: T1)" and "(… T2)");
-- a flag the rubric table does not know counts by its exact text.
-- Parameter: $limit, how many to list.
SELECT
    f.rule,
    CASE WHEN f.rule IS NULL THEN f.flag END AS unknown_flag,
    count(DISTINCT f.run_key) AS sessions,
    count(*) AS occurrences
FROM cleo_flags AS f
JOIN cleo_runs AS r USING (run_key)
WHERE r.is_current AND r.gradable
GROUP BY ALL
ORDER BY sessions DESC, occurrences DESC, rule NULLS LAST, unknown_flag
LIMIT $limit;
