"""The data-problems pages: what the build made of its input, for the operator who fixes it.

At registry scale a table of every file read was 5,585 rows and 39,147 DOM nodes at a tenth (a
phone took 9.7 s of blocking time to lay it out), and nearly every row said "accepted". So the
first page counts the files of each grading system by status, in one small table, and then lists
only the files with a problem, each with its problems, `PER_PAGE` files a page
(`problems/`, `problems/2/` …). A site whose input has no problem says so in one line. Every file
and every problem stays in build-report.json.

Each file's problems have an anchor of their own (`urls.problem_anchor`), and a file that belongs
to a server links back to the server's page. Where a file lands depends on every other file's
problems, so a page that links to a file's problems (a server's page, rendered only when the
server changes) links to its stable address, `problems/files/<file>/`: a page made with these
that sends the visitor on to the page and anchor holding the file in this build. The build
report names the same place (`locations`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property, partial

from pydantic import BaseModel, ConfigDict

from builder import urls
from builder.engine.problems import FileOwner, FileStatus, InputFile, Problem, ProblemLog
from builder.pages.page import Page, PageContext
from builder.pages.paging import Pager, pager

PER_PAGE = 50
"""Files (each with its problems) a page."""
PER_FILE = 20
"""Problems shown of one file: an index.json that lags a registry's captures has one per server
(2,049 of them made one page 430 KB), and the rest are in build-report.json."""
STATUSES: tuple[FileStatus, ...] = ("accepted", "accepted-with-warnings", "partly-rejected", "rejected")


class SystemCount(BaseModel):
    """How many files of one grading system were read, by status."""

    model_config = ConfigDict(frozen=True)

    system: str
    read: int
    counts: dict[str, int]
    """By each of STATUSES."""


class FileProblems(BaseModel):
    """One input file with a problem, and its problems in the order of the file."""

    model_config = ConfigDict(frozen=True)

    file: InputFile
    anchor: str
    """Its id on the page (urls.problem_anchor)."""
    owner: FileOwner | None
    """The server it belongs to, when it belongs to one with a page."""
    problems: list[Problem]
    """Its first PER_FILE problems, in the order of the file."""
    more: int
    """How many more it has (listed in build-report.json)."""


class ProblemsContext(PageContext):
    systems: list[SystemCount]
    statuses: list[str]
    files_read: int
    errors: int
    warnings: int
    with_problems: int
    """Files with at least one problem (each listed, with its problems, on one of the pages)."""
    groups: list[FileProblems]
    """This page's files."""
    pager: Pager
    report_path: str


class _Grouped:
    """The log's files and problems, counted and grouped once however many pages show them. Only
    the files with a problem are held as models: a registry reads tens of thousands of files, and
    the pages live to the end of the build."""

    def __init__(self, log: ProblemLog, owners: dict[str, FileOwner]) -> None:
        self.log = log
        self.owners = owners

    @cached_property
    def files_read(self) -> int:
        return len(self.log.file_rows())

    @cached_property
    def groups(self) -> list[FileProblems]:
        by_file: dict[str, list[Problem]] = {}
        for problem in self.log.problems:  # sorted by file, then where in it
            by_file.setdefault(problem.file, []).append(problem)
        return [
            FileProblems(
                file=InputFile(file=file, system=system, status=status, errors=errors, warnings=warnings),
                anchor=urls.problem_anchor(file), owner=self.owners.get(file),
                problems=by_file[file][:PER_FILE], more=max(0, len(by_file[file]) - PER_FILE),
            )
            for file, system, status, errors, warnings in self.log.file_rows() if file in by_file
        ]

    @cached_property
    def systems(self) -> list[SystemCount]:
        counted: dict[str, dict[str, int]] = {}
        for _, system, status, _, _ in self.log.file_rows():
            counted.setdefault(system, dict.fromkeys(STATUSES, 0))[status] += 1
        return [SystemCount(system=system, read=sum(counts.values()), counts=counts)
                for system, counts in sorted(counted.items())]


def page_count(log: ProblemLog) -> int:
    files = {problem.file for problem in log.problems}
    return max(1, -(-len(files) // PER_PAGE))


def _placed(log: ProblemLog) -> list[tuple[str, int]]:
    """Each file with a problem and the number of the page that lists it, in the pages' order."""
    with_problems = {problem.file for problem in log.problems}
    files = [file for file, *_ in log.file_rows() if file in with_problems]
    return [(file, index // PER_PAGE + 1) for index, file in enumerate(files)]


def locations(log: ProblemLog) -> dict[str, str]:
    """Each file with a problem → the output path of the page that lists it with its anchor
    (`problems/5/index.html#f-…`)."""
    return {file: f"{urls.problems_page(number)}#{urls.problem_anchor(file)}" for file, number in _placed(log)}


class ProblemFileContext(PageContext):
    file: str
    target: str
    """The output path of the page holding the file's problems."""
    anchor: str
    number: int
    """That page's number."""


def problems_pages(log: ProblemLog, owners: dict[str, FileOwner] | None = None) -> Iterator[Page]:
    """The pages, and each file's stable address that sends the visitor on to them; `owners`:
    whose server each file is (GradingSystem.file_owners). The pages' contexts are made when each
    is rendered: a registry's tens of thousands of files are not held as models until then."""
    grouped = _Grouped(log, owners or {})
    count = page_count(log)
    for number in range(1, count + 1):
        yield Page(urls.problems_page(number), "problems.html", partial(_context, grouped, number, count))
    for file, number in _placed(log):
        yield Page(urls.problem_file_page(file), "problem_file.html", ProblemFileContext(
            title=f"Problems of {file}", description=f"Where the data problems pages list the problems of {file}.",
            file=file, target=urls.problems_page(number), anchor=urls.problem_anchor(file), number=number))


def _context(grouped: _Grouped, number: int, count: int) -> ProblemsContext:
    log, groups = grouped.log, grouped.groups
    errors = log.error_count
    return ProblemsContext(
        title="Data problems" if number == 1 else f"Data problems, page {number}",
        description="How many input files were accepted, and each problem found in the others.",
        systems=grouped.systems, statuses=list(STATUSES), files_read=grouped.files_read,
        errors=errors, warnings=len(log) - errors, with_problems=len(groups),
        groups=groups[(number - 1) * PER_PAGE : number * PER_PAGE],
        pager=pager(number, count, len(groups), urls.problems_page, PER_PAGE),
        report_path=urls.BUILD_REPORT,
    )
