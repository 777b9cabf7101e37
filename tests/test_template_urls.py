"""Templates never compose a path (issue 24): every output path comes from builder.urls, through the
Jinja globals builder.engine.render exposes (`tool_page(server_slug, tool_slug)` …), and `url()` makes it a
link. A path put together in a template (`'servers/' ~ slug ~ '/index.html'`) is a second place
that knows the site's layout, and goes wrong silently when urls.py changes it.

The check reads the template files as text: a string literal joined with `~` that looks like a
part of a path (it holds a `/`, a file extension such as `.json`, or `index.html`), a `format`ted
string with a `/`, or a `join('/')`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"

_JOINED = re.compile(r"""(['"])((?:(?!\1).)*)\1\s*~|~\s*(['"])((?:(?!\3).)*)\3""")
_FORMATTED = re.compile(r"""(['"])((?:(?!\1).)*/(?:(?!\1).)*)\1\s*\|\s*format\b""")
_JOIN_SLASH = re.compile(r"""join\(\s*(['"])/\1\s*\)""")
_EXTENSION = re.compile(r"\.[a-z0-9]+$")


def path_like(literal: str) -> bool:
    return "/" in literal or "index.html" in literal or bool(_EXTENSION.search(literal))


def composed_paths(text: str) -> list[str]:
    """Each place in a template's text that puts a path together, as `line: snippet`."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _JOINED.finditer(line):
            literal = match.group(2) if match.group(2) is not None else match.group(4)
            if path_like(literal):
                found.append(f"{number}: {match.group(0)}")
        found += [f"{number}: {m.group(0)}" for m in _FORMATTED.finditer(line)]
        found += [f"{number}: {m.group(0)}" for m in _JOIN_SLASH.finditer(line)]
    return found


def site_templates() -> list[Path]:
    """The Jinja templates of the site (not its static files, nor the files `scorecards new` copies)."""
    return sorted(
        path for path in TEMPLATES.rglob("*")
        if path.is_file() and path.suffix in (".html", ".xml", ".svg", ".txt")
        and path.relative_to(TEMPLATES).parts[0] not in ("static", "new")
    )


@pytest.mark.parametrize("snippet", [
    "{{ url('servers/' ~ slug ~ '/index.html') }}",
    "{% set here = 'servers/' ~ page.slug ~ '/tools/' %}",
    "{{ url(srv ~ 'index.html') }}",
    "{{ url(name ~ '.parquet') }}",
    "{{ url(\"api/\" ~ x) }}",
    "{{ url('servers/%s/index.html' | format(slug)) }}",
    "{{ url(['servers', slug] | join('/')) }}",
])
def test_a_composed_path_is_found(snippet: str) -> None:
    assert composed_paths(f"<p>\n{snippet}\n</p>") != []


@pytest.mark.parametrize("snippet", [
    "{{ url(tool_page(page.slug, t.slug)) }}",
    "{{ url('servers/index.html') }}",
    "{% with badge_alt = 'TDQS badge of ' ~ page.name %}",
    "{{ 'All ' ~ n ~ ' grading runs here were' }}",
    "{{ 'TDQS of each tool of ' ~ page.display_name ~ ', worst first' }}",
])
def test_text_and_paths_from_urls_are_not(snippet: str) -> None:
    assert composed_paths(snippet) == []


def test_the_templates_are_found() -> None:
    names = {path.relative_to(TEMPLATES).as_posix() for path in site_templates()}
    assert {"base.html", "tdqs/server.html", "tdqs/tool.html", "tdqs/downloads.html", "tdqs/changes.html"} <= names


def test_no_template_composes_a_path() -> None:
    composed = {}
    for path in site_templates():
        found = composed_paths(path.read_text(encoding="utf-8"))
        if found:
            composed[path.relative_to(TEMPLATES).as_posix()] = found
    assert composed == {}
