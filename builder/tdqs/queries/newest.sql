-- Each server's newest capture: when the data of its pages was scored.
SELECT s.slug, max(c.generated_at) AS newest
FROM tdqs_servers s JOIN tdqs_captures c ON c.server_id = s.server_id
GROUP BY s.slug
ORDER BY s.slug;
