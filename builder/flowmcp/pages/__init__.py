"""The FlowMCP section's page kinds: `section` makes the section's own page and plans the others,
one module per page kind (provider, selection, entry, report) besides."""
