"""`add_files`: plan and check every file, then write, then bring index.json up to date.

Two phases, as the build has them: nothing is written until every file is known to be valid and to
fit; a file that does not stops the command with one line, and the data folder is as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from builder.add import cleo, flowmcp, reports, tdqs
from builder.add.detect import detect
from builder.add.plan import AddError, Filing
from builder.add.write import Step, apply, leftovers, prepare
from builder.engine.problems import ProblemLog
from builder.tdqs.reader import SYSTEM as TDQS
from builder.tdqs.reader import read_servers
from builder.tdqs.registry_index import write_index


def add_files(
    data: Path, files: Sequence[Path], *, tools: Path | None = None, server: str | None = None,
    schema: str | None = None, shown: str | None = None, categories: Sequence[str] = (),
) -> list[str]:
    """Files `files` into `data`; returns one line per item saying what went where. `shown` is
    how the data folder is named in those lines (as the operator typed it). `categories` go into
    the server.json of the one tdqs ScoreReport among `files`."""
    filings = plan(data, files, tools=tools, server=server, schema=schema, categories=list(categories))
    steps = prepare(data, filings)
    stale = leftovers(data, steps)
    apply(data, steps, stale)
    prefix = (shown or str(data)).rstrip("/") + "/"
    lines = [f"removed {prefix}{path}: left by an interrupted add" for path in stale]
    lines += [_line(step, prefix) for step in steps]
    if any(step.filing.system == TDQS and not step.done for step in steps):
        servers = read_servers(data, ProblemLog())
        if servers is not None:
            _, count = write_index(data, servers)
            lines.append(f"updated {prefix}index.json ({count} server{'' if count == 1 else 's'})")
    return lines


def plan(
    data: Path, files: Sequence[Path], *, tools: Path | None, server: str | None, schema: str | None,
    categories: list[str] | None = None,
) -> list[Filing]:
    detected = [(path, detect(path)) for path in files]
    reports_found = [path for path, found in detected if found.kind == "tdqs"]
    if tools is not None and len(reports_found) != 1:
        raise AddError(tools, "--tools", f"goes beside one tdqs ScoreReport, and {len(reports_found)} were given")
    if categories and len(reports_found) != 1:
        raise AddError(categories[0], "--category", f"goes into the server.json of one tdqs ScoreReport's server, "
                       f"and {len(reports_found)} were given")
    filings: list[Filing] = []
    rows: set[Any] = set()
    for path, found in detected:
        if found.kind == "tdqs":
            filings += tdqs.plan_report(path, found, tools, server)
        elif found.kind == "flowmcp-entry":
            filings += flowmcp.plan_entry(path, found, data, schema)
        elif found.kind == "scoring-report":
            filings += reports.plan_report(path, found, data)
        else:
            filings += cleo.plan_rows(path, found, data, rows)
    if categories:
        report = next(filing for filing in filings if filing.system == TDQS and filing.target.endswith(".score.json"))
        filings.append(tdqs.plan_categories(data, report, categories))
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
