"""What the build relies on that its dependencies do not promise (issue 46), each held to the version
range it was tested with (pyproject.toml) and checked here for the shape it relies on, so that a
release that changes it fails a test, with what to check again, instead of every new install:

- Jinja2: the code generator's modules import `escape` from jinja2.runtime first, which
  builder.engine.escaping rebinds (`Environment.code_generator_class` is public, its output is not);
- markupsafe: `_escape_inner`, its C (or Python) escaping of a plain str (builder.engine.escaping);
- pydantic: the four slots of a model's pickled state, which builder.engine.model_pickle sets itself;
- Pagefind: the messages of its service (builder.engine.search), which its own Python client
  declares in `pagefind.service.types`; their fields have been renamed upstream before;
- CPython: `ProcessPoolExecutor._launch_processes`, which forks an executor's processes without
  starting its manager thread (builder.engine.workers); tested on 3.11, 3.12 and 3.13.

Jinja2's `_parse` was one too: builder.engine.render now calls the public `Environment.parse`."""

from __future__ import annotations

import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]

RECHECK = {
    "jinja2": "builder.engine.escaping's EscapingCodeGenerator (the compiled module's imports) and "
              "tests/test_escaping.py",
    "markupsafe": "builder.engine.escaping's use of markupsafe._speedups._escape_inner and tests/test_escaping.py",
    "pydantic": "builder.engine.model_pickle's _rebuilt against BaseModel.__setstate__ and tests/test_model_pickle.py",
    "pagefind": "builder.engine.search's _Service messages against pagefind.service.types, and "
                "tests/test_search_shards.py (the index against the one Pagefind's own client makes)",
}
"""What to check again before a dependency's range in pyproject.toml is widened."""

TESTED_PYTHONS = [(3, 11), (3, 12), (3, 13)]


def requirements() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = (Requirement(line) for line in project["dependencies"])
    return {requirement.name.lower(): requirement for requirement in found}


@pytest.mark.parametrize("name", sorted(RECHECK))
def test_the_installed_version_is_in_the_tested_range(name: str) -> None:
    requirement = requirements()[name]
    ceilings = [spec for spec in requirement.specifier if spec.operator == "<"]
    assert ceilings, f"{name}: its range in pyproject.toml has no ceiling; it is relied on past its promises"
    installed = Version(version(name))
    assert requirement.specifier.contains(installed), (
        f"{name} {installed} is installed, outside the tested range {requirement.specifier}: check {RECHECK[name]} "
        f"again, then widen the range in pyproject.toml")


def test_pagefind_bin_is_the_same_release_as_its_client() -> None:
    assert version("pagefind-bin") == version("pagefind")


def test_a_compiled_template_imports_jinjas_escape_before_ours() -> None:
    from builder.config import SiteConfig
    from builder.engine.render import Renderer

    source = Renderer(SiteConfig(), {}).env.compile("{{ x }}", raw=True)
    lines = source.splitlines()
    runtime = next(i for i, line in enumerate(lines) if line.startswith("from jinja2.runtime import "))
    assert "escape" in lines[runtime].removeprefix("from jinja2.runtime import ").split(", "), lines[runtime]
    ours = lines.index("from builder.engine.escaping import escape")
    assert runtime < ours, f"check {RECHECK['jinja2']}"


def test_markupsafes_inner_escape_is_there_and_escapes_as_escape_does() -> None:
    import markupsafe

    from builder.engine import escaping

    assert escaping._escape_inner is not None, f"markupsafe has no _escape_inner: check {RECHECK['markupsafe']}"
    text = "<a href=\"x\">'&'</a>"
    assert escaping._escape_inner(text) == str(markupsafe.escape(text))


def test_pydantic_pickles_a_model_as_the_four_slots_model_pickle_sets() -> None:
    from pydantic import BaseModel

    from builder.engine.model_pickle import _rebuilt

    class Sample(BaseModel):
        name: str
        count: int = 0

    model = Sample(name="x")
    state = model.__getstate__()
    assert set(state) == {"__dict__", "__pydantic_extra__", "__pydantic_fields_set__", "__pydantic_private__"}, (
        f"pydantic's pickled state changed: check {RECHECK['pydantic']}")
    rebuilt = _rebuilt(Sample, dict(state["__dict__"]), set(state["__pydantic_fields_set__"]))
    assert rebuilt == model and rebuilt.__getstate__() == state


def test_the_messages_sent_to_pagefind_are_those_its_own_client_declares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pagefind.service import types

    from builder.engine import search

    sent: list[dict[str, Any]] = []
    send = search._send

    def recorded(pipe: Any, number: int, payload: dict[str, Any]) -> None:
        sent.append({"message_id": number, "payload": payload})
        send(pipe, number, payload)

    monkeypatch.setattr(search, "_send", recorded)
    page = '<html lang="en"><body><main data-pagefind-body><h1>Echo</h1></main></body></html>'
    index = search.SearchIndex(tmp_path / "site" / "pagefind", tmp_path / "source" / "search-documents")
    index.add([("servers/echo/index.html", page)])
    index.wait()
    assert (tmp_path / "site" / "pagefind" / "pagefind.js").is_file()
    declared = {
        "NewIndex": types.InternalNewIndexRequest, "AddFile": types.InternalAddFileRequest,
        "GetFiles": types.InternalGetFilesRequest,
    }
    assert [message["payload"]["type"] for message in sent] == ["NewIndex", "AddFile", "GetFiles"]
    for message in sent:
        assert set(message) == set(types.InternalServiceRequest.__annotations__)
        payload = message["payload"]
        assert set(payload) == set(declared[payload["type"]].__annotations__), (
            f"Pagefind's {payload['type']} request changed: check {RECHECK['pagefind']}")
    # The reply read back: GetFiles with its files, each a path and base64 content.
    assert set(types.InternalGetFilesResponse.__annotations__) == {"type", "files"}
    assert {"path", "content"} <= set(types.InternalSyntheticFile.__annotations__)


def test_cpython_forks_a_pool_without_starting_its_manager_thread() -> None:
    import multiprocessing

    assert sys.version_info[:2] in TESTED_PYTHONS, (
        f"Python {sys.version_info[0]}.{sys.version_info[1]} is not among those tested: check "
        "builder.engine.workers (ProcessPoolExecutor._launch_processes forks an executor's processes, "
        "and no manager thread is started before every worker is forked), then add it to the classifiers, "
        "the test workflow's matrix and TESTED_PYTHONS")
    executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    try:
        executor._launch_processes()  # type: ignore[attr-defined]
        assert executor._executor_manager_thread is None  # type: ignore[attr-defined]
        assert len(executor._processes) == 1  # type: ignore[attr-defined]
        assert executor.submit(abs, -3).result() == 3
    finally:
        executor.shutdown(wait=True)
