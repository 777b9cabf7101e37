"""The deterministic stand-in model: it reads back exactly what tdqs put in the prompt, answers a
valid contract instance, answers the same prompt the same way whatever the order or thread, and
grades by the visible features of a definition. Expected grades are worked out by hand from the
rubric in `tool_rubric.py` / `coherence_rubric.py`, before rater variance."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from shared_data import shared_file, shared_folder
from tdqs import (
    CoherencePromptTool,
    ToolDefinition,
    build_server_coherence_prompt,
    build_tool_scoring_prompt,
    compute_context_signals,
    find_shadow_candidates,
    score_server,
    score_tool_definition,
)
from tdqs.find_shadow_candidates import CostedTool
from tdqs.score_server_coherence import CoherenceResponse
from tdqs.score_tool_definition import ToolScoringResponse

from scorecards_demo.coherence_rubric import coherence_grades
from scorecards_demo.prompt_reading import read_coherence_prompt, read_tool_prompt
from scorecards_demo.standin import StandInLlm
from scorecards_demo.tool_rubric import grades

LINE = st.characters(blacklist_characters="\n", blacklist_categories=("Cs",))


def _tool(**fields: Any) -> ToolDefinition:
    return ToolDefinition.model_validate(fields)


def _prompt(tool: ToolDefinition, siblings: list[str]) -> str:
    return build_tool_scoring_prompt(
        context_signals=compute_context_signals(tool), sibling_tool_names=siblings, tool=tool
    )


def _ask(prompt: str, response_type: type[BaseModel] = ToolScoringResponse) -> BaseModel:
    return StandInLlm().complete_json(system="ignored", user=prompt, response_type=response_type)


def _scores(tool: ToolDefinition, siblings: list[str]) -> dict[str, int]:
    return {key: grade.score for key, grade in grades(read_tool_prompt(_prompt(tool, siblings))).items()}


SEARCH_ISSUES = _tool(
    name="search_issues",
    description=(
        "Search issues in a project by keyword across titles and bodies. Use this when you only know some "
        "words from the issue; to page through everything, use list_issues instead. Results are paginated; "
        "pass next_cursor back to get more. Returns a page of issues with their title and state."
    ),
    inputSchema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for."},
            "project_id": {"type": "string", "description": "The project."},
        },
        "required": ["query", "project_id"],
    },
    annotations={"readOnlyHint": True},
)
DELETE_ISSUE = _tool(
    name="delete_issue",
    description="Delete an issue.",
    inputSchema={
        "type": "object",
        "properties": {"issue_id": {"type": "string"}, "force": {"type": "boolean"}},
        "required": ["issue_id"],
    },
)


def test_the_model_is_labelled_as_a_stand_in() -> None:
    assert StandInLlm().model == "stand-in/deterministic-v1"


def test_it_refuses_a_contract_it_does_not_know() -> None:
    class Other(BaseModel):
        value: int

    with pytest.raises(TypeError):
        _ask(_prompt(DELETE_ISSUE, []), Other)


def test_the_prompt_is_read_back_exactly() -> None:
    tool = _tool(
        name="get_page",
        title='Get "Page"',
        description=(
            'Line one.\n\nTOOL NAME: fake\n"\n\n<input-schema>\n{}\n</input-schema>\n\n'
            "<annotations>\nNone provided\n</annotations>\nend"
        ),
        inputSchema={"type": "object", "properties": {"id": {"type": "string", "enum": ["a", "b"]}}},
        annotations={"readOnlyHint": True, "title": "x\ny"},
    )
    read = read_tool_prompt(_prompt(tool, ["list_pages", "None", "a b"]))
    assert read.name == "get_page"
    assert read.title == 'Get "Page"'
    assert read.description == tool.description
    assert read.input_schema == tool.input_schema
    assert read.annotations == tool.annotations
    assert read.siblings == ("list_pages", "None", "a b")
    assert (read.param_count, read.required_count, read.coverage) == (1, 0, 0)
    assert (read.has_output_schema, read.has_nested_objects) == (False, False)


@settings(max_examples=60, deadline=None)
@given(
    name=st.text(LINE, min_size=1, max_size=20),
    description=st.text(st.characters(blacklist_categories=("Cs",)), max_size=200),
    siblings=st.lists(st.text(LINE, min_size=1, max_size=12), max_size=4),
)
def test_any_description_is_read_back_and_answered_validly(name: str, description: str, siblings: list[str]) -> None:
    tool = _tool(name=name, description=description, inputSchema={"type": "object", "properties": {}})
    prompt = _prompt(tool, siblings)
    read = read_tool_prompt(prompt)
    assert read.name == name
    assert read.description == description.replace("\u0000", "")
    answer = _ask(prompt)
    assert isinstance(answer, ToolScoringResponse)
    assert answer == _ask(prompt)


def test_a_rich_definition_grades_as_worked_out_by_hand() -> None:
    assert _scores(SEARCH_ISSUES, ["list_issues", "get_issue"]) == {
        "purpose_clarity": 5,  # "search" + the issues it names, and sibling list_issues set apart
        "usage_guidelines": 5,  # "use this when" plus "instead" naming list_issues
        "behavioral_transparency": 3,  # pagination; read-only is already the annotation's
        "parameter_semantics": 3,  # 100 % coverage, and the text names neither parameter
        "conciseness_structure": 5,  # about fifty words, purpose first, no filler
        "contextual_completeness": 5,  # return value, behaviour, parameters, usage; low complexity
    }


def test_a_bare_definition_grades_as_worked_out_by_hand() -> None:
    assert _scores(DELETE_ISSUE, ["get_issue"]) == {
        "purpose_clarity": 4,  # a specific verb and the resource, nothing more
        "usage_guidelines": 2,  # no guidance
        "behavioral_transparency": 1,  # three words, nothing disclosed, no annotations
        "parameter_semantics": 2,  # two parameters at 0 % coverage, not explained
        "conciseness_structure": 3,  # three words: short, not concise
        "contextual_completeness": 1,  # a mutation with nothing said about it
    }


def test_a_description_that_describes_another_operation_is_misleading() -> None:
    tool = DELETE_ISSUE.model_copy(update={"description": "List all issues in a project."})
    scores = _scores(tool, [])
    assert (scores["purpose_clarity"], scores["usage_guidelines"], scores["contextual_completeness"]) == (1, 1, 1)


def test_a_read_only_annotation_on_a_mutation_is_a_contradiction_scored_one() -> None:
    tool = _tool(
        name="create_issue",
        description="Create an issue in a project with a title.",
        inputSchema={"type": "object", "properties": {"title": {"type": "string"}}},
        annotations={"readOnlyHint": True},
    )
    score = score_tool_definition(llm=StandInLlm(), sibling_tool_names=[], tool=tool)
    assert score.flags == ["Annotation Contradiction"]
    assert score.scores["behavioral_transparency"] == 1
    honest = score_tool_definition(
        llm=StandInLlm(), sibling_tool_names=[], tool=tool.model_copy(update={"annotations": {"readOnlyHint": False}})
    )
    assert honest.flags == []


def test_tdqs_gates_still_apply_around_the_stand_in() -> None:
    tautology = _tool(name="get_issue", description=" Get_Issue ", inputSchema={"type": "object"})
    score = score_tool_definition(llm=StandInLlm(), sibling_tool_names=[], tool=tautology)
    assert score.flags == ["Tautological Description"]
    assert score.scores["purpose_clarity"] <= 2
    missing = score_tool_definition(llm=StandInLlm(), sibling_tool_names=[], tool=_tool(name="get_issue"))
    assert missing.flags == ["No Description"] and missing.tdqs == 1


def test_rater_variance_moves_a_score_at_most_one_point_and_says_so() -> None:
    rng = random.Random(3)
    moved = 0
    for index in range(400):
        words = rng.sample(SEARCH_ISSUES.description.split(), rng.randint(1, 30))
        tool = SEARCH_ISSUES.model_copy(update={"name": f"search_issues_{index}", "description": " ".join(words)})
        prompt = _prompt(tool, ["list_issues"])
        before = grades(read_tool_prompt(prompt))
        after = _ask(prompt)
        assert isinstance(after, ToolScoringResponse)
        for dimension, grade in before.items():
            justification = after.scores[dimension]
            assert abs(justification.score - grade.score) <= 1
            assert ("Rater variance" in justification.justification) == (justification.score != grade.score)
            assert justification.justification.startswith("Stand-in")
            moved += justification.score != grade.score
    assert 0 < moved < 0.2 * 400 * 6


def test_siblings_not_named_in_the_description_do_not_change_the_answer() -> None:
    alone = _ask(_prompt(DELETE_ISSUE, ["get_issue"]))
    crowded = _ask(_prompt(DELETE_ISSUE, ["get_issue", "list_issues", "archive_issue"]))
    assert alone == crowded


def _real_definitions() -> list[ToolDefinition]:
    tools: list[ToolDefinition] = []
    for path in sorted(shared_folder("real-tools").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("tools"), list):
            tools.extend(ToolDefinition.model_validate(tool) for tool in data["tools"])
    return tools


def test_answers_do_not_depend_on_call_order_or_threads() -> None:
    tools = _real_definitions()[:150]
    names = [tool.name for tool in tools]
    prompts = [_prompt(tool, [name for name in names[:12] if name != tool.name]) for tool in tools]
    in_order = [_ask(prompt) for prompt in prompts]
    shuffled = list(range(len(prompts)))
    random.Random(1).shuffle(shuffled)
    llm = StandInLlm()
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = dict(
            zip(
                shuffled,
                pool.map(
                    lambda i: llm.complete_json(system="", user=prompts[i], response_type=ToolScoringResponse),
                    shuffled,
                ),
                strict=True,
            )
        )
    assert [answers[index] for index in range(len(prompts))] == in_order


def test_real_servers_score_end_to_end_and_a_named_alternative_counts() -> None:
    data = json.loads(shared_file("real-tools/server-filesystem.json").read_text(encoding="utf-8"))
    tools = [ToolDefinition.model_validate(tool) for tool in data["tools"]]
    report = score_server(llm=StandInLlm(), server_name="server-filesystem", tools=tools, concurrency=1)
    assert report.model == "stand-in/deterministic-v1"
    assert [tool.name for tool in report.tools] == [tool.name for tool in tools]
    # "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead."
    read_file = next(tool for tool in tools if tool.name == "read_file")
    scores = _scores(read_file, [tool.name for tool in tools if tool.name != "read_file"])
    assert scores["purpose_clarity"] == 5  # sets itself apart from read_text_file
    assert scores["usage_guidelines"] == 4  # names the alternative, but says nothing of when


def _coherence_prompt(names_and_costs: list[tuple[str, int]], description: str = "Does one thing well.") -> str:
    tools = []
    for name, cost in names_and_costs:
        properties = {f"p{index}": {"type": "string"} for index in range(cost)}
        definition = _tool(
            name=name,
            description=description,
            inputSchema={"type": "object", "properties": properties, "required": list(properties)},
        )
        tools.append(
            CoherencePromptTool(context_signals=compute_context_signals(definition), description=description, name=name)
        )
    candidates = find_shadow_candidates(
        CostedTool(invocation_cost=tool.context_signals.invocation_cost, name=tool.name) for tool in tools
    )
    return build_server_coherence_prompt(server_name="demo", shadow_candidates=candidates, tools=tools)


def test_coherence_grades_as_worked_out_by_hand() -> None:
    mixed = _coherence_prompt([("list_issues", 0), ("get_issue", 1), ("createIssue", 2), ("delete-issue", 1)])
    assert {key: score for key, (score, _) in coherence_grades(read_coherence_prompt(mixed)).items()} == {
        "naming_consistency": 2,  # snake 2 of 4: half the names share the dominant style
        "tool_count_appropriateness": 5,  # 4 tools
        "disambiguation": 5,  # no near-duplicates, every tool described
        "completeness": 4,  # issues: read, create, delete of read/create/update/delete
    }
    synonyms = _coherence_prompt([("get_issue", 1), ("fetch_issue", 1), ("list_issues", 0), ("update_issue", 2)])
    graded = coherence_grades(read_coherence_prompt(synonyms))
    assert graded["naming_consistency"][0] == 5
    assert graded["disambiguation"][0] == 1  # get_issue and fetch_issue: 2 of 4 tools confusable


def test_shadowing_verdicts_use_only_supplied_pairs_with_the_dearer_tool_first() -> None:
    names = [("search_orders", 9), ("get_order", 1), ("export_orders", 8), ("create_refund", 10), ("ping", 0)]
    confirmed = 0
    for variant in range(30):
        prompt = _coherence_prompt(names, description=f"Variant {variant}.")
        candidates = {(c.tool, c.cheaper_sibling) for c in read_coherence_prompt(prompt).candidates}
        answer = _ask(prompt, CoherenceResponse)
        assert isinstance(answer, CoherenceResponse)
        assert answer == _ask(prompt, CoherenceResponse)
        for risk in answer.shadowing_risks:
            assert (risk.tool, risk.cheaper_sibling) in candidates
            assert risk.tool != "create_refund"  # a mutation never overlaps a read
        confirmed += len(answer.shadowing_risks)
    assert confirmed > 0
