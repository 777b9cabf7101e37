-- Tool-level figures over the current tools (the newest capture of every server).
-- scored_definitions: distinct definitions (inputHash per tool of a server) over every capture, so
-- a definition scored again unchanged counts once.
-- Shares are given as counts (the caller divides by tool_count exactly, builder.numbers.share_of),
-- and the mean as the sum of the integer tenths, so neither is rounded before it is printed.
-- Percentiles are DuckDB's quantile_cont: linear interpolation between the two nearest ranks
-- (Hyndman & Fan type 7, numpy's default "linear"), taken on the integer tenths.
SELECT
    (SELECT count(*) FROM tdqs_servers)                          AS server_count,
    count(*)                                                     AS tool_count,
    (SELECT count(*) FROM (SELECT DISTINCT server_id, tool_name, input_hash FROM tdqs_tools))
                                                                 AS scored_definitions,
    sum(tdqs_tenths)                                             AS tdqs_tenths_sum,
    quantile_cont(tdqs_tenths, 0.5) / 10.0                       AS tdqs_median,
    quantile_cont(tdqs_tenths, 0.25) / 10.0                      AS tdqs_p25,
    quantile_cont(tdqs_tenths, 0.75) / 10.0                      AS tdqs_p75,
    count(*) FILTER (WHERE len(smells) > 0)                      AS smelly,
    count(*) FILTER (WHERE tier IN ('A', 'B'))                   AS passing,
    count(*) FILTER (WHERE stale)                                AS stale
FROM tdqs_tools
WHERE is_current;
