-- TDQS histogram of the current tools, one bin per tenth (TDQS is published to one decimal).
SELECT tdqs_tenths, count(*) AS count
FROM tdqs_tools WHERE is_current
GROUP BY tdqs_tenths
ORDER BY tdqs_tenths;
