-- Each server's newest capture: when the data of its pages was scored.
SELECT s.slug, arg_max(c.generated_at, c.seq) AS newest  -- seq is time order; the text is not
FROM tdqs_servers s JOIN tdqs_captures c ON c.server_id = s.server_id
GROUP BY s.slug
ORDER BY s.slug;
