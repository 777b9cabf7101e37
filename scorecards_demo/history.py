"""Earlier captures of a server, derived backwards from the current one.

The current capture is what the corpus counts (exactly `tools` current tools), so history is
made by walking back: each earlier capture is the next one with a few changes undone. Between
two captures a handful of tools change — a description improved or regressed, a parameter
description added, a tool added or removed — and every other tool keeps its blueprint, so its
definition and inputHash stay the same, and so do its scores (the stand-in's jitter ignores the
sibling list) unless its description names a sibling that came or went.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

from scorecards_demo.definitions import (
    SYNONYMS,
    ServerDraft,
    ToolBlueprint,
    make_tool,
    name_for,
    render_tool,
)
from scorecards_demo.operations import Operation
from scorecards_demo.quality import better, worse
from scorecards_demo.rng import derive_rng

Change = Literal["improved", "regressed", "param_documented", "tool_added", "tool_removed"]

_CHANGES: tuple[Change, ...] = ("improved", "regressed", "param_documented", "tool_added", "tool_removed")
_WEIGHTS = (35, 15, 20, 15, 15)


def capture_tools(draft: ServerDraft, seed: int) -> list[tuple[ToolBlueprint, ...]]:
    """The tools of every capture in `draft.plan.captures`, oldest first; the last is
    `draft.tools`."""
    rng = derive_rng(seed, "history", draft.plan.server_id)
    versions = [draft.tools]
    spare = list(draft.spare)
    for _ in range(len(draft.plan.captures) - 1):
        versions.insert(0, _step_back(versions[0], draft, spare, rng, seed))
    return versions


def _step_back(
    newer: tuple[ToolBlueprint, ...],
    draft: ServerDraft,
    spare: list[Operation],
    rng: random.Random,
    seed: int,
) -> tuple[ToolBlueprint, ...]:
    """The capture before `newer`: a few changes undone, at least one, each tool at most once."""
    older = list(newer)
    touched: set[str] = set()
    wanted = max(1, round(len(newer) * rng.uniform(0.05, 0.25)))
    made = 0
    for _ in range(4 * wanted + 8):
        if made == wanted:
            break
        untouched = [index for index, tool in enumerate(older) if tool.name not in touched]
        if not untouched:
            break
        change = rng.choices(_CHANGES, weights=_WEIGHTS)[0]
        changed = _undo(change, older, rng.choice(untouched), draft, spare, rng, seed)
        if changed is not None:
            touched.add(changed)
            made += 1
    return tuple(older)


def _undo(
    change: Change,
    older: list[ToolBlueprint],
    index: int,
    draft: ServerDraft,
    spare: list[Operation],
    rng: random.Random,
    seed: int,
) -> str | None:
    """Undoes one `change` in `older`, in place, around the tool at `index`; returns the name of
    the tool it concerned, or None when that change cannot apply here."""
    tool = older[index]
    if change in ("improved", "regressed"):
        plan = worse(tool.plan, rng) if change == "improved" else better(tool.plan)
        earlier = dataclasses.replace(tool, plan=plan)
        if render_tool(earlier, draft.author) == render_tool(tool, draft.author):
            return None
        older[index] = earlier
    elif change == "param_documented":
        documented = [position for position, param in enumerate(tool.params) if param.description]
        if not documented:
            return None
        params = list(tool.params)
        position = rng.choice(documented)
        params[position] = dataclasses.replace(params[position], description=None)
        older[index] = dataclasses.replace(tool, params=tuple(params))
    elif change == "tool_added":
        if len(older) == 1:
            return None
        older.pop(index)
    else:
        extra = _removed_tool(older, draft, spare, rng, seed)
        if extra is None:
            return None
        older.insert(rng.randrange(len(older) + 1), extra)
        return extra.name
    return tool.name


def _removed_tool(
    older: list[ToolBlueprint],
    draft: ServerDraft,
    spare: list[Operation],
    rng: random.Random,
    seed: int,
) -> ToolBlueprint | None:
    """A tool the server had then and has since dropped: a spare operation, or else an alias of
    an existing one under a synonym verb (the deprecated `fetch_x` beside `get_x`)."""
    names = {tool.name for tool in older}
    candidates = list(spare)
    for tool in older:
        for synonym in SYNONYMS.get(tool.op.verb, ()):
            candidates.append(dataclasses.replace(tool.op, verb=synonym))
    for op in candidates:
        name = name_for(op, draft.author, rng)
        if name in names:
            continue
        if op in spare:
            spare.remove(op)
        others = [(tool.op, tool.name) for tool in older]
        tool_rng = derive_rng(seed, "removed-tool", draft.plan.server_id, name)
        return make_tool(op, name, draft.author, others, tool_rng)
    return None
