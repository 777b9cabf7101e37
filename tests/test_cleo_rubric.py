"""The flag → rule → points table against the strings CLEO's grader writes, and the checklist.

The flag strings below are copied by hand from the grader (`src/core/sessions/session-grade.ts`
in kryptobaseddev/cleo) with sample values for its variable parts; the expected dimension and
points come from its grade specification's tables, not from the table under test.
"""

from __future__ import annotations

import pytest
from test_cleo_reader import KEYS, grade_row

from builder.cleo.models import Dimensions, GradeResult
from builder.cleo.pages.checklist import checklist, recoverable_points
from builder.cleo.rubric import DIMENSION_KEYS, FLAG_RULES, is_gradable, match_flag

GRADER_FLAGS = [
    ("No audit entries found for session (use --grade flag when starting session)", None, None),
    ("session.list never called (check existing sessions before starting)", "sessionDiscipline", 10),
    ("session.list called after task ops (should check sessions first)", "sessionDiscipline", 10),
    ("session.end never called (always end sessions when done)", "sessionDiscipline", 10),
    ("tasks.list used 7x (prefer tasks.find for discovery)", "discoveryEfficiency", 15),
    ("tasks.add without description (taskId: T4916)", "taskHygiene", 5),
    ("tasks.add without description (taskId: unknown)", "taskHygiene", 5),
    ("Subtasks created without tasks.exists parent check", "taskHygiene", 3),
    ("E_NOT_FOUND (tasks.show) not followed by recovery lookup", "errorProtocol", 5),
    ("2 potentially duplicate task create(s) detected", "errorProtocol", 5),
    ("No admin.help or skill lookup calls (load ct-cleo for guidance)", "disclosureUse", 10),
    ("No MCP query calls (prefer cleo_query over CLI for programmatic access)", "disclosureUse", 10),
    ("No MCP query calls (prefer query over CLI for programmatic access)", "disclosureUse", 10),
]


@pytest.mark.parametrize(("flag", "dimension", "points"), GRADER_FLAGS)
def test_every_flag_the_grader_writes_maps_to_its_rule(flag: str, dimension: str | None, points: int | None) -> None:
    rule = match_flag(flag)
    assert rule is not None
    assert (rule.dimension, rule.points) == (dimension, points)


@pytest.mark.parametrize("flag", [
    "Agent ignored the style guide", "session.listed twice", "tasks.list used many times", " session.end never called",
])
def test_flags_the_table_does_not_know_match_nothing(flag: str) -> None:
    assert match_flag(flag) is None


def test_the_table_names_only_real_dimensions_and_they_are_the_models() -> None:
    assert DIMENSION_KEYS == KEYS
    assert tuple(Dimensions.model_fields[name].alias for name in Dimensions.model_fields) == KEYS
    assert {rule.dimension for rule in FLAG_RULES} - {None} <= set(KEYS)
    assert len({rule.key for rule in FLAG_RULES}) == len(FLAG_RULES)


def test_gradable_means_there_were_audit_entries() -> None:
    assert is_gradable(5, ["session.end never called (always end sessions when done)"])
    assert not is_gradable(0, [])
    assert not is_gradable(5, ["No audit entries found for session (use --grade flag when starting session)"])


def test_checklist_keeps_cleos_order_and_marks_unknown_flags() -> None:
    items = checklist([
        "session.end never called (always end sessions when done)",
        "Agent ignored the style guide",
        "tasks.list used 3x (prefer tasks.find for discovery)",
    ])
    assert [(i.known, i.dimension, i.points, i.up_to) for i in items] == [
        (True, "Session Discipline", 10, False),
        (False, None, None, False),
        (True, "Discovery Efficiency", 15, True),
    ]
    assert items[1].flag == "Agent ignored the style guide" and items[1].rule is None


def test_recoverable_points_are_capped_by_what_each_dimension_lost() -> None:
    flags = [
        "session.list never called (check existing sessions before starting)",  # S1 +10
        "tasks.list used 2x (prefer tasks.find for discovery)",                  # S2 up to 15, lost 4
        *[f"tasks.add without description (taskId: T{n})" for n in range(6)],   # S3 6 × 5, lost 20
        "Something new the grader says",                                        # unknown: nothing
    ]
    result = GradeResult.model_validate(grade_row("s", (10, 16, 0, 20, 20), flags=flags))
    assert recoverable_points(result) == 10 + 4 + 20
