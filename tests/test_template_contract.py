"""Templates read only what their context models define.

A page's pydantic context is its template's contract (STYLE.md §2). StrictUndefined catches a
missing name only on a page that reaches it; this test reads every template instead: it builds
`data/` once, records which context model each template was rendered with, then walks the
template's syntax tree (and every template it extends, includes or imports) and checks each
`page.a.b…` chain against the model's fields and properties, and each free name against the
renderer's globals. A field renamed in a model and not in its template fails here, whatever page
happens to show it.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from jinja2 import meta, nodes
from pydantic import BaseModel
from site_helpers import build_in_memory

from builder.config import SiteConfig
from builder.engine.assets import TEMPLATES
from builder.engine.render import Renderer
from builder.tdqs.pages.search_fields import ServerSearchDoc

DATA = Path(__file__).resolve().parents[1] / "data"

RENDER_ARGUMENTS = {"page", "page_path"}
"""What `Renderer.render` passes besides the globals."""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[tuple[str, type]]]:
    """template name → {(the name its context is passed as, the context's class)}, from a real build."""
    seen: dict[str, set[tuple[str, type]]] = defaultdict(set)
    original_render, original_string = Renderer.render, Renderer.render_string

    def render(self: Renderer, page: Any) -> str:
        seen[page.template].add(("page", type(page.resolved())))
        return original_render(self, page)

    def render_string(self: Renderer, template_name: str, **context: Any) -> str:
        for name, value in context.items():
            seen[template_name].add((name, type(value)))
        return original_string(self, template_name, **context)

    # data/ reaches every page kind but two states: a server captured without a score, and a site
    # with nothing in it.
    unscored = tmp_path_factory.mktemp("unscored")
    scored = definition("fetch_page")
    write_capture(unscored, "scored", report("scored", [tool_score(scored, scores(4, 4, 4, 4, 4, 4))]), [scored])
    fresh = unscored / "servers" / "fresh"
    fresh.mkdir(parents=True)
    (fresh / "2026-07-01T00-00-00Z.tools.json").write_text('{"tools": [{"name": "alpha"}]}', encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Renderer, "render", render)
        patch.setattr(Renderer, "render_string", render_string)
        build_in_memory(DATA, SiteConfig(site_url="https://example.org", dispute_url="https://example.org/issues"))
        build_in_memory(unscored)
        build_in_memory(tmp_path_factory.mktemp("empty"))
    return dict(seen)


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(SiteConfig(), {})


def _family(renderer: Renderer, name: str, seen: set[str] | None = None) -> Iterator[tuple[str, nodes.Template]]:
    """The template and every template it extends, includes or imports, each once."""
    seen = set() if seen is None else seen
    if name in seen:
        return
    seen.add(name)
    source = renderer.env.loader.get_source(renderer.env, name)[0]  # type: ignore[union-attr]
    tree = renderer.env.parse(source)
    yield name, tree
    for child in meta.find_referenced_templates(tree):
        if child is not None:
            yield from _family(renderer, child, seen)


def _chain(node: nodes.Node) -> tuple[str, list[str]] | None:
    """`page.a.b` as ("page", ["a", "b"]); None for anything not rooted in a plain name."""
    names: list[str] = []
    while isinstance(node, nodes.Getattr):
        names.append(node.attr)
        node = node.node
    if isinstance(node, nodes.Name) and names:
        return node.name, names[::-1]
    return None


def _outermost_chains(tree: nodes.Template) -> Iterator[tuple[str, list[str], int]]:
    """Every longest attribute chain in the tree (`page.a.b`, not also `page.a`), with its line."""
    inner: set[int] = set()
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Getattr):
            inner.add(id(node.node))
    for node in tree.find_all(nodes.Getattr):
        if id(node) in inner:
            continue
        chain = _chain(node)
        if chain is not None:
            yield chain[0], chain[1], node.lineno


def _shadowed(tree: nodes.Template) -> set[str]:
    """Names a template binds itself (macro parameters, loop targets, set): not the context's."""
    bound: set[str] = set()
    for node in tree.find_all(nodes.Import):
        bound.add(node.target)
    for node in tree.find_all(nodes.FromImport):
        bound.update(name if isinstance(name, str) else name[1] for name in node.names)
    for node in tree.find_all((nodes.Macro, nodes.AssignBlock)):
        bound.update(name.name for name in node.find_all(nodes.Name) if name.ctx == "store")
        if isinstance(node, nodes.Macro):
            bound.add(node.name)
    for node in tree.find_all((nodes.Macro, nodes.For, nodes.Assign, nodes.CallBlock, nodes.With)):
        targets: list[nodes.Node] = []
        if isinstance(node, nodes.Macro | nodes.CallBlock):
            targets = list(node.args)
        elif isinstance(node, nodes.For | nodes.Assign):
            targets = [node.target]
        elif isinstance(node, nodes.With):
            targets = list(node.targets)
        for target in targets:
            bound.update(name.name for name in target.find_all(nodes.Name))
            if isinstance(target, nodes.Name):
                bound.add(target.name)
    return bound


def _guarded(tree: nodes.Template) -> set[str]:
    """Names the template tests with `is defined`: optional by its own say."""
    return {
        test.node.name
        for test in tree.find_all(nodes.Test)
        if test.name == "defined" and isinstance(test.node, nodes.Name)
    }


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model an attribute holds, when it holds exactly one kind of model (Optional included)."""
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        models = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(models) == 1:
            return _model_of(models[0])
    return None


def _missing(model: type, attributes: list[str]) -> str | None:
    """The first attribute of the chain the class does not have, as `Model.attr`; None when all resolve."""
    current: type | None = model
    for attribute in attributes:
        if current is None:
            return None  # past a value of no single model type (a dict, a list): not checked
        fields = current.model_fields if issubclass(current, BaseModel) else {}
        if attribute in fields:
            current = _model_of(fields[attribute].annotation)
            continue
        member = inspect.getattr_static(current, attribute, None)
        if member is None:
            if isinstance(current, type) and issubclass(current, BaseModel) and attribute.startswith("model_"):
                return None
            return f"{current.__name__}.{attribute}"
        hints = typing.get_type_hints(member.fget) if isinstance(member, property) else {}
        current = _model_of(hints.get("return"))
    return None


def test_every_page_template_was_rendered(rendered: dict[str, set[tuple[str, type]]]) -> None:
    """The build of data/ reaches every page template, so the checks below cover them all: a
    template that no page renders and no template references is dead."""
    referenced = {name for template in rendered for name, _ in _family(Renderer(SiteConfig(), {}), template)}
    on_disk = {
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if "static" not in path.parts and "new" not in path.parts
    }
    assert on_disk - referenced == set()


def test_every_template_is_given_models(rendered: dict[str, set[tuple[str, type]]]) -> None:
    """Every context a template is rendered with is a pydantic model, so the test below checks it:
    the pages' contexts and the search documents' alike (a dict would pass unchecked)."""
    untyped = sorted(f"{template}: {name} is a {kind.__name__}"
                     for template, contexts in rendered.items() for name, kind in contexts
                     if not issubclass(kind, BaseModel))
    assert untyped == []
    assert ("doc", ServerSearchDoc) in rendered["search/tdqs_server.html"]


def test_templates_read_only_what_their_contexts_define(
    rendered: dict[str, set[tuple[str, type]]], renderer: Renderer
) -> None:
    problems: list[str] = []
    for template, contexts in sorted(rendered.items()):
        names = {name for name, _ in contexts}
        family = list(_family(renderer, template))
        for member, tree in family:
            bound = _shadowed(tree)
            for root, attributes, line in _outermost_chains(tree):
                if root not in names or root in bound:
                    continue
                for name, model in contexts:
                    if name == root and issubclass(model, BaseModel) and (gap := _missing(model, attributes)):
                        problems.append(f"{member}:{line} reads {root}.{'.'.join(attributes)}: no {gap}")
    assert problems == []


def test_templates_use_no_name_the_renderer_does_not_give(
    rendered: dict[str, set[tuple[str, type]]], renderer: Renderer
) -> None:
    given = set(renderer.env.globals) | RENDER_ARGUMENTS
    problems: list[str] = []
    for template, contexts in sorted(rendered.items()):
        passed = {name for name, _ in contexts}
        family = list(_family(renderer, template))
        # An included template sees the names its includer set ({% set prov = … %}{% include %}).
        set_in_family = set().union(*(_shadowed(tree) for _, tree in family))
        for member, tree in family:
            free = meta.find_undeclared_variables(tree) - given - passed - set_in_family - _guarded(tree)
            if free:
                problems.append(f"{member} (rendered as {template}) reads {sorted(free)}")
    assert problems == []


def test_the_check_finds_a_missing_field(rendered: dict[str, set[tuple[str, type]]]) -> None:
    """The checker itself fails on a chain its model lacks (else the tests above could not fail)."""
    _template, contexts = next((name, found) for name, found in sorted(rendered.items()) if found)
    model = next(model for _, model in contexts)
    assert _missing(model, ["no_such_field_anywhere"]) == f"{model.__name__}.no_such_field_anywhere"
    assert _missing(model, ["title"]) is None
