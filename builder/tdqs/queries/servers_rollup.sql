-- Server-level figures over the current capture of every server. The gap between a server's
-- mean and min TDQS is computed in tenths, exactly: mean = sum/count, so
-- "a tool a full point or more below the mean" is sum - count*min >= 10*count. Shares are given as
-- counts; the caller makes them exact fractions (builder.numbers.share_of).
WITH per_server AS (
    SELECT server_id,
           count(*)           AS n,
           sum(tdqs_tenths)   AS total,
           min(tdqs_tenths)   AS low
    FROM tdqs_tools WHERE is_current
    GROUP BY server_id
),
captures AS (SELECT * FROM tdqs_captures WHERE is_current)
SELECT
    (SELECT avg((total - n * low) / (10.0 * n)) FROM per_server)                          AS mean_min_gap,
    (SELECT count(*) FILTER (WHERE total - n * low >= 10 * n) FROM per_server)             AS with_outlier,
    (SELECT count(*) FROM per_server)                                                     AS rolled_up,
    count(*)                            AS servers,
    avg(overall_score)                  AS overall_mean,
    avg(description_quality_score)      AS description_quality_mean,
    avg(coherence_score)                AS coherence_mean,
    avg(disambiguation)                 AS disambiguation,
    avg(naming_consistency)             AS naming_consistency,
    avg(tool_count_appropriateness)     AS tool_count_appropriateness,
    avg(completeness)                   AS completeness,
    count(*) FILTER (WHERE NOT coverage_ok) AS below_coverage,
    count(*) FILTER (WHERE shadowing_risks > 0) AS shadowing
FROM captures;
