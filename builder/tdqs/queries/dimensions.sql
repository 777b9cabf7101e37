-- Each dimension's mean and how many current tools score it below 3 (a smell; the caller makes the
-- exact share).
WITH long AS (
    UNPIVOT (
        SELECT behavioral_transparency, conciseness_structure, contextual_completeness,
               parameter_semantics, purpose_clarity, usage_guidelines
        FROM tdqs_tools WHERE is_current
    ) ON COLUMNS(*) INTO NAME dimension VALUE score
)
SELECT dimension,
       avg(score)                                      AS mean,
       count(*) FILTER (WHERE score < 3)               AS smelly
FROM long
GROUP BY dimension
ORDER BY dimension;
