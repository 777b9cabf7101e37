"""Corpus statistics: SQL results shaped into typed models that both the pages and the JSON API use."""
