"""builder.engine.model_pickle: a worker's page contexts, pickled with less work per pydantic model,
unpickle to the very models pydantic's own pickling gives back (class, values, fields set, extra and
private values), for every output a real server plans."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr

from builder.config import SiteConfig
from builder.engine import model_pickle
from builder.engine.problems import ProblemLog
from builder.engine.records import _resolved, read_source
from builder.tdqs.pages.section import RECORDS

ROOT = Path(__file__).resolve().parent.parent


def _state(value: Any) -> Any:
    """Everything pickling keeps of a value, models opened up to their four slots."""
    if isinstance(value, BaseModel):
        return (type(value), _state(value.__dict__), value.__pydantic_fields_set__,
                _state(value.__pydantic_extra__), _state(value.__pydantic_private__))
    if isinstance(value, dict):
        return {key: _state(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value), [_state(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return type(value), {name: _state(getattr(value, name)) for name in value.__dataclass_fields__}
    return type(value), value


class _Plain(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    rows: list[int] = []


class _Extra(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str


class _Private(BaseModel):
    name: str
    _seen: int = PrivateAttr(default=0)


def _both(value: Any) -> tuple[Any, Any]:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)), pickle.loads(model_pickle.dumps(value))


def test_models_come_back_as_pydantic_unpickles_them() -> None:
    private = _Private(name="p")
    private._seen = 3
    values = [_Plain(name="a"), _Plain(name="b", rows=[1, 2]), _Extra(name="e", more=1), private,
              {"nested": [_Plain(name="c")]}]
    ours, theirs = _both(values)
    assert _state(ours) == _state(theirs)
    assert ours[3]._seen == 3 and ours[2].more == 1
    assert ours[0].model_fields_set == {"name"} and ours[1].model_fields_set == {"name", "rows"}


def test_a_shared_model_stays_shared() -> None:
    shared = _Plain(name="s")
    ours = pickle.loads(model_pickle.dumps([shared, shared]))
    assert ours[0] is ours[1]


def test_every_output_of_real_servers_comes_back_the_same() -> None:
    data = ROOT / "data"  # the embedded corpus
    sources = RECORDS.discover(data, ProblemLog()) or []
    assert sources
    config = SiteConfig()
    models = 0
    for source in sources:
        _, outputs = read_source(RECORDS, source, data, config, None, None)
        resolved = [_resolved(output) for output in outputs]
        ours, theirs = _both(resolved)
        assert _state(ours) == _state(theirs)
        models += sum(isinstance(getattr(output, "context", None), BaseModel) for output in ours)
    assert models > 0
