"""`add_files`: plan and check every file, then write, then bring index.json up to date.

Two phases, as the build has them: nothing is written until every file is known to be valid and to
fit; a file that does not stops the command with one line, and the data folder is as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from builder.add.detect import detect
from builder.add.write import Step, apply, leftovers, prepare
from builder.engine.adding import AddError, AddKind, AddRequest, Filing
from builder.systems import all_systems

OPTIONS = {"tools": ("--tools", "goes beside {what}"), "categories": ("--category", "goes into the server.json of {what}")}
"""The options that go with one file of a kind that takes them (`AddKind.options`): the option as
typed, and where it goes."""


def add_files(
    data: Path, files: Sequence[Path], *, tools: Path | None = None, server: str | None = None,
    schema: str | None = None, shown: str | None = None, categories: Sequence[str] = (),
) -> list[str]:
    """Files `files` into `data`; returns one line per item saying what went where. `shown` is
    how the data folder is named in those lines (as the operator typed it). `categories` go into
    the server.json of the one tdqs ScoreReport among `files`."""
    kinds = [kind for system in all_systems() for kind in system.adds]
    request = AddRequest(data, tools=tools, server=server, schema=schema, categories=list(categories))
    filings = plan(files, kinds, request)
    steps = prepare(data, filings)
    stale = leftovers(data, steps)
    apply(data, steps, stale)
    prefix = (shown or str(data)).rstrip("/") + "/"
    lines = [f"removed {prefix}{path}: left by an interrupted add" for path in stale]
    lines += [_line(step, prefix) for step in steps]
    written = {step.filing.system for step in steps if not step.done}
    for kind in kinds:
        if kind.finish is not None and kind.system in written:
            written.discard(kind.system)  # once a system
            lines += kind.finish(data, prefix)
    return lines


def plan(files: Sequence[Path], kinds: Sequence[AddKind], request: AddRequest) -> list[Filing]:
    detected = [(path, detect(path, kinds)) for path in files]
    given = {"tools": request.tools, "categories": request.categories[0] if request.categories else None}
    for option, value in given.items():
        if value is None:
            continue
        taking = [kind for kind in kinds if option in kind.options]
        count = sum(1 for _, item in detected if item.kind in taking)
        if count != 1:
            flag, goes = OPTIONS[option]
            what = " or ".join(kind.name for kind in taking)
            raise AddError(value, flag, f"{goes.format(what=what)} (one file), and {count} were given")
    filings: list[Filing] = []
    for path, found in detected:
        filings += found.kind.plan(path, found, request)
    return filings


def _line(step: Step, prefix: str) -> str:
    filing = step.filing
    where = prefix + filing.target
    repaired = f"; {step.repaired}" if step.repaired else ""
    if filing.update:
        return f"already in {where}: {filing.kind}" if step.done else f"added {filing.kind} to {where}"
    if filing.append:
        if not filing.rows:
            return (f"already there: {filing.source} ({filing.kind}): all {filing.duplicates} rows are in "
                    f"{prefix}sessions/{repaired}")
        return (f"appended {filing.source} ({filing.kind}) to {where}: {filing.rows} rows, "
                f"{filing.duplicates} duplicates skipped{repaired}")
    if step.done:
        return f"already there: {filing.source} ({filing.kind}) is {where}"
    return f"filed {filing.source} ({filing.kind}) as {where}{repaired}"
