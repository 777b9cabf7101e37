"""`scorecards diff` through the real command: a hand-made pair of data folders (tests/diff_pair.py)
whose differences are worked out here by hand, with `fractions`, not by the builder's code."""

from __future__ import annotations

import json
import math
import re
import shutil
import threading
from fractions import Fraction
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from diff_pair import HOSTILE, write_base, write_head
from shared_data import shared_file

from builder.cli import main
from builder.diff import CODES
from builder.diff.budgets import Budgets
from builder.settings import load_settings

WEIGHTS = (25, 20, 20, 15, 10, 10)
"""TDQS's dimension weights, in percent, as its specification gives them."""


def tdqs(*dimensions: int) -> Fraction:
    return round1(Fraction(sum(w * d for w, d in zip(WEIGHTS, dimensions, strict=True)), 100))


def round1(value: Fraction) -> Fraction:
    """Half up to one decimal, as the specification rounds."""
    return Fraction(math.floor(value * 10 + Fraction(1, 2)), 10)


def overall(tools: list[Fraction], coherence: list[int]) -> Fraction:
    """0.7 of description quality (0.6 mean + 0.4 minimum of the tools) and 0.3 of coherence (the mean)."""
    quality = round1(Fraction(6, 10) * sum(tools) / len(tools) + Fraction(4, 10) * min(tools))
    return round1(Fraction(7, 10) * quality + Fraction(3, 10) * round1(Fraction(sum(coherence), len(coherence))))


def exact(value: float) -> Fraction:
    return Fraction(repr(value))


def _data(folder: Path, write: object) -> Path:
    write(folder)  # type: ignore[operator]
    assert main(["index", str(folder), "-q"]) == 0
    return folder


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The two data folders and a build of each: (base build, head build)."""
    root = tmp_path_factory.mktemp("pair")
    base, head = _data(root / "base", write_base), _data(root / "head", write_head)
    for data, out in ((base, root / "base-site"), (head, root / "head-site")):
        assert main(["build", str(data), "-o", str(out), "--no-search", "--workers", "1", "-q"]) == 0
    return root / "base-site", root / "head-site"


def diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["diff", *args, "--workers", "1"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_two_data_folders_give_the_changes_worked_out_by_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no scorecards.toml: no budgets
    base, head = _data(tmp_path / "base", write_base), _data(tmp_path / "head", write_head)
    code, markdown, err = diff(capsys, str(base), str(head), "--json", str(tmp_path / "diff.json"))
    assert (code, err) == (0, "")
    found = json.loads((tmp_path / "diff.json").read_text())["systems"]["tdqs"]

    # alpha: fetch 4.0 → 2.0, store 4.0 → 3.2 (the flag caps behavioural transparency at 1).
    fetch_before, fetch_after = tdqs(4, 4, 4, 4, 4, 4), tdqs(2, 2, 2, 2, 2, 2)
    store_before, store_after = tdqs(4, 4, 4, 4, 4, 4), tdqs(4, 3, 1, 4, 4, 4)
    assert (fetch_before, fetch_after, store_after) == (4, 2, Fraction(16, 5))
    alpha_before = overall([fetch_before, store_before], [4, 4, 4, 4])
    alpha_after = overall([fetch_after, store_after], [4, 4, 4, 4])
    assert (alpha_before, alpha_after) == (4, Fraction(29, 10))  # A (3.5 and up) → C (2 to 3)

    # Largest move first: beta loses its tier (below F), alpha falls two tiers.
    assert [(m["server"], m["before"], m["after"], m["steps"]) for m in found["tierMoves"]] == [
        ("beta", "A", None, -5), ("alpha", "A", "C", -2)]
    [alpha] = found["overallScores"]
    assert (alpha["server"], exact(alpha["before"]), exact(alpha["after"])) == ("alpha", alpha_before, alpha_after)
    assert exact(alpha["delta"]) == alpha_after - alpha_before == Fraction(-11, 10)
    assert alpha["deltaText"] == "-1.1"
    assert [(t["tool"], exact(t["before"]), exact(t["after"]), exact(t["delta"]), t["tierBefore"], t["tierAfter"])
            for t in found["toolScores"]] == [
        ("fetch", fetch_before, fetch_after, fetch_after - fetch_before, "A", "C"),
        ("store", store_before, store_after, store_after - store_before, "A", "B")]
    assert exact(found["toolScores"][1]["delta"]) == Fraction(-4, 5)

    # beta: three of five tools scored, 60% < 80%.
    assert found["coverage"] == [{"server": "beta", "name": "beta", "file": "servers/beta/2026-06-02T00-00-00Z.score.json",
                                  "before": {"scored": 5, "tools": 5, "ok": True},
                                  "after": {"scored": 3, "tools": 5, "ok": False}}]
    assert [(t["server"], t["tool"]) for t in found["toolsNoLongerScored"]] == [("beta", "b4"), ("beta", "b5")]

    # Every dimension under 3 is a smell: six for fetch, behavioural transparency for store.
    six = sorted(["purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics",
                  "conciseness_structure", "contextual_completeness"])
    assert [(s["tool"], s["smell"]) for s in found["smells"]["new"]] == [
        *(("fetch", smell) for smell in six), ("store", "behavioral_transparency")]
    assert found["smells"]["cleared"] == [] and found["flags"]["cleared"] == []
    assert [(f["tool"], f["flag"]) for f in found["flags"]["new"]] == [("store", "Annotation Contradiction")]
    assert [(s["server"], s["name"]) for s in found["serversAdded"]] == [("added", HOSTILE)]
    assert [(s["server"], s["tier"], exact(s["overallScore"])) for s in found["serversRemoved"]] == [
        ("gone", "B", overall([tdqs(3, 3, 3, 3, 3, 3)], [3, 3, 3, 3]))]

    # The Markdown says the same, each table whole, the hostile name as text.
    assert "| alpha | A → C (down 2) | 4.0 → 2.9 |" in markdown
    assert "| beta | A → no tier (tier withheld) | 4.0 → — |" in markdown
    assert "| alpha | fetch | 4.0 | 2.0 | -2.0 | A → C |" in markdown
    assert "| alpha | store | 4.0 | 3.2 | -0.8 | A → B |" in markdown
    assert "<script>" not in markdown and "&lt;script&gt;" in markdown
    [row] = [line for line in markdown.splitlines() if "Pipe" in line]
    assert len(re.findall(r"(?<!\\)\|", row)) == 5  # four cells: no `|` of the name ends one
    assert "\\*bold\\*" in row


def test_the_same_builds_give_the_same_bytes_and_a_build_compared_with_itself_has_no_changes(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base, head = pair
    first = diff(capsys, str(base), str(head), "--json", str(tmp_path / "a.json"))
    second = diff(capsys, str(base), str(head), "--json", str(tmp_path / "b.json"))
    assert first == second and first[0] == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    code, markdown, _ = diff(capsys, str(base), str(base))
    assert code == 0 and "No score changes." in markdown


def test_a_tar_base_as_the_pull_request_job_keeps_it(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base, head = pair
    tar = tmp_path / "artifact.tar"
    shutil.make_archive(str(tar.with_suffix("")), "tar", base)
    built = tmp_path / "built.tar"  # as the build writes it: the manifest last, the members found where it saw them
    assert main(["build", str(base.parent / "base"), "-o", str(built), "--no-search", "--workers", "1", "-q"]) == 0
    from_folder = diff(capsys, str(base), str(head))
    for site in (tar, built):
        from_tar = diff(capsys, str(site), str(head))
        assert from_tar[0] == from_folder[0] == 0 and "### TDQS" in from_tar[1]
        assert from_tar[1].splitlines()[3:] == from_folder[1].splitlines()[3:]  # all but the line naming them


def test_a_budget_that_fails_is_named_and_exits_6(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base, head = pair
    (tmp_path / "scorecards.toml").write_text("[budgets]\ntier_drop = true\ntool_drop = 1.5\n")
    code, markdown, err = diff(capsys, str(base), str(head), "--summary", str(tmp_path / "summary.md"))
    assert code == CODES["budget-failed"] == 6
    assert err.splitlines() == ["scorecards diff: budget failed: tier_drop: beta falls from A to no tier",
                                "scorecards diff: budget failed: tier_drop: alpha falls from A to C",
                                "scorecards diff: budget failed: tool_drop: alpha fetch falls by 2, more than 1.5"]
    assert "**3 budgets failed**" in markdown and (tmp_path / "summary.md").read_text() == markdown
    (tmp_path / "scorecards.toml").write_text("[budgets]\ntool_drop = 2\n")  # 2.0 is not more than 2
    assert diff(capsys, str(base), str(head))[0] == 0


@pytest.mark.parametrize(("toml", "says"), [
    ("[budgets]\ntier_dorp = true\n", "budgets.tier_dorp: unknown key (did you mean tier_drop?)"),
    ("[budgets]\noverall_drop = \"a lot\"\n", "budgets.overall_drop: Input should be a valid number"),
    ("[budgets]\ntier_drop = 1\n", "budgets.tier_drop: Input should be a valid boolean"),
    ("budgets = true\n", "budgets: Input should be a valid dictionary or instance of Budgets"),
])
def test_budgets_with_an_unknown_key_or_a_wrong_type_are_one_line_and_exit_5(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, toml: str, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scorecards.toml").write_text(toml)
    code, out, err = diff(capsys, *map(str, pair))
    assert code == CODES["bad-budgets"] == 5 and out == ""
    assert err == f"scorecards diff: {tmp_path / 'scorecards.toml'}: {says}\n"


def test_a_base_that_is_not_a_build_exits_3_naming_it(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    base, head = pair
    empty = tmp_path / "empty"
    empty.mkdir()
    assert diff(capsys, str(empty), str(head)) == (
        3, "", f"scorecards diff: {empty}: no manifest.jsonl: not a scorecards build (nor a data folder)\n")
    cut = tmp_path / "cut"
    shutil.copytree(base, cut)
    manifest = (cut / "manifest.jsonl").read_text().splitlines(keepends=True)
    (cut / "manifest.jsonl").write_text("".join(manifest[:-1]))
    assert diff(capsys, str(cut), str(head)) == (
        3, "", f"scorecards diff: {cut}/manifest.jsonl: it is cut short (it has no end line)\n")
    tampered = tmp_path / "tampered"
    shutil.copytree(base, tampered)
    (tampered / "api" / "servers" / "alpha.json").write_text("{}")
    assert diff(capsys, str(tampered), str(head)) == (
        3, "", f"scorecards diff: {tampered}: api/servers/alpha.json: its bytes are not those its manifest lists\n")
    assert main(["diff", str(tmp_path / "nowhere"), str(head)]) == 3


def test_builds_of_different_systems_exit_4_and_cleo_grades_are_compared(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    lines = shared_file("real-cleo/GRADES.jsonl").read_bytes().splitlines(keepends=True)
    for name, kept in (("cleo-base", lines), ("cleo-head", lines[:-1])):
        (tmp_path / name / "sessions").mkdir(parents=True)
        (tmp_path / name / "sessions" / "GRADES.jsonl").write_bytes(b"".join(kept))
        assert main(["build", str(tmp_path / name), "-o", str(tmp_path / f"{name}-site"), "--no-search",
                     "--workers", "1", "-q"]) == 0
    code, _, err = diff(capsys, str(pair[0]), str(tmp_path / "cleo-base-site"))
    assert code == CODES["mixed-systems"] == 4
    assert err == (f"scorecards diff: {pair[0]} grades tdqs but {tmp_path / 'cleo-base-site'} grades cleo: "
                   "two builds of different systems cannot be compared\n")
    last = json.loads(lines[-1])  # its session has no other run: it is gone
    code, markdown, _ = diff(capsys, str(tmp_path / "cleo-base-site"), str(tmp_path / "cleo-head-site"),
                             "--json", str(tmp_path / "cleo.json"))
    assert code == 0 and "### CLEO" in markdown and "each session's current run" in markdown
    grades = json.loads((tmp_path / "cleo.json").read_text())["systems"]["cleo"]["grades"]
    assert [(g["kind"], g["name"], g["presentBefore"], g["presentAfter"]) for g in grades] == [
        ("session", last["sessionId"], True, False)]


def test_on_github_actions_each_changed_capture_gets_a_warning_on_its_file(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    write_head(repo / "data")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    code, out, _ = diff(capsys, *map(str, pair), "--data", "data", "-q")
    assert code == 0
    assert out.splitlines() == [
        "::warning file=data/servers/alpha/2026-06-02T00-00-00Z.score.json,title=Score change%3A alpha::"
        "alpha (alpha): tier A → C; overall 4.0 → 2.9 (-1.1); 2 tool scores changed; 7 new smells; 1 new flags",
        "::warning file=data/servers/beta/2026-06-02T00-00-00Z.score.json,title=Score change%3A beta::"
        "beta (beta): tier A → none; 2 tools no longer scored; coverage crossed 80%25",
        # The name from the data, one line: `%`, CR and LF escaped as the runner unescapes them.
        "::warning file=data/servers/added/2026-06-02T00-00-00Z.score.json,title=New server%3A added::"
        "Pipe | *bold* <script>alert(1)</script> 100%25%0D%0Anext: a, b (added): tier A, overall 4.0, 1 tools",
    ]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_the_published_site_by_its_url_against_a_data_folder(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As a reviewer runs it: the site as published (only the API files the manifests say differ are fetched)
    against the pull request's data folder."""
    monkeypatch.chdir(tmp_path)
    fetched: list[str] = []

    class Recording(_Quiet):
        def do_GET(self) -> None:
            fetched.append(self.path)
            super().do_GET()

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Recording, directory=str(pair[0])))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        head = _data(tmp_path / "head", write_head)
        code, _, err = diff(capsys, url, str(head), "--json", str(tmp_path / "diff.json"))
    finally:
        server.shutdown()
        server.server_close()
    assert (code, err) == (0, "")
    # The top manifest, its part for api/ (where every API file is listed), and the API files that differ.
    assert sorted(fetched) == ["/api/manifest.jsonl", "/api/servers/alpha.json", "/api/servers/beta.json",
                               "/api/servers/gone.json", "/manifest.jsonl"]
    found = json.loads((tmp_path / "diff.json").read_text())["systems"]["tdqs"]
    assert [(m["server"], m["before"], m["after"]) for m in found["tierMoves"]] == [("beta", "A", None),
                                                                                   ("alpha", "A", "C")]


@pytest.mark.parametrize(("toml", "failed"), [
    ("coverage_below_80 = true", ["coverage_below_80: beta has 3 of 5 tools scored, under 80%"]),
    ("overall_drop = 1", ["overall_drop: alpha falls by 1.1, more than 1"]),
    ("overall_drop = 1.1", []),
    ("tool_drop = 0", ["tool_drop: alpha fetch falls by 2, more than 0", "tool_drop: alpha store falls by 0.8, more than 0"]),
    ("server_removed = true", ["server_removed: gone is removed"]),
    ("", []),
])
def test_each_budget_fails_on_what_it_forbids(
        pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, toml: str, failed: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scorecards.toml").write_text(f"[budgets]\n{toml}\n")
    code, _, err = diff(capsys, *map(str, pair), "-q")
    assert code == (6 if failed else 0)
    assert err.splitlines() == [f"scorecards diff: budget failed: {line}" for line in failed]


def test_the_budgets_new_documents_are_the_defaults(tmp_path: Path) -> None:
    """Every budget line of the scorecards.toml `new` writes, uncommented, is a valid setting, each off."""
    template = (Path(__file__).resolve().parents[1] / "templates" / "new" / "scorecards.toml").read_text()
    block = template[template.index("# [budgets]"):]
    lines = [line.removeprefix("# ").split("  #")[0] for line in block.splitlines() if line.startswith("# ")]
    keys = {line.split(" = ")[0] for line in lines[1:]}
    assert keys == set(Budgets.model_fields)
    toml = tmp_path / "scorecards.toml"
    toml.write_text("\n".join(line for line in lines if "_drop" not in line) + "\n")
    assert load_settings(toml, {}).budgets == Budgets()
    toml.write_text("\n".join(lines) + "\n")
    assert load_settings(toml, {}).budgets.tool_drop == 1.0


def test_flowmcp_grades_are_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The FlowMCP examples of data/, and the same without the geocode report (grade F, score 3.25 in its file)."""
    monkeypatch.chdir(tmp_path)
    root = Path(__file__).resolve().parents[1] / "data"
    for name in ("before", "after"):
        for folder in ("grading-data", "scoring-reports"):
            shutil.copytree(root / folder, tmp_path / name / folder)
    shutil.rmtree(tmp_path / "after" / "scoring-reports" / "example-maps_geocode")
    code, markdown, _ = diff(capsys, str(tmp_path / "before"), str(tmp_path / "after"),
                             "--json", str(tmp_path / "diff.json"))
    assert code == 0 and "### FlowMCP" in markdown
    document = json.loads((tmp_path / "diff.json").read_text())
    assert document["base"]["systems"] == ["flowmcp"] and "tdqs" not in document["systems"]
    grades = document["systems"]["flowmcp"]["grades"]
    assert [(g["kind"], g["name"], g["before"], g["after"], g["scoreBefore"], g["presentAfter"]) for g in grades] == [
        ("scoring report", "example-maps/geocode", "F", None, 3.25, False)]
    assert "| scoring report | example-maps/geocode | F → absent | 3.25 → — | — |" in markdown
