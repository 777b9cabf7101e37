"""A run's flags as an improvement checklist: each flag, the rubric rule behind it and its points.

The mapping itself is `builder.cleo.rubric.FLAG_RULES`; this module only applies it. What
fixing the flags is worth is capped per dimension by what the dimension lost, because CLEO floors
every dimension at 0 and caps it at its max: six tasks.add without a description cost 30 points on
paper but at most the 20 Task Hygiene has.
"""

from __future__ import annotations

from collections import defaultdict

from builder.cleo.models import GradeResult
from builder.cleo.pages.contexts import ChecklistItem
from builder.cleo.rubric import DIMENSION_BY_KEY, match_flag


def checklist(flags: list[str]) -> list[ChecklistItem]:
    """One item per flag, in CLEO's order (which follows the rubric's dimensions)."""
    items = []
    for flag in flags:
        rule = match_flag(flag)
        if rule is None:
            items.append(ChecklistItem(flag=flag, known=False))
            continue
        items.append(ChecklistItem(
            flag=flag, known=True,
            dimension=DIMENSION_BY_KEY[rule.dimension].label if rule.dimension else None,
            rule=rule.rule, points=rule.points, up_to=rule.up_to, action=rule.action,
        ))
    return items


def recoverable_points(result: GradeResult) -> float:
    """The most the known flags' rules can win back: per dimension, the smaller of their points
    and what the dimension lost."""
    flagged: dict[str, int] = defaultdict(int)
    for flag in result.flags:
        rule = match_flag(flag)
        if rule is not None and rule.dimension is not None and rule.points is not None:
            flagged[rule.dimension] += rule.points
    dimensions = result.dimensions.by_key()
    return sum(
        min(float(points), dimensions[key].max - dimensions[key].score)
        for key, points in flagged.items()
    )
