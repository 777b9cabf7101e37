-- Answers of the current entries that do not count toward their entry's mean, and why:
-- n/a (with its closed-set naReason), stale (aged out), superseded (a newer answer to the same
-- question), or weight 0.
SELECT
    left_out AS why,
    na_reason,
    count(*) AS answers,
    count(DISTINCT file) AS entries
FROM flowmcp_answers
WHERE is_current AND left_out IS NOT NULL
GROUP BY left_out, na_reason
ORDER BY answers DESC, why, na_reason NULLS FIRST
