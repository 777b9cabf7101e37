-- Per area, over the current valid entries: how many there are, how many have a weighted mean,
-- and every such mean exactly (`p/q` text), for the mean, lowest and highest the statistics take
-- in exact arithmetic (builder.flowmcp.pages.stats). Vetoed entries are counted but left out of the
-- means (a veto replaces the grade), and so are partial gradings (their answers are a subset, and
-- their grade is the last full grading's).
SELECT
    area,
    any_value(tier) AS tier,
    count(*) AS entries,
    count(mean_exact) FILTER (WHERE veto IS NULL AND grading_mode = 'full') AS scored,
    list(mean_exact ORDER BY file) FILTER (WHERE veto IS NULL AND grading_mode = 'full' AND mean_exact IS NOT NULL)
        AS means,
    count(*) FILTER (WHERE veto IS NOT NULL) AS vetoed
FROM flowmcp_entries
WHERE is_current AND valid
GROUP BY area
ORDER BY list_position([
    'single-test', 'tools-aggregate-schema', 'tools-aggregate-namespace', 'namespace-description',
    'namespace-skills', 'about-namespace', 'about-selection', 'selection-skills-L1',
    'selection-skills-L2', 'selection-skills-L3', 'selection-aggregate'], area)
