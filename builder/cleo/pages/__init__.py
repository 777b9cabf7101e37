"""The CLEO section's page kinds: `section` makes the sessions index and plans a page per session and
per run, one module per page kind besides."""
