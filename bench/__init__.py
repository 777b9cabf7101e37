"""Benchmarks of the site build at registry scale (run `python bench/registry.py`); not tests."""
