"""Pickling page contexts (pydantic models) with less work per model.

A worker pickles the contexts of the pages it planned and unpickles them when it renders them
(builder.engine.records `_OutputStore`): some three hundred pydantic models a server. pydantic's
own `__getstate__` builds a dict of four entries for each model, and `__setstate__` reads them back
one by one. Here a model with neither extra fields nor private attributes (every view and context
of the site) is reduced to its class, its `__dict__` and its fields set, and rebuilt by setting
the same four slots `__setstate__` sets: the unpickled model is the same as pydantic's own
unpickling makes it. Any other model is pickled by pydantic's own means.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from typing import Any

from pydantic import BaseModel

_set = object.__setattr__


def _rebuilt(cls: type[BaseModel], values: dict[str, Any], fields_set: set[str]) -> BaseModel:
    """What `BaseModel.__setstate__` makes of a model's state without extra or private values."""
    model = cls.__new__(cls)
    _set(model, "__pydantic_fields_set__", fields_set)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    _set(model, "__dict__", values)
    return model


def _reduced(model: BaseModel) -> Any:
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)  # pydantic's own state
    return _rebuilt, (type(model), model.__dict__, model.__pydantic_fields_set__)


class _Reducers(dict):  # type: ignore[type-arg]
    """The pickler's dispatch table: copyreg's, and every pydantic model class, found as it is met."""

    def __missing__(self, cls: type) -> Any:
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            self[cls] = _reduced
            return _reduced
        raise KeyError(cls)


_REDUCERS = _Reducers(copyreg.dispatch_table)


def dumps(value: Any) -> bytes:
    """`pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)`, pydantic models reduced as above;
    read back by `pickle.loads`."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(value)
    return buffer.getvalue()
