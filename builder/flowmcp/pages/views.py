"""What every FlowMCP page shares: the base of its context models, difference rows, how a mean is
printed, and where a rollup's and an entry's pages go.

Each template of `templates/flowmcp/` reads exactly one context model, defined in the module of its
page kind (provider, selection, entry, report; the section's own
page in builder.flowmcp.pages.section), and the API JSON beside each page is the same model (camelCase).
Every grading and every node carries `scoringSystem` and `gradingSystem` as two separate fields, as
the Grading-Spec requires (07 §4).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import TypeVar

from pydantic import BaseModel

from builder import numbers, urls
from builder.flowmcp.reader import STAND_IN_PREFIX
from builder.flowmcp.records import Difference, EntryRecord, Rollup
from builder.flowmcp.rules import BANDS
from builder.pages.page import CAMEL_VIEW, CamelView, PageContext
from builder.urls import slug

BAND_MINIMA = tuple(bound for bound, _ in BANDS)
"""The Grading-Spec's bands as lower bounds, best first (A ≥ 4.5 … D ≥ 1.5)."""

SECTION = "FlowMCP"
NODE_STATUS_ORDER = ("pending", "blocked", "graded", "stable", "rejected")


View = CamelView


class Context(PageContext):
    """A page context whose API JSON is the context itself, in camelCase."""

    model_config = CAMEL_VIEW


C = TypeVar("C", bound=PageContext)


def entry_models(records: Iterable[EntryRecord]) -> Iterator[str]:
    """The models named by the grading answers of `records`."""
    for record in records:
        if record.entry is not None:
            yield from (answer.llm_model for answer in record.entry.gradings if answer.llm_model)


def labelled(context: C, models: Iterable[str]) -> C:
    """The context, saying "Stand-in scores" when a model whose grades it shows is a stand-in."""
    stand_ins = sorted({model for model in models if model.startswith(STAND_IN_PREFIX)})
    return context.model_copy(update={"stand_in_models": stand_ins}) if stand_ins else context


class DifferenceView(View):
    file: str
    json_path: str
    field: str
    stored: str | None
    recomputed: str | None
    why: str


def api_json(model: BaseModel, exclude: set[str] | None = None) -> str:
    data = model.model_dump(mode="json", by_alias=True, exclude=exclude)
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def mean_text(value: Fraction | float | None) -> str | None:
    """A Grading-Spec mean as printed beside its grade: two decimals, or as many more as keep it
    in its band (3.4999 is a C, never `3.50`)."""
    return None if value is None else numbers.banded(value, BAND_MINIMA, 2)


def exact_float(value: Fraction | None) -> float | None:
    """The API's value: the nearest float, not a rounded one."""
    return None if value is None else float(value)


def differences(found: tuple[Difference, ...]) -> list[DifferenceView]:
    return [
        DifferenceView(
            file=d.file, json_path=d.json_path, field=d.field, stored=d.stored, recomputed=d.recomputed, why=d.why
        )
        for d in found
    ]


def owner_folder(rollup: Rollup) -> str:
    return f"{'providers' if rollup.kind == 'provider' else 'selections'}/{rollup.slug}"


def entry_paths(rollup: Rollup, record: EntryRecord) -> tuple[str, str]:
    """(page, api) output paths of an entry, below its node's folder in the tree."""
    folder = "/".join((owner_folder(rollup), *record.page_dir))
    entry_slug = slug(record.file.rsplit("/", 1)[-1].removesuffix(".json"))
    return urls.flowmcp_grading_page(folder, entry_slug), urls.flowmcp_grading_api(folder, entry_slug)


def rollup_page(rollup: Rollup) -> str:
    if rollup.kind == "provider":
        return urls.flowmcp_provider_page(rollup.slug)
    return urls.flowmcp_selection_page(rollup.slug)


def rollup_api(rollup: Rollup) -> str:
    if rollup.kind == "provider":
        return urls.flowmcp_provider_api(rollup.slug)
    return urls.flowmcp_selection_api(rollup.slug)
