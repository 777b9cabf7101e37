-- Each dimension's mean and smell rate (share of current tools scoring below 3).
WITH long AS (
    UNPIVOT (
        SELECT behavioral_transparency, conciseness_structure, contextual_completeness,
               parameter_semantics, purpose_clarity, usage_guidelines
        FROM tdqs_tools WHERE is_current
    ) ON COLUMNS(*) INTO NAME dimension VALUE score
)
SELECT dimension,
       avg(score)                                      AS mean,
       avg(CASE WHEN score < 3 THEN 1.0 ELSE 0.0 END)  AS smell_rate
FROM long
GROUP BY dimension
ORDER BY dimension;
