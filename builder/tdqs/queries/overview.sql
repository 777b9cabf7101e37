-- Tool-level figures over the current tools (the newest capture of every server).
-- scored_definitions: distinct definitions (inputHash per tool of a server) over every capture, so
-- a definition scored again unchanged counts once.
-- Percentiles are DuckDB's quantile_cont: linear interpolation between the two nearest ranks
-- (Hyndman & Fan type 7, numpy's default "linear"), taken on the integer tenths.
SELECT
    (SELECT count(*) FROM tdqs_servers)                          AS server_count,
    count(*)                                                     AS tool_count,
    (SELECT count(*) FROM (SELECT DISTINCT server_id, tool_name, input_hash FROM tdqs_tools))
                                                                 AS scored_definitions,
    avg(tdqs_tenths) / 10.0                                      AS tdqs_mean,
    quantile_cont(tdqs_tenths, 0.5) / 10.0                       AS tdqs_median,
    quantile_cont(tdqs_tenths, 0.25) / 10.0                      AS tdqs_p25,
    quantile_cont(tdqs_tenths, 0.75) / 10.0                      AS tdqs_p75,
    avg(CASE WHEN len(smells) > 0 THEN 1.0 ELSE 0.0 END)         AS smell_share,
    avg(CASE WHEN tier IN ('A', 'B') THEN 1.0 ELSE 0.0 END)      AS passing_share,
    avg(CASE WHEN stale THEN 1.0 ELSE 0.0 END)                   AS stale_share
FROM tdqs_tools
WHERE is_current;
