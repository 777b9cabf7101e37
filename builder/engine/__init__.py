"""The engine: what turns any grading system's outputs into a site, knowing nothing about any system.

It reads every system's inputs the same way (`records`: the record protocol), plans and checks the
pages (`problems`, `links`), renders them (`render` with `escaping` and `inlining`, `assets`), writes them
(`output`, `write`, `artifact`, with what was written kept on disk: `written`), reads and renders in
worker processes, the build's one executor (`workers`, `heap`), keeps what it read and rendered for the next
build (`read_cache`, and the `ledger` that `incremental` lends from) and indexes the site for search (`search`). A system implements `grading_system.GradingSystem`; the
build (builder.build) takes the systems from the registry (builder.systems).
"""
