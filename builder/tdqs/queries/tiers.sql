-- Tier distribution of the current tools; tiers with no tool are filled in by the caller.
SELECT tier, count(*) AS count, count(*) / sum(count(*)) OVER () AS share
FROM tdqs_tools
WHERE is_current
GROUP BY tier
ORDER BY tier;
