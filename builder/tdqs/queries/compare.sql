-- Every scored server with what the compare pages show of it, in the servers list's order (best
-- overall score first, ties by id): its current scores, the four coherence dimensions, its
-- coverage, when it was scored, and per tool dimension the sum and count of its current tools'
-- scores (the mean is taken exactly from them, not from a float average).
SELECT s.server_id, s.slug, s.display_name, s.repository_url,
       c.generated_at, c.tool_count, c.scored_tool_count, c.coverage_ok,
       c.overall_score, c.overall_tier, c.description_quality_score, c.description_quality_tier,
       c.coherence_score, c.coherence_tier, c.mean_tdqs, c.min_tdqs,
       c.disambiguation, c.naming_consistency, c.tool_count_appropriateness, c.completeness,
       coalesce(t.scored, 0) AS scored, t.purpose_clarity, t.usage_guidelines, t.behavioral_transparency,
       t.parameter_semantics, t.conciseness_structure, t.contextual_completeness
FROM tdqs_servers s
JOIN tdqs_captures c ON c.server_id = s.server_id AND c.is_current
LEFT JOIN (
    SELECT server_id, count(*) AS scored,
           sum(purpose_clarity) AS purpose_clarity, sum(usage_guidelines) AS usage_guidelines,
           sum(behavioral_transparency) AS behavioral_transparency, sum(parameter_semantics) AS parameter_semantics,
           sum(conciseness_structure) AS conciseness_structure, sum(contextual_completeness) AS contextual_completeness
    FROM tdqs_tools WHERE is_current GROUP BY server_id
) t ON t.server_id = s.server_id
ORDER BY c.overall_score DESC NULLS LAST, c.mean_tdqs DESC, s.server_id;
