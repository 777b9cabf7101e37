"""The kinds of MCP server the demo corpus is made of: `data/domains.toml`, read once."""

from __future__ import annotations

from scorecards_demo.vocabulary import Domain, load_domains

DOMAINS: tuple[Domain, ...] = load_domains("domains.toml")
