"""Templates read only what their context models define.

A page's pydantic context is its template's contract (STYLE.md §2). StrictUndefined catches a
missing name only on a page that reaches it; this test reads every template instead: it builds
`data/` once, records which context model each template was rendered with, then walks the
template's syntax tree (and every template it extends, includes or imports) and checks each
`name.a.b…` chain against the types of its name (tests/template_types.py): the context models, the
renderer's globals, loop variables (the iterated value's element type), `set` and `with` names,
macro parameters (the union of what their call sites pass, across imports), through Optional, and
each free name against the renderer's globals. A field renamed in a model and not in its template
fails here, whatever page happens to show it.

Of the 1,649 chains the templates hold, 1,610 are followed to their last attribute (576 were, when
only chains rooted at a context name were checked); the other 39 each stop for a named reason: a
value of dict[str, Any], a dict's keys, a namespace() the template sets itself.
`test_every_chain_is_followed_or_says_why` fails if coverage falls.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus import definition, report, scores, tool_score, write_capture
from jinja2 import ChoiceLoader, DictLoader, Environment, meta, nodes
from pydantic import BaseModel
from site_helpers import build_in_memory
from template_annotations import attribute
from template_types import FOLLOWED, ChainKey, Walk

from builder.config import SiteConfig
from builder.engine.assets import TEMPLATES
from builder.engine.render import Renderer
from builder.tdqs.pages.search_fields import SearchTool, ServerSearchDoc
from builder.tdqs.pages.server import StepView

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
    for module in tree.find_all(nodes.Import):
        bound.add(module.target)
    for imported in tree.find_all(nodes.FromImport):
        bound.update(name if isinstance(name, str) else name[1] for name in imported.names)
    for binder in tree.find_all((nodes.Macro, nodes.AssignBlock)):
        bound.update(name.name for name in binder.find_all(nodes.Name) if name.ctx == "store")
        if isinstance(binder, nodes.Macro):
            bound.add(binder.name)
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


@pytest.fixture(scope="module")
def walked(rendered: dict[str, set[tuple[str, type]]], renderer: Renderer) -> Walk:
    """Every rendered template walked with its contexts' types, then every macro with its call sites'."""
    walk = Walk(renderer.env)
    for template, contexts in sorted(rendered.items()):
        context: dict[str, frozenset[Any]] = defaultdict(frozenset)
        for name, model in contexts:
            context[name] |= {model}
        walk.template(template, walk.tree(template), dict(context))
    walk.settle()
    return walk


def _all_chains(renderer: Renderer) -> Counter[ChainKey]:
    """Every `name.a.b…` chain of every template on disk, counted as often as it is written."""
    chains: Counter[ChainKey] = Counter()
    for path in sorted(TEMPLATES.rglob("*.html")):
        if "static" in path.parts or "new" in path.parts:
            continue
        name = path.relative_to(TEMPLATES).as_posix()
        tree = renderer.env.parse(path.read_text(encoding="utf-8"))
        chains.update((name, line, root, tuple(attributes)) for root, attributes, line in _outermost_chains(tree))
    return chains


KNOWN_GAPS: dict[str, str] = {}
"""Mismatches the checker finds that the models' types allow but the builder is believed never to
produce, each with why: the test fails when one disappears (remove it then) or a new one appears."""


def test_templates_read_only_what_their_contexts_define(walked: Walk) -> None:
    problems = sorted(walked.problems | walked.undefined_macros())
    unexplained = [problem for problem in problems if not any(gap in problem for gap in KNOWN_GAPS)]
    assert unexplained == []
    assert all(any(gap in problem for problem in problems) for gap in KNOWN_GAPS), "a known gap is gone"


FOLLOWED_AT_LEAST = 1610
"""How many of the templates' chains the checker follows (of CHAINS): coverage may not fall."""
CHAINS = 1649


def test_every_chain_is_followed_or_says_why(walked: Walk, renderer: Renderer) -> None:
    """Each chain of each template is followed to its last attribute, or stops for a named reason
    (a dict[str, Any] value, a namespace's attribute): none is passed over unseen."""
    chains = _all_chains(renderer)
    unseen = sorted(f"{key[0]}:{key[1]} {key[2]}.{'.'.join(key[3])}" for key in chains if key not in walked.outcomes)
    assert unseen == []
    followed = sum(count for key, count in chains.items() if FOLLOWED in walked.outcomes[key])
    reasons = Counter(
        reason for key, count in chains.items() if FOLLOWED not in walked.outcomes[key]
        for reason in sorted(walked.outcomes[key])[:1] for _ in range(count)
    )
    assert all(reason for reason in reasons)
    print(f"{followed} of {sum(chains.values())} chains followed; the rest: {dict(reasons)}")
    assert sum(chains.values()) == CHAINS
    assert followed >= FOLLOWED_AT_LEAST


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
    assert attribute(model, "no_such_field_anywhere") == f"{model.__name__}.no_such_field_anywhere"
    assert attribute(model, "title") == frozenset({str})


def _walk_strings(templates: dict[str, str], context: dict[str, Any]) -> Walk:
    """The checker run over in-memory templates (the first is the one rendered) with `context`'s
    names typed as given: real models, no page built."""
    walk = Walk(Environment(loader=DictLoader(templates)))
    first = next(iter(templates))
    walk.template(first, walk.tree(first), {name: frozenset({kind}) for name, kind in context.items()})
    walk.settle()
    return walk


DOC = {"doc": ServerSearchDoc}


def test_the_check_finds_a_misspelt_field_of_a_loop_variable() -> None:
    assert _walk_strings({"t": "{% for t in doc.tools %}{{ t.name }}{% endfor %}"}, DOC).problems == set()
    found = _walk_strings({"t": "{% for t in doc.tools %}{{ t.nmae }}{% endfor %}"}, DOC).problems
    assert found == {"t:1 reads t.nmae: no SearchTool.nmae"}
    nested = "{% for d in docs %}{% for t in d.tools %}{{ loop.index }}{{ t.slug.upper() }}{{ t.slgu }}{% endfor %}{% endfor %}"
    assert _walk_strings({"t": nested}, {"docs": tuple[ServerSearchDoc, ...]}).problems == {"t:1 reads t.slgu: no SearchTool.slgu"}
    for sequence in (Sequence[SearchTool], tuple[SearchTool, ...], set[SearchTool] | None):
        assert _walk_strings({"t": "{% for t in ts %}{{ t.nmae }}{% endfor %}"}, {"ts": sequence}).problems == {
            "t:1 reads t.nmae: no SearchTool.nmae"
        }
    assert _walk_strings({"t": "{% for t in doc.tools %}{{ loop.indx }}{% endfor %}"}, DOC).problems == {
        "t:1 reads loop.indx: no LoopContext.indx"
    }


def test_the_check_unpacks_tuples_and_dict_items() -> None:
    pairs = "{% for name, t in pairs %}{{ name.upper() }}{{ t.nmae }}{% endfor %}"
    assert _walk_strings({"t": pairs}, {"pairs": list[tuple[str, SearchTool]]}).problems == {
        "t:1 reads t.nmae: no SearchTool.nmae"
    }
    items = "{% for k, t in tools.items() %}{{ k.nmae }}{{ t.compact }}{% endfor %}"
    assert _walk_strings({"t": items}, {"tools": dict[str, SearchTool]}).problems == {"t:1 reads k.nmae: no str.nmae"}


def test_the_check_finds_a_misspelt_field_through_optional_and_set() -> None:
    assert _walk_strings({"t": "{{ d.about.upper() }}{{ d.nmae }}"}, {"d": ServerSearchDoc | None}).problems == {
        "t:1 reads d.nmae: no ServerSearchDoc.nmae"
    }
    assert _walk_strings({"t": "{{ doc.about.upper() }}{{ doc.about.nmae }}"}, DOC).problems == {
        "t:1 reads doc.about.nmae: no str.nmae"
    }
    assert _walk_strings({"t": "{% set d = doc %}{{ d.display_nmae }}"}, DOC).problems == {
        "t:1 reads d.display_nmae: no ServerSearchDoc.display_nmae"
    }
    listed = "{% set ts = doc.tools | reverse | list %}{% for t in ts %}{{ t.tier_txt }}{% endfor %}"
    assert _walk_strings({"t": listed}, DOC).problems == {"t:1 reads t.tier_txt: no SearchTool.tier_txt"}


def test_the_check_finds_a_misspelt_field_of_a_macro_parameter() -> None:
    local = "{% macro m(x, y=None) %}{{ x.nmae }}{% endmacro %}{% for t in doc.tools %}{{ m(t) }}{% endfor %}"
    assert _walk_strings({"t": local}, DOC).problems == {"t:1 reads x.nmae: no SearchTool.nmae"}
    # Across an import, by keyword, and the union of the call sites' types.
    library = "{% macro m(x) %}{{ x.compact }}{{ x.tier_text }}{% endmacro %}"
    page = "{% import 'lib' as l %}{% from 'lib' import m %}{{ l.m(x=doc) }}{% for t in doc.tools %}{{ m(t) }}{% endfor %}"
    assert _walk_strings({"t": page, "lib": library}, DOC).problems == set()
    library = "{% macro m(x) %}{{ x.compact }}{{ x.slug }}{% endmacro %}"
    assert _walk_strings({"t": page, "lib": library}, DOC).problems == {"lib:1 reads x.slug: no ServerSearchDoc.slug"}
    assert _walk_strings({"t": "{% import 'lib' as l %}{{ l.n(doc) }}", "lib": library}, DOC).problems == {
        "t:1 reads l.n: no lib.n"
    }


def test_the_check_follows_call_blocks_with_and_tagged_unions() -> None:
    called = "{% macro m(x) %}{{ x.nmae }}{{ caller() }}{% endmacro %}{% call m(doc) %}hi{% endcall %}"
    assert _walk_strings({"t": called}, DOC).problems == {"t:1 reads x.nmae: no ServerSearchDoc.nmae"}
    assert _walk_strings({"t": "{% with d = doc %}{{ d.nmae }}{% endwith %}"}, DOC).problems == {
        "t:1 reads d.nmae: no ServerSearchDoc.nmae"
    }
    # Narrowed by its tag, a milestone's tools are fine; a pattern's count is, a coherence step's is not.
    tagged = ("{% for s in steps %}{% if s.kind == 'tools' %}{{ s.tools }}{% elif s.kind == 'pattern' %}"
              "{{ s.count }}{% else %}{{ s.count }}{% endif %}{% endfor %}")
    assert _walk_strings({"t": tagged}, {"steps": list[StepView]}).problems == {
        "t:1 reads s.count: no CoherenceStepView.count"
    }


def test_a_macro_parameter_given_only_literals_is_not_followed_and_says_so() -> None:
    walk = _walk_strings({"t": "{% macro m(x) %}{{ x.anything }}{% endmacro %}{{ m('a') }}{{ m(x=2) }}"}, {})
    assert walk.problems == set()
    assert walk.outcomes[("t", 1, "x", ("anything",))] == {"x is a literal int or a literal str"}


def test_the_check_finds_a_misspelt_field_in_a_real_template(rendered: dict[str, set[tuple[str, type]]]) -> None:
    """tdqs_server.html as it is, then with its loop variable's field misspelt in memory."""
    source = (TEMPLATES / "search" / "tdqs_server.html").read_text(encoding="utf-8")
    context = {name: model for name, model in rendered["search/tdqs_server.html"]}
    assert _walk_strings({"s": source}, context).problems == set()
    broken = source.replace("{{ t.tier_text }}", "{{ t.tier_txet }}")
    assert broken != source
    assert {problem.split(" reads ")[1] for problem in _walk_strings({"s": broken}, context).problems} == {
        "t.tier_txet: no SearchTool.tier_txet"
    }


def test_the_check_finds_a_misspelt_field_of_a_real_macro_parameter(
    rendered: dict[str, set[tuple[str, type]]], renderer: Renderer
) -> None:
    """flowmcp/_flowmcp.html's node_cells, imported with context by the FlowMCP pages and passed
    page fields and loop variables, with one field misspelt in memory."""
    name = "flowmcp/_flowmcp.html"
    source = renderer.env.loader.get_source(renderer.env, name)[0]  # type: ignore[union-attr]
    broken = source.replace("{% if n.reason %}", "{% if n.reasno %}")
    assert broken != source
    environment = Environment(loader=ChoiceLoader([DictLoader({name: broken}), renderer.env.loader]))  # type: ignore[list-item]
    environment.globals.update(renderer.env.globals)
    environment.filters.update(renderer.env.filters)
    walk = Walk(environment)
    for template in ("flowmcp/provider.html", "flowmcp/selection.html"):
        walk.template(template, walk.tree(template), {bound: frozenset({model}) for bound, model in rendered[template]})
    walk.settle()
    found = {problem for problem in walk.problems if "reasno" in problem}
    assert found == {f"{name}:29 reads n.reasno: no NodeView.reasno"}
    assert walk.problems - found == set()
