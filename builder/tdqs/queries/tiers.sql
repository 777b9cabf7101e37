-- Tier distribution of the current tools, as counts (the caller makes the exact shares); tiers
-- with no tool are filled in by the caller.
SELECT tier, count(*) AS count
FROM tdqs_tools
WHERE is_current
GROUP BY tier
ORDER BY tier;
