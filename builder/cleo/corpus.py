"""Grading runs grouped into sessions: how the site presents GRADES.jsonl.

CLEO appends a new line every time a session is graded, so one sessionId can have many lines (the
real file has `sess1` 31 times). Every line is a *run*; a *session* is every run with the same
sessionId, across all files, oldest first (by timestamp, then file and line).

- The session's **current run** is its newest gradable run; a session none of whose runs is
  gradable is current at its newest run and is "not gradable: no audit entries". A later run
  that found no audit entries therefore never hides an earlier real grade: it carries no
  information about the agent, only about how the grader was called.
- Every run has a page of its own whose path never changes as runs are added:
  `sessions/<session slug>/runs/<run slug>/`, the run slug being its UTC time
  (`20260318-195245-249`) with `-2`, `-3` … for runs of one session that share a time. The
  session page shows the current run in full and all runs over time.
- Slugs come from `builder.urls.slug`, so junk, huge or hostile session ids get a safe, stable,
  distinct path.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from builder.cleo.models import GradeResult
from builder.cleo.reader import GradeLine
from builder.cleo.rubric import is_gradable
from builder.urls import slug

SYNTHETIC_EVALUATOR_PREFIX = "synthetic"
"""An evaluator such as `synthetic-demo` marks rows written for a demo, never by CLEO's grader."""


@dataclass(frozen=True)
class Run:
    file: str
    line: int
    result: GradeResult
    session_slug: str
    run_slug: str

    @property
    def key(self) -> str:
        """Unique across the corpus: the session's and the run's slugs."""
        return f"{self.session_slug}/{self.run_slug}"

    @property
    def gradable(self) -> bool:
        return is_gradable(self.result.entry_count, self.result.flags)

    @property
    def synthetic(self) -> bool:
        return (self.result.evaluator or "").startswith(SYNTHETIC_EVALUATOR_PREFIX)


@dataclass(frozen=True)
class Session:
    session_id: str
    slug: str
    runs: tuple[Run, ...]
    """Oldest first."""
    current: Run

    @property
    def gradable(self) -> bool:
        return self.current.gradable


@dataclass(frozen=True)
class CleoCorpus:
    sessions: tuple[Session, ...]
    """Sorted by sessionId."""
    files: tuple[str, ...]
    """Every file read, valid rows or not, relative to the data directory."""

    @property
    def runs(self) -> list[Run]:
        """Every valid row, in file and line order."""
        every = (run for session in self.sessions for run in session.runs)
        return sorted(every, key=lambda run: (run.file, run.line))

    @property
    def data_as_of(self) -> str | None:
        """The newest run's timestamp as CLEO wrote it."""
        newest = max((run for s in self.sessions for run in s.runs),
                     key=lambda r: (r.result.graded_at, r.file, r.line), default=None)
        return newest.result.timestamp if newest else None


def build_corpus(lines: Iterable[GradeLine], files: Iterable[str] = ()) -> CleoCorpus:
    by_session: dict[str, list[GradeLine]] = defaultdict(list)
    for line in lines:
        by_session[line.result.session_id].append(line)
    session_slugs = _distinct_slugs(sorted(by_session))
    sessions = []
    for session_id in sorted(by_session):
        ordered = sorted(by_session[session_id],
                         key=lambda g: (g.result.graded_at, g.file, g.line))
        session_slug = session_slugs[session_id]
        runs = tuple(
            Run(g.file, g.line, g.result, session_slug, run_slug)
            for g, run_slug in zip(ordered, _run_slugs(ordered), strict=True)
        )
        gradable = [run for run in runs if run.gradable]
        current = gradable[-1] if gradable else runs[-1]
        sessions.append(Session(session_id, session_slug, runs, current))
    return CleoCorpus(tuple(sessions), tuple(sorted(set(files))))


def _run_slugs(ordered: list[GradeLine]) -> list[str]:
    """The UTC time of each run, numbered where one session has several runs at one instant."""
    seen: dict[str, int] = {}
    result = []
    for line in ordered:
        at = line.result.graded_at
        stamp = at.strftime("%Y%m%d-%H%M%S")
        fraction = f"{at.microsecond:06d}"
        stamp += "-" + (fraction[:3] if fraction.endswith("000") else fraction)
        seen[stamp] = seen.get(stamp, 0) + 1
        result.append(slug(stamp if seen[stamp] == 1 else f"{stamp}-{seen[stamp]}"))
    return result


def _distinct_slugs(names: list[str]) -> dict[str, str]:
    """`slug()` is distinct for distinct names, except when one name spells another's hashed slug;
    such a clash gets a numbered suffix instead of two sessions writing one page."""
    taken: set[str] = set()
    result: dict[str, str] = {}
    for name in names:
        candidate = base = slug(name)
        counter = 2
        while candidate in taken:
            candidate = f"{base}-{counter}"
            counter += 1
        taken.add(candidate)
        result[name] = candidate
    return result
