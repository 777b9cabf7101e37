"""The link log's fast reading of a page (builder.engine.links) finds what a browser would: the same
targets as the plain reading — every `\\b(?:href|src)=` attribute, resolved with `posixpath` — for
random pages and references, odd ones included (dots, empty segments, escapes, schemes, words
running on before the attribute name)."""

from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.engine.links import link_targets

_ATTRIBUTE = re.compile(r"""\b(?:href|src)=(?:"([^"]*)"|'([^']*)')""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def plain_targets(page: str, text: str, base_path: str) -> set[str]:
    """Each attribute read and resolved on its own, by the general functions."""
    targets: set[str] = set()
    for match in _ATTRIBUTE.finditer(text):
        reference = html.unescape(match.group(1) if match.group(1) is not None else match.group(2))
        reference = reference.split("#", 1)[0].split("?", 1)[0]
        if not reference or reference.startswith("//") or _SCHEME.match(reference):
            continue
        reference = unquote(reference)
        if reference.startswith("/"):
            if not reference.startswith(base_path):
                targets.add(reference)
                continue
            resolved = posixpath.normpath(reference[len(base_path):] or ".")
        else:
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), reference))
        if resolved == ".." or resolved.startswith("../"):
            targets.add(reference)
            continue
        if reference.endswith("/") or resolved == ".":
            resolved = "index.html" if resolved == "." else f"{resolved}/index.html"
        targets.add(resolved)
    return targets


SEGMENTS = ["a", "b", "tools", "x.css", "..", ".", "", ".hidden", "t%20x", "a&amp;b", "é", "index.html", "...", "a b"]
TAILS = ["", "/", "#top", "?q=1", "/#f", "?a#b"]
PREFIXES = ["", "/", "/base/", "//", "../", "../../", "./", "https:", "mailto:", "/other/"]

references = st.builds(
    lambda prefix, segments, tail: prefix + "/".join(segments) + tail,
    st.sampled_from(PREFIXES), st.lists(st.sampled_from(SEGMENTS), max_size=5), st.sampled_from(TAILS),
)
attributes = st.builds(
    lambda before, name, quote, reference: f"{before}{name}={quote}{reference.replace(quote, '')}{quote}",
    st.sampled_from([" ", "<a ", "\n", "x", "data-", "_", "é", "=", '"']), st.sampled_from(["href", "src", "hrefs"]),
    st.sampled_from(['"', "'"]), references,
)
pages = st.builds(
    lambda segments: "/".join([*segments, "index.html"]),
    st.lists(st.sampled_from(["servers", "s", "tools", "t", "..", ".", ""]), max_size=4),
)


@settings(max_examples=400, deadline=None)
@given(pages, st.lists(attributes, max_size=12), st.sampled_from(["/", "/base/"]))
def test_the_fast_reading_finds_the_plain_readings_targets(page: str, parts: list[str], base_path: str) -> None:
    text = " ".join(parts) + "".join(parts)  # attributes apart, and glued onto each other
    assert link_targets(page, text, base_path) == plain_targets(page, text, base_path)


def test_plain_references_climb_from_the_pages_folder() -> None:
    text = '<a href="../../">up</a> <a href="../c/">c</a> <a href="d.css"> <a href="../../../x">out</a>'
    assert link_targets("a/b/index.html", text) == {"index.html", "a/c/index.html", "a/b/d.css", "../../../x"}


nested = st.builds(
    lambda before, name, quote, inner, reference: (
        f"{before}{name}={quote}{reference.replace(quote, '')} {inner.replace(quote, '')}{quote}"
    ),
    st.sampled_from([" ", "<a ", "x"]), st.sampled_from(["href", "src"]), st.sampled_from(['"', "'"]),
    attributes, references,
)
"""An attribute whose value holds another attribute's text (`href="a src='b'"`): the one case where
reading `href` and `src` apart could find what reading them together does not."""


@settings(max_examples=300, deadline=None)
@given(pages, st.lists(st.one_of(attributes, nested), max_size=8), st.sampled_from(["/", "/base/"]))
def test_an_attribute_inside_a_value_is_read_as_the_plain_reading_reads_it(
    page: str, parts: list[str], base_path: str,
) -> None:
    text = " ".join(parts) + "".join(parts)
    assert link_targets(page, text, base_path) == plain_targets(page, text, base_path)


def test_a_value_holding_an_attribute_is_one_reference() -> None:
    assert link_targets("index.html", """<a href="x src='y'">""") == {"x src='y'"}
    assert link_targets("index.html", """<img src='a href="b"'>""") == {'a href="b"'}
