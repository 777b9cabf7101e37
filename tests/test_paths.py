"""Names to paths, and the writer that refuses to leave the output folder (property-based)."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder import urls
from builder.engine.write import DuplicateOutput, FolderWriter, MemoryWriter

names = st.text(min_size=1, max_size=300)


@given(names)
def test_slug_is_one_safe_segment(name: str) -> None:
    segment = urls.slug(name)
    assert segment and segment not in (".", "..")
    assert all(ch in "abcdefghijklmnopqrstuvwxyz0123456789_-" for ch in segment)
    assert len(segment) <= 72
    assert urls.slug(name) == segment  # stable


@given(names, names)
def test_distinct_names_get_distinct_slugs(a: str, b: str) -> None:
    if a != b:
        assert urls.slug(a) != urls.slug(b)


@pytest.mark.parametrize(
    "group",
    [
        ["get_me", "Get_Me", "GET_ME", "get-me"],
        ["a/b", "a\\b", "a..b", "a b", "a\x00b", "a\nb"],
        ["..", ".", "/", "\\", "x" * 400, "x" * 401],
        ["café", "cafe", "CAFÉ", "caf\u0065\u0301"],
    ],
)
def test_lookalike_names_do_not_collide(group: list[str]) -> None:
    slugs = [urls.slug(name) for name in group]
    assert len(set(slugs)) == len(group)
    assert all("/" not in s and "\\" not in s and s not in (".", "..") for s in slugs)


def test_a_plain_name_keeps_its_own_path() -> None:
    assert urls.slug("get_me") == "get_me"
    assert urls.slug("list-issues") == "list-issues"


@given(st.lists(names, min_size=1, max_size=3))
def test_page_paths_stay_inside_the_site(parts: list[str]) -> None:
    path = urls.tool_page(urls.slug(parts[0]), urls.slug(parts[-1]))
    assert urls.check_output_path(path) == path
    normal = posixpath.normpath(path)
    assert not normal.startswith("..") and not normal.startswith("/")


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../../b", "a//b", "a\\b", "a/./b", "", "a\x00"])
def test_writer_refuses_unsafe_paths(bad: str, tmp_path: Path) -> None:
    writer = FolderWriter(tmp_path / "site")
    with pytest.raises(ValueError):
        writer.write(bad, "x")
    writer.abort()
    assert sorted(os.listdir(tmp_path)) == []


def _safe_by_segments(path: str) -> bool:
    """The definition `check_output_path` implements with string tests: relative, no backslash or
    NUL, and no empty, `.` or `..` segment."""
    if not path or path.startswith("/") or "\\" in path or "\x00" in path:
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))


@settings(max_examples=500)
@given(st.lists(st.sampled_from(["a", "b.c", ".", "..", "", "...", ".a", "a.", "\\", "\x00", "/"]), max_size=6))
def test_output_path_check_matches_its_definition(parts: list[str]) -> None:
    path = "/".join(parts)
    if _safe_by_segments(path):
        assert urls.check_output_path(path) == path
    else:
        with pytest.raises(ValueError):
            urls.check_output_path(path)


def test_writer_refuses_the_same_path_twice() -> None:
    writer = MemoryWriter()
    writer.write("a/index.html", "one")
    with pytest.raises(DuplicateOutput):
        writer.write("a/index.html", "two")
    assert writer.text("a/index.html") == "one"


@pytest.mark.parametrize(
    ("page", "target", "link"),
    [
        ("index.html", "servers/index.html", "servers/"),
        ("servers/x/index.html", "servers/index.html", "../"),
        ("servers/x/tools/y/index.html", "index.html", "../../../../"),
        ("servers/x/tools/y/index.html", "static/site.css", "../../../../static/site.css"),
        ("servers/x/index.html", "servers/x/index.html", "./"),
        ("index.html", "index.html", "./"),
    ],
)
def test_relative_links(page: str, target: str, link: str) -> None:
    assert urls.relative(page, target) == link


@settings(max_examples=50)
@given(st.lists(st.sampled_from(["a", "b", "index.html", "c"]), min_size=1, max_size=4))
def test_relative_links_resolve_to_their_target(parts: list[str]) -> None:
    page = "servers/p/q/index.html"
    target = "/".join(parts)
    if urls.check_output_path(target) and not target.endswith("/"):
        link = urls.relative(page, target)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), link))
        expected = target[: -len("index.html")].rstrip("/") if target.endswith("index.html") else target
        assert resolved == (expected or ".")


def test_plan_check_refuses_duplicate_paths() -> None:
    from builder.engine.plan import Plan
    from builder.pages.page import DataFile, Page, PageContext

    Plan([Page("a/index.html", "x.html", PageContext(title="t")), DataFile("b.json", "{}")]).check()
    with pytest.raises(ValueError, match="same path"):
        Plan([DataFile("b.json", "{}"), DataFile("b.json", "[]")]).check()


def test_a_render_workers_writer_claims_each_path_once_and_refuses_an_unsafe_one(tmp_path: Path) -> None:
    """The writers the reader workers render with go through the one writer protocol, `reserve` included."""
    from builder.engine.artifact import open_worker_writer
    from builder.engine.write import DuplicateOutput

    for kind in ("folder", "tar"):
        staging = tmp_path / kind
        staging.mkdir()
        writer = open_worker_writer((kind, staging, tmp_path / f"previous-{kind}"))
        try:
            writer.write("a/index.html", "<p>one</p>")
            with pytest.raises(DuplicateOutput, match="same path"):
                writer.write("a/index.html", "<p>two</p>")
            with pytest.raises(ValueError, match="unsafe output path"):
                writer.write("../outside.html", "<p>out</p>")
            assert list(writer.paths) == ["a/index.html"]
        finally:
            writer.close()
    assert not (tmp_path / "outside.html").exists()


def test_a_duplicate_path_stops_the_build_before_any_worker_renders(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every output path is checked before anything is rendered, a worker's outputs too: a
    corpus-wide output that takes the path of a server page a worker holds stops the build before
    the workers are set rendering, and nothing is published."""
    import builder.build as build_module
    from builder.config import SiteConfig
    from builder.pages.page import DataFile

    planned = build_module.site_outputs
    taken: list[str] = []

    def with_a_duplicate(present: list[build_module.Corpus], *args: object, **kwargs: object) -> list[object]:
        outputs = planned(present, *args, **kwargs)  # type: ignore[arg-type]
        (held_by_workers,) = build_module.owned_rows(present)  # the server pages the workers hold
        owned = next(iter(held_by_workers.page_paths()))
        taken.append(owned)
        return [*outputs, DataFile(owned, "{}")]

    started: list[int] = []
    start_owned = build_module.start_owned

    def counted(*args: object, **kwargs: object) -> int:
        started.append(1)
        return start_owned(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "site_outputs", with_a_duplicate)
    monkeypatch.setattr(build_module, "start_owned", counted)
    out = tmp_path / "site"
    with pytest.raises(ValueError, match="same path"):
        build_module.build(Path(__file__).resolve().parent.parent / "data", out, SiteConfig(), workers=2,
                           search=False)
    assert taken and not started
    assert not out.exists()
