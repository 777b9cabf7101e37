"""The names the reading code knows the build's executor by (builder.engine.workers).

A registry's load is mostly validation, and a validated server is costly to hand between
processes (pickling one costs more than reading it). So a reader forks its workers *before*
reading: each worker reads and validates the servers it is given, hands the parent only small
summaries (builder.tdqs.pages.summary), and later renders those servers' pages itself (reading
their files again rather than holding them). Reading then uses every core, and no process ever
holds the whole parsed registry. The workers are the build's one executor, `Workers`; `Owners` is
that same class under the name the readers use (`share`, `start_each`, `collect`, `close`,
`count`, `planned`).
"""

from __future__ import annotations

from builder.engine.workers import Task, WorkerError, Workers, die_with_parent

Owners = Workers
OwnerError = WorkerError

__all__ = ["OwnerError", "Owners", "Task", "die_with_parent"]
