"""The demo corpus generator: the files it writes, their exact counts, their history, and what it
refuses to do. One small corpus is generated per module and read back as a real consumer would,
with tdqs's own models and functions; nothing here asks the generator what it meant to write."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from tdqs import (
    ScoreReport,
    ToolDefinition,
    compute_context_signals,
    find_shadow_candidates,
    stringify_json,
)
from tdqs.find_shadow_candidates import CostedTool

from scorecards_demo.generate import generate_demo

SERVERS = 24
TOOLS = 300
HISTORY_SHARE = 0.5


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "corpus"
    generate_demo(out, servers=SERVERS, tools=TOOLS, seed=7, history_share=HISTORY_SHARE, workers=1)
    return out


def _tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _server_folders(root: Path) -> list[Path]:
    return sorted(path for path in (root / "servers").iterdir() if path.is_dir())


def _captures(folder: Path) -> list[tuple[ScoreReport, list[dict[str, object]]]]:
    """Every capture of a server, oldest first: the validated report and the tools it scored."""
    captures = []
    for score_file in sorted(folder.glob("*.score.json")):
        report = ScoreReport.model_validate_json(score_file.read_text(encoding="utf-8"))
        tools_file = score_file.with_name(score_file.name.replace(".score.json", ".tools.json"))
        captures.append((report, json.loads(tools_file.read_text(encoding="utf-8"))["tools"]))
    return captures


def _all_captures(root: Path) -> Iterator[tuple[Path, ScoreReport, list[dict[str, object]]]]:
    for folder in _server_folders(root):
        for report, tools in _captures(folder):
            yield folder, report, tools


def test_the_same_arguments_give_byte_identical_files_with_any_number_of_workers(corpus: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate_demo(again, servers=SERVERS, tools=TOOLS, seed=7, history_share=HISTORY_SHARE, workers=2)
    assert _tree(again) == _tree(corpus)


def test_another_seed_gives_another_corpus(corpus: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    generate_demo(other, servers=SERVERS, tools=TOOLS, seed=8, history_share=HISTORY_SHARE, workers=1)
    assert _tree(other) != _tree(corpus)


def test_exact_server_and_current_tool_counts(corpus: Path) -> None:
    folders = _server_folders(corpus)
    assert len(folders) == SERVERS
    current = [len(_captures(folder)[-1][1]) for folder in folders]
    assert sum(current) == TOOLS
    assert min(current) >= 1
    assert max(current) <= 500


def test_every_report_validates_and_matches_the_tools_beside_it(corpus: Path) -> None:
    for folder, report, tools in _all_captures(corpus):
        assert report.model == "stand-in/deterministic-v1"
        assert report.spec_version == "1.2"
        assert report.server.name == folder.name
        assert report.server.tool_count == len(tools) == len(report.tools)
        for score, definition in zip(report.tools, tools, strict=True):
            assert score.name == definition["name"]
            expected = compute_context_signals(ToolDefinition.model_validate(definition))
            assert score.context_signals.input_hash == expected.input_hash
            assert score.context_signals == expected


def test_file_names_come_from_the_reports_timestamps_and_server_ids_are_safe(corpus: Path) -> None:
    for folder in _server_folders(corpus):
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", folder.name)
        for score_file in folder.glob("*.score.json"):
            report = ScoreReport.model_validate_json(score_file.read_text(encoding="utf-8"))
            # 2026-05-14T09:30:00.000Z is stored as 2026-05-14T09-30-00Z.
            date, time = report.generated_at.removesuffix(".000Z").split("T")
            assert score_file.name == f"{date}T{time.replace(':', '-')}Z.score.json"
            assert report.generated_at < "2026-06-01T00:00:00.000Z"


def test_files_are_written_exactly_as_tdqs_score_writes_json(corpus: Path) -> None:
    for path in sorted(corpus.rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert text == stringify_json(json.loads(text), indent=2) + "\n", path
        if path.name.endswith(".score.json"):
            report = ScoreReport.model_validate_json(text)
            assert text == stringify_json(report.model_dump(mode="json"), indent=2) + "\n"


def test_server_json_has_the_documented_fields(corpus: Path) -> None:
    for folder in _server_folders(corpus):
        server = json.loads((folder / "server.json").read_text(encoding="utf-8"))
        fields = ["id", "displayName", "description", "repositoryUrl", "homepageUrl"]
        assert list(server) in (fields, [*fields, "categories"])
        assert server["id"] == folder.name
        assert server["displayName"] and server["description"]
        for key in ("repositoryUrl", "homepageUrl"):
            assert server[key] is None or server[key].startswith("https://")


def test_a_share_of_servers_has_history_and_unchanged_tools_keep_hash_and_scores(corpus: Path) -> None:
    capture_counts = [len(_captures(folder)) for folder in _server_folders(corpus)]
    assert sum(count > 1 for count in capture_counts) == round(HISTORY_SHARE * SERVERS)
    assert max(capture_counts) <= 3

    kept = changed = 0
    for folder in _server_folders(corpus):
        captures = _captures(folder)
        for (old_report, old_tools), (new_report, new_tools) in pairwise(captures):
            assert old_report.generated_at < new_report.generated_at
            old = {tool["name"]: (tool, score) for tool, score in zip(old_tools, old_report.tools, strict=True)}
            new = {tool["name"]: (tool, score) for tool, score in zip(new_tools, new_report.tools, strict=True)}
            assert old_tools != new_tools, "two captures with nothing changed"
            came_or_went = set(old) ^ set(new)
            for name in set(old) & set(new):
                (old_tool, old_score), (new_tool, new_score) = old[name], new[name]
                if old_tool != new_tool:
                    assert old_score.context_signals.input_hash != new_score.context_signals.input_hash
                    changed += 1
                    continue
                kept += 1
                assert old_score.context_signals.input_hash == new_score.context_signals.input_hash
                description = str(new_tool.get("description") or "")
                if not any(sibling in description for sibling in came_or_went):
                    assert old_score.scores == new_score.scores
                    assert old_score.justifications == new_score.justifications
    assert kept > changed > 0


def test_confirmed_shadowing_risks_are_prefilter_candidates_on_the_dearer_tool(corpus: Path) -> None:
    for _, report, _ in _all_captures(corpus):
        candidates = {
            (candidate.tool, candidate.cheaper_sibling)
            for candidate in find_shadow_candidates(
                CostedTool(invocation_cost=tool.context_signals.invocation_cost, name=tool.name)
                for tool in report.tools
            )
        }
        for risk in report.server_score.shadowing_risks:
            assert (risk.tool, risk.cheaper_sibling) in candidates
            assert risk.invocation_cost > risk.cheaper_sibling_invocation_cost
        flagged = {tool.name for tool in report.tools if tool.server_flags == ["Shadowing Risk"]}
        assert flagged == {risk.tool for risk in report.server_score.shadowing_risks}


def test_progress_is_reported_up_to_the_total(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    generate_demo(
        tmp_path / "out", servers=5, tools=20, workers=1, progress=lambda done, total: calls.append((done, total))
    )
    assert calls[-1] == (5, 5)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert {total for _, total in calls} == {5}


def test_refuses_a_non_empty_folder_that_is_not_a_demo_output(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(ValueError, match="not a previous demo output"):
        generate_demo(out, servers=2, tools=4, workers=1)
    assert sorted(path.name for path in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_refuses_a_file_in_place_of_the_folder(tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match="not a folder"):
        generate_demo(out, servers=2, tools=4, workers=1)


def test_refuses_impossible_sizes_before_touching_the_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one"):
        generate_demo(tmp_path / "a", servers=5, tools=4, workers=1)
    with pytest.raises(ValueError, match="500"):
        generate_demo(tmp_path / "b", servers=2, tools=1001, workers=1)
    assert list(tmp_path.iterdir()) == []


def test_regenerating_replaces_only_its_own_servers_and_writes_nothing_outside(tmp_path: Path) -> None:
    out = tmp_path / "data"
    generate_demo(out, servers=3, tools=9, seed=1, workers=1)
    other_system = out / "grading-data" / "entry.json"
    other_system.parent.mkdir()
    other_system.write_text("{}", encoding="utf-8")
    generate_demo(out, servers=2, tools=5, seed=2, workers=1)
    fresh = tmp_path / "fresh"
    generate_demo(fresh, servers=2, tools=5, seed=2, workers=1)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data", "fresh"]
    assert other_system.read_text(encoding="utf-8") == "{}"
    tree = _tree(out)
    del tree["grading-data/entry.json"]
    assert tree == _tree(fresh)


def _domain_labels() -> list[str]:
    """The kinds of server, read from the generator's data file as any reader would."""
    import tomllib

    data = Path(__file__).resolve().parents[1] / "scorecards_demo" / "data" / "domains.toml"
    return [domain["label"] for domain in tomllib.loads(data.read_text(encoding="utf-8"))["domain"]]


def test_most_servers_name_their_kind_as_their_category(corpus: Path) -> None:
    labels = _domain_labels()
    named = 0
    for folder in _server_folders(corpus):
        server = json.loads((folder / "server.json").read_text(encoding="utf-8"))
        if "categories" not in server:
            continue
        named += 1
        [category] = server["categories"]
        # The description names the server's kind ("…, an issue tracker: …"); so does its category.
        assert category.lower() in [label.lower() for label in labels]
        assert f" {category.lower()}" in server["description"].lower(), (category, server["description"])
    assert SERVERS * 3 // 4 <= named <= SERVERS


def test_forks_share_a_name_under_other_ids_and_change_nothing_else(tmp_path: Path) -> None:
    from scorecards_demo.plan import plan_corpus

    plain = plan_corpus(servers=40, tools=200, seed=3, history_share=0.3, fork_share=0.0)
    forked = plan_corpus(servers=40, tools=200, seed=3, history_share=0.3, fork_share=0.5)
    names = [plan.display_name for plan in forked]
    repeated = {name for name in names if names.count(name) > 1}
    assert repeated and len({plan.server_id for plan in forked}) == 40
    for before, after in zip(plain, forked, strict=True):
        assert (before.server_id, before.tool_count, before.captures, before.domain, before.repository_url) == (
            after.server_id, after.tool_count, after.captures, after.domain, after.repository_url)
    for name in repeated:
        same = [plan for plan in forked if plan.display_name == name]
        assert len({plan.domain for plan in same}) == 1  # a fork is of its own kind
        assert len({plan.repository_url for plan in same if plan.repository_url}) == len(
            [plan for plan in same if plan.repository_url])
