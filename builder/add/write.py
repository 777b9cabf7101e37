"""The only part of `add` that writes, and only after every file was planned and checked.

Every write goes through the data folder's one rule (builder.sources.data_writes): no link below
the data folder is followed (a linked folder refuses the command before anything is written), and
each file is written whole to a temporary name and renamed into place, appends included, so a
killed `add` leaves the old file or the new one.

A target that exists is compared byte for byte: the same bytes are "already there" and nothing is
written; different bytes stop the whole command before any write, since `add` never replaces a
file. New files are put in place only if the name is still free, so a file that appears meanwhile
is never written over either. The one exception is a server.json that `add --category` adds
categories to: it is planned from the file as it is, keeps everything in it, and is replaced whole.

What an `add` killed by an earlier version left is repaired and named: a file cut short that is
the start of the very file being added is written again whole; an unfinished last row of a
`sessions/` file (bytes after its last newline that are not a JSON row) is dropped; temporary files
of a killed write are removed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from builder.engine.adding import AddError, Filing
from builder.sources import data_writes
from builder.sources.data_writes import RefusedWrite
from builder.sources.jsonfile import MAX_FILE_BYTES


@dataclass(frozen=True)
class Step:
    """What `apply` does for one filing."""

    filing: Filing
    done: bool
    """The file is already there with these bytes (or, for an append, no row is new)."""
    content: bytes = b""
    """The whole file to write (for an append: the rows already there and the new ones)."""
    replace: bool = False
    """Whether it takes the place of a file there (an append; a file cut short by a killed add)."""
    repaired: str = ""
    """What an earlier, interrupted `add` left that this one repairs, in the operator's words."""


def prepare(data: Path, filings: Sequence[Filing]) -> list[Step]:
    """A step for each filing; AddError when a link or something else is in the way, or a
    different file has its name (in the data folder or earlier in the same command)."""
    planned: dict[str, bytes] = {}
    appended: dict[str, bytes] = {}
    steps = []
    for filing in filings:
        try:
            data_writes.check_target(data, filing.target)
            existing = data_writes.read_target(data, filing.target, MAX_FILE_BYTES)
        except RefusedWrite as error:
            raise AddError(filing.source, "$", str(error)) from None
        if filing.append:
            steps.append(_append(filing, appended, existing))
            continue
        if filing.update:  # planned from the file as it is: the same bytes mean nothing to add
            steps.append(Step(filing, existing == filing.content, filing.content, replace=True))
            continue
        earlier = planned.get(filing.target)
        if earlier is not None and earlier != filing.content:
            raise AddError(filing.source, "$", f"another file of this command also goes to {filing.target}; "
                           "add them one at a time")
        planned[filing.target] = filing.content
        if existing is not None and existing != filing.content:
            if _cut_short(existing, filing.content):
                steps.append(Step(filing, False, filing.content, replace=True,
                                  repaired=f"it replaces the {len(existing):,} bytes of it an interrupted add left"))
                continue
            raise AddError(filing.source, "$", f"{filing.target} already holds a different file, "
                           "and add never replaces one")
        steps.append(Step(filing, existing is not None or earlier is not None, filing.content))
    return steps


def _cut_short(existing: bytes, content: bytes) -> bool:
    """`existing` is the start of `content` and not a whole JSON document: what a killed write of
    `content` leaves."""
    if not content.startswith(existing) or len(existing) >= len(content):
        return False
    try:
        json.loads(existing)
    except ValueError:
        return True
    return False


def _append(filing: Filing, appended: dict[str, bytes], existing: bytes | None) -> Step:
    """The file the rows go into, whole: what is there (with an unfinished last row dropped, and a
    last row that was not ended ended), the rows of earlier files of this command, these rows."""
    repaired = ""
    before = appended.get(filing.target)
    if before is None:
        before = existing or b""
        if before and not before.endswith(b"\n"):
            last = before.rsplit(b"\n", 1)[-1]
            if _is_json(last):
                before += b"\n"
            else:
                before = before[: len(before) - len(last)]
                repaired = f"dropped an unfinished last row ({len(last):,} bytes) an interrupted add left"
    content = before + filing.content
    appended[filing.target] = content
    return Step(filing, not filing.content and not repaired, content, replace=True, repaired=repaired)


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


def leftovers(data: Path, steps: Sequence[Step]) -> list[str]:
    """Temporary files that an interrupted write of one of the targets left beside it."""
    found: list[str] = []
    for step in steps:
        found += [path for path in data_writes.leftovers(data, step.filing.target) if path not in found]
    return found


def apply(data: Path, steps: Sequence[Step], stale: Sequence[str]) -> None:
    for path in stale:
        data_writes.remove(data, path)
    for step in steps:
        if not step.done:
            try:
                data_writes.write_file(data, step.filing.target, step.content, replace=step.replace)
            except FileExistsError:
                raise AddError(step.filing.source, "$", f"{step.filing.target} appeared while add was writing, "
                               "and add never replaces a file") from None
            except RefusedWrite as error:  # a link put in place since the check
                raise AddError(step.filing.source, "$", str(error)) from None
