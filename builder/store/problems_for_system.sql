-- The problems one grading system's files raised, in report order.
SELECT file, json_path AS "jsonPath", reason, severity, system, code
FROM problems
WHERE system = $system
ORDER BY file, json_path, reason;
