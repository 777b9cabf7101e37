"""Page contexts: one pydantic model per page type is that template's contract.

A page is built in two phases. First every page of the site becomes a `Page` (output path,
template, typed context); the whole set is checked (unique paths, every internal link resolves)
before anything is written. Then each page is rendered and handed to the writer.
"""
