"""What a registry publishes beside its pages: sitemap, robots, 404, badges, bulk data, feeds."""
