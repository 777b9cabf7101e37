"""What a registry publishes beside its pages: sitemap, robots, 404, badges, feeds (TDQS's bulk data
is builder.tdqs.bulk)."""
