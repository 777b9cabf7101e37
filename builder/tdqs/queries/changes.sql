-- Every change (builder.tdqs.pages.changes), newest first: by the instant, then the feed entry's id,
-- as the feeds order their entries (builder.publish.feeds.entry_order, reversed).
SELECT "row", new
FROM tdqs_changes
ORDER BY instant DESC, entry_key DESC;
