"""A deterministic stand-in for the language model in tdqs's two model stages.

`StandInLlm` has the shape of `tdqs.LlmClient` and is passed to the real `tdqs.score_server`, so
only the model's judgements are synthetic: gates, the tautology cap, smells, TDQS, tiers,
rollups and the referential checks on shadowing risks are all tdqs's own. It reads the same
user prompt a model would (`prompt_reading`) and grades it with fixed rubrics
(`tool_rubric`, `coherence_rubric`). Same prompt, same answer: there is no state, no global RNG
and no dependence on call order or threads.

Its `model` starts with `stand-in/`, which is how the site knows to label every page of such a
corpus as synthetic.
"""

from __future__ import annotations

from typing import TypeVar, cast

from pydantic import BaseModel
from tdqs.score_server_coherence import CoherenceResponse
from tdqs.score_tool_definition import ToolScoringResponse

from scorecards_demo.coherence_rubric import grade_server
from scorecards_demo.prompt_reading import read_coherence_prompt, read_tool_prompt
from scorecards_demo.tool_rubric import grade_tool

T = TypeVar("T", bound=BaseModel)

STAND_IN_MODEL = "stand-in/deterministic-v1"


class StandInLlm:
    """An `LlmClient` that answers from the prompt's visible features."""

    @property
    def model(self) -> str:
        return STAND_IN_MODEL

    def complete_json(self, *, system: str, user: str, response_type: type[T]) -> T:
        if response_type is ToolScoringResponse:
            answer: BaseModel = grade_tool(read_tool_prompt(user))
        elif response_type is CoherenceResponse:
            answer = grade_server(read_coherence_prompt(user))
        else:
            raise TypeError(f"the stand-in cannot answer {response_type.__name__}")
        # Built through the response models' own validators, so it is a valid instance already.
        return cast(T, answer)
