-- Every server with its current scores, best first; ties broken by id so order is stable.
SELECT s.server_id, s.slug, s.display_name, s.description, s.capture_count, s.repository_url, s.categories,
       c.generated_at, c.model, c.tool_count, c.scored_tool_count, c.coverage_ok,
       c.overall_score, c.overall_tier, c.description_quality_score, c.description_quality_tier,
       c.coherence_score, c.coherence_tier, c.mean_tdqs, c.min_tdqs, c.shadowing_risks,
       (SELECT count(*) FROM tdqs_tools t WHERE t.server_id = s.server_id AND t.is_current AND len(t.smells) > 0) AS smelly_tools,
       (SELECT count(*) FROM tdqs_tools t WHERE t.server_id = s.server_id AND t.is_current AND len(t.flags) > 0) AS flagged_tools
FROM tdqs_servers s
JOIN tdqs_captures c ON c.server_id = s.server_id AND c.is_current
ORDER BY c.overall_score DESC NULLS LAST, c.mean_tdqs DESC, s.server_id;
