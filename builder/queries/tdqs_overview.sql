-- Tool-level figures over the current tools (the newest capture of every server).
SELECT
    (SELECT count(*) FROM tdqs_servers)                          AS server_count,
    count(*)                                                     AS tool_count,
    (SELECT count(*) FROM tdqs_tools)                            AS scored_definitions,
    avg(tdqs_tenths) / 10.0                                      AS tdqs_mean,
    quantile_cont(tdqs, 0.5)                                     AS tdqs_median,
    quantile_cont(tdqs, 0.25)                                    AS tdqs_p25,
    quantile_cont(tdqs, 0.75)                                    AS tdqs_p75,
    avg(CASE WHEN len(smells) > 0 THEN 1.0 ELSE 0.0 END)         AS smell_share,
    avg(CASE WHEN tier IN ('A', 'B') THEN 1.0 ELSE 0.0 END)      AS passing_share,
    avg(CASE WHEN stale THEN 1.0 ELSE 0.0 END)                   AS stale_share
FROM tdqs_tools
WHERE is_current;
