"""The TDQS section's page kinds: `outputs` lists every page and file of the section, `section`
reads the corpus and plans each server's own pages, one module per page kind besides."""
