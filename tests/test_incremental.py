"""Incremental rebuilds: only the pages of changed servers are rendered again, and the result is
byte for byte what a cold build of the same data gives."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.build import build
from builder.config import SiteConfig


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def corpus(data: Path) -> None:
    for s in range(6):
        tools = [tool_score(definition(f"tool_{t}", f"Tool {t} of {s}."), scores(4, 3, 3 + t % 2, 3, 4, 3)) for t in range(5)]
        write_capture(data, f"server-{s}", report(f"server-{s}", tools, generated_at=f"2026-05-0{s + 1}T00:00:00.000Z"))


def test_a_rebuild_renders_only_what_changed_and_equals_a_cold_build(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    corpus(data)
    config = SiteConfig(site_url="https://example.org")
    first = build(data, out, config, search=False)
    assert first.timings["reused"] == 0

    again = build(data, out, config, search=False)
    per_server = 1 + 1 + 1 + 1 + 1 + 5  # page, API, badge.json, card.svg, feed, and a page per tool
    assert again.timings["reused"] == 6 * (per_server + 1)  # and each server's comparison (compare/<id>/)

    # server-2 gets a new capture: one tool improved, one added.
    tools = [tool_score(definition(f"tool_{t}", f"Tool {t} of 2."), scores(4, 3, 3 + t % 2, 3, 4, 3)) for t in range(5)]
    tools[0] = tool_score(definition("tool_0", "Tool 0 of 2, now said well."), scores(5, 5, 4, 4, 5, 4))
    tools.append(tool_score(definition("tool_new", "A new tool."), scores(3, 3, 3, 3, 3, 3)))
    write_capture(data, "server-2", report("server-2", tools, generated_at="2026-06-01T00:00:00.000Z"))
    rebuilt = build(data, out, config, search=False)
    # The list was server-0 … server-5 (equal scores, by id); server-2 now leads it. Of the
    # comparisons (each server beside the next up and down, or the two below or above at an end),
    # only server-5's shows the same servers as before (server-4 and server-3), none of them changed.
    assert rebuilt.timings["reused"] == 5 * per_server + 1

    cold = build(data, tmp_path / "cold", config, search=False)
    assert cold.timings["reused"] == 0
    assert tree(out) == tree(tmp_path / "cold")


def test_changed_settings_render_everything_again(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "site"
    corpus(data)
    build(data, out, SiteConfig(), search=False)
    changed = build(data, out, SiteConfig(dispute_url="https://example.org/issues/new"), search=False)
    assert changed.timings["reused"] == 0
    page = (out / "servers" / "server-0" / "index.html").read_text()
    assert "https://example.org/issues/new" in page


def test_a_manifest_takes_its_place_only_when_saved_and_never_from_a_failed_build(tmp_path: Path) -> None:
    from builder.engine.incremental import Manifest
    from builder.engine.written import Row
    from builder.pages.page import DataFile

    a, b, c = (DataFile(f"{name}/index.json", "", key=f"k-{name}") for name in "abc")
    def written(*outputs: DataFile) -> list[Row]:
        """What a build that planned `outputs` wrote, by path (builder.engine.written)."""
        return [(output.path, output.key, None, None, None, 1, 1, "sha") for output in outputs]

    def lent(manifest: Manifest, outputs: list[DataFile]) -> list[str]:
        """The paths of `outputs` the manifest finds in the previous build (`matched`)."""
        matched = manifest.matched(sorted(outputs, key=lambda o: o.path))
        return [o.path for o, previous in matched if previous is not None]

    def previous() -> set[str]:
        """What a next build could lend of a, b and c."""
        return set(lent(Manifest(out, "engine", "folder"), [a, b, c]))

    out = tmp_path / "site"
    out.mkdir()
    first = Manifest(out, "engine", "folder")
    assert lent(first, [a]) == []
    first.prepare(written(a))  # written while Pagefind indexes; the build then fails: never saved
    assert not first.path.exists()

    second = Manifest(out, "engine", "folder")
    assert previous() == set()  # the failed build's manifest is not the previous site's
    assert lent(second, [b]) == []
    second.save(written(b))  # not prepared by this build: what the failed one left is not used
    assert previous() == {b.path}
    assert set(lent(Manifest(out, "another engine", "folder"), [a, b, c])) == set()

    third = Manifest(out, "engine", "folder")
    assert lent(third, [b, c]) == [b.path]
    third.prepare(written(b, c))
    third.save()
    assert previous() == {b.path, c.path}


def _build_command(data: Path, out: Path, timings: Path, shadow: Path | None = None) -> int:
    """`scorecards build` as a process (reused outputs read from --timings); with `shadow`, a folder put first on
    the path whose dist-info says another version of an installed distribution."""
    import json
    import os
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(shadow)} if shadow else dict(os.environ)
    built = subprocess.run([sys.executable, "-m", "builder.cli", "build", str(data), "-o", str(out), "--no-search",
                            "--timings", str(timings), "-q"], env=env, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    return int(json.loads(timings.read_text())["reused"])


@pytest.mark.parametrize("distribution", ["Jinja2", "tdqs"])  # the engine's, and one a grading system names
def test_a_new_version_of_a_dependency_that_shapes_the_output_renders_everything_again(
    tmp_path: Path, distribution: str,
) -> None:
    data, out, timings = tmp_path / "data", tmp_path / "site", tmp_path / "timings.json"
    corpus(data)
    assert _build_command(data, out, timings) == 0
    unchanged = _build_command(data, out, timings)
    assert unchanged == 6 * (1 + 1 + 1 + 1 + 1 + 5 + 1)  # as in the first test: every server's outputs
    shadow = tmp_path / "shadow"
    info = shadow / f"{distribution.lower()}-99.0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 99.0.0\n")
    assert _build_command(data, out, timings, shadow) == 0  # "upgraded": nothing is lent
    assert _build_command(data, out, timings, shadow) == unchanged
    assert _build_command(data, out, timings) == 0  # and back


def test_every_runtime_dependency_is_in_the_key_or_said_not_to_shape_the_output() -> None:
    import re
    import tomllib

    from builder.engine.incremental import SHAPING
    from builder.systems import all_systems
    shaping = {*SHAPING, *(name for system in all_systems() for name in system.records.shaping)}
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    named = {re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0].lower() for requirement in project["dependencies"]}
    assert named - shaping == {"tqdm", "watchfiles"}  # progress bars and `serve --watch`
