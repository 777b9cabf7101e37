"""`scorecards new` → `scorecards add` → `scorecards build`, in a temporary folder, with real inputs:
a real tools/list from ../shared/real-tools scored by tdqs.score_server with the deterministic
stand-in for the model (stand-in scores, labelled so on every page; the definitions are real) and
saved as `report.json` the way `tdqs score --output` saves it; the FlowMCP Grading-Spec's own
example entries; CLEO's real GRADES.jsonl. Every filed path below is written out by hand from
docs/data-format*.md, not asked of the code that files them."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_file
from site_helpers import Page
from tdqs import parse_tool_definitions, score_server, stringify_json

from builder import urls
from builder.cli import main
from scorecards_demo.standin import StandInLlm

ROOT = Path(__file__).resolve().parents[1]
TOOLS = "real-tools/server-github.json"  # in shared/: found or fetched by shared_file
AUTONOMOUS = "flowmcp-examples/grading-entry-autonomous.json"
VETO = "flowmcp-examples/grading-entry-rejected-veto.json"
GRADES = "real-cleo/GRADES.jsonl"
REPORT = ROOT / "data" / "scoring-reports" / "example-maps_geocode" / "example-maps_geocode-2026-05-16.json"
CAPTURE = "servers/server-github/2026-06-01T00-00-00Z"
ENTRY = ("grading-data/providers/etherscan/account/tools/getBalance/_gradings/"
         "single-test--decision-maker--crypto--2026-05-29T10-00-00Z.json")
VETOED = "grading-data/providers/example/adapters/tools/maliciousAdapter/_gradings/single-test--2026-05-29T10-00-00Z.json"


def run(*args: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def save_report(path: Path, *, server_name: str = "server-github", **changes: Any) -> dict[str, Any]:
    """A stand-in ScoreReport of the real server-github tools/list, written as `tdqs score --format
    json --output` writes it (tdqs's run_cli: stringify_json of the JSON dump, indented 2)."""
    tools = parse_tool_definitions(json.loads(shared_file(TOOLS).read_text(encoding="utf-8"))).tools
    report = score_server(llm=StandInLlm(), server_name=server_name, tools=tools, concurrency=1)
    document = report.model_copy(update={"generated_at": "2026-06-01T00:00:00.000Z"}).model_dump(mode="json")
    document.update(changes)
    path.write_text(stringify_json(document, indent=2) + "\n", encoding="utf-8")
    return document


@pytest.fixture(scope="module")
def operator(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One operator's session: new, four adds, build. Run in-process, in a temporary folder."""
    home = tmp_path_factory.mktemp("operator")
    outputs: list[tuple[int, str, str]] = []

    def call(*args: str | Path) -> None:  # capsys is per test: this fixture captures by hand
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(arg) for arg in args])
        outputs.append((code, out.getvalue(), err.getvalue()))

    save_report(home / "report.json")
    previous = os.getcwd()
    os.chdir(home)
    try:
        call("new", "registry")
        call("add", "registry/data", "report.json", "--tools", shared_file(TOOLS))
        call("add", "registry/data", shared_file(AUTONOMOUS), "--schema", "account")
        call("add", "registry/data", shared_file(VETO), "--schema", "adapters")
        call("add", "registry/data", shared_file(GRADES), REPORT)
        os.chdir(home / "registry")
        call("build", "data", "-o", "site", "--no-search")
    finally:
        os.chdir(previous)
    return {"home": home, "data": home / "registry" / "data", "site": home / "registry" / "site", "outputs": outputs}


def test_every_command_succeeds_and_says_what_it_filed_where(operator: dict[str, Any]) -> None:
    assert [code for code, _, _ in operator["outputs"]] == [0] * 6, operator["outputs"]
    said = [out.splitlines() for _, out, _ in operator["outputs"][1:5]]
    assert said[0] == [
        f"filed report.json (tdqs ScoreReport, 26 tools) as registry/data/{CAPTURE}.score.json",
        f"filed {shared_file(TOOLS)} (the tools/list it scored) as registry/data/{CAPTURE}.tools.json",
        "updated registry/data/index.json (1 server)",
    ]
    assert said[1] == [f"filed {shared_file(AUTONOMOUS)} (FlowMCP single-test grading) as registry/data/{ENTRY}"]
    assert said[2] == [f"filed {shared_file(VETO)} (FlowMCP single-test grading) as registry/data/{VETOED}"]
    assert said[3] == [
        f"appended {shared_file(GRADES)} (CLEO GRADES.jsonl rows) to registry/data/sessions/GRADES.jsonl: 35 rows, 0 duplicates skipped",
        f"filed {REPORT} (Scoring Protocol v1 report) as "
        "registry/data/scoring-reports/example-maps_geocode/example-maps_geocode-2026-05-16.json",
    ]


def test_the_files_are_the_operators_bytes_where_the_build_reads_them(operator: dict[str, Any]) -> None:
    data = operator["data"]
    assert sorted(snapshot(data)) == sorted([
        "README.md", "index.json", f"{CAPTURE}.score.json", f"{CAPTURE}.tools.json", ENTRY, VETOED,
        "sessions/GRADES.jsonl", "scoring-reports/example-maps_geocode/example-maps_geocode-2026-05-16.json",
    ])
    assert (data / f"{CAPTURE}.score.json").read_bytes() == (operator["home"] / "report.json").read_bytes()
    assert (data / f"{CAPTURE}.tools.json").read_bytes() == shared_file(TOOLS).read_bytes()
    assert (data / ENTRY).read_bytes() == shared_file(AUTONOMOUS).read_bytes()
    assert (data / "sessions" / "GRADES.jsonl").read_bytes() == shared_file(GRADES).read_bytes()
    index = json.loads((data / "index.json").read_text())
    assert [(s["id"], s["currentCapture"]) for s in index["servers"]] == [("server-github", "2026-06-01T00-00-00Z")]


def test_the_build_has_a_page_for_every_added_item(operator: dict[str, Any]) -> None:
    site = operator["site"]
    report = json.loads((site / "build-report.json").read_text())
    assert report["summary"]["rejected"] == 0 and report["summary"]["errors"] == 0
    server = Page((site / "servers" / "server-github" / "index.html").read_text())
    assert "Stand-in scores" in server.text
    published = json.loads((site / urls.server_api("server-github")).read_text())
    names = [tool["name"] for tool in json.loads(shared_file(TOOLS).read_text())["tools"]]
    assert sorted(tool["name"] for tool in published["tools"]) == sorted(names) and len(names) == 26
    for tool in published["tools"]:
        assert (site / urls.tool_page("server-github", tool["slug"])).is_file(), tool["name"]
    for folder, tool, stem in (
        (("etherscan", "account"), "getBalance", Path(ENTRY).stem),
        (("example", "adapters"), "maliciousAdapter", Path(VETOED).stem),
    ):
        node = "/".join(("providers", *folder, "tools", urls.slug(tool)))
        page = Page((site / urls.flowmcp_grading_page(node, urls.slug(stem))).read_text())
        assert tool in page.text
    assert "REJECTED" in Page((site / urls.flowmcp_grading_page(
        f"providers/example/adapters/tools/{urls.slug('maliciousAdapter')}", urls.slug(Path(VETOED).stem))).read_text()).text
    sessions = {json.loads(line)["sessionId"] for line in shared_file(GRADES).read_text().splitlines() if line.strip()}
    assert len(sessions) == 4
    for session in sessions:
        assert (site / urls.cleo_session_page(urls.slug(session))).is_file(), session
    runs = json.loads((site / "api" / "sessions.json").read_text())["runs"]
    assert len(runs) == 35 and all((site / run["page"]).is_file() for run in runs)
    assert "example-maps/geocode" in Page((site / urls.flowmcp_report_page("example-maps_geocode")).read_text()).text


def test_only_pages_that_show_stand_in_scores_say_so(operator: dict[str, Any]) -> None:
    """The ScoreReport and the Scoring Protocol report are the stand-ins' (`stand-in/…` models); the
    FlowMCP entries and CLEO's rows are real: their pages say nothing of stand-ins."""
    site = operator["site"]

    def banner(path: str) -> str | None:
        text = Page((site / path).read_text()).text
        return text.split("Stand-in scores", 1)[1].split(".", 1)[0] if "Stand-in scores" in text else None

    tdqs = " (stand-in/deterministic-v1), not from a real model"
    for path in (urls.HOME, urls.SERVERS, urls.server_page("server-github"), "changes/index.html",
                 urls.tool_page("server-github", urls.slug("create_or_update_file"))):
        assert banner(path) == tdqs, path
    reports = " (stand-in/flowmcp-demo), not from a real model"
    assert banner(urls.flowmcp_report_page("example-maps_geocode")) == reports
    assert banner(urls.FLOWMCP) == reports  # the section's index lists the report among the real entries
    real = [
        urls.flowmcp_grading_page(f"providers/etherscan/account/tools/{urls.slug('getBalance')}",
                                  urls.slug(Path(ENTRY).stem)),
        urls.flowmcp_grading_page(f"providers/example/adapters/tools/{urls.slug('maliciousAdapter')}",
                                  urls.slug(Path(VETOED).stem)),
        urls.CLEO_SESSIONS, urls.RUBRIC, urls.PROBLEMS, "search/index.html",
    ]
    real += [run["page"] for run in json.loads((site / "api" / "sessions.json").read_text())["runs"]]
    real += [p.relative_to(site).as_posix() for p in (site / "flowmcp" / "providers").rglob("index.html")]
    for path in real:
        assert banner(path) is None, path


def test_adding_the_same_files_again_changes_nothing(operator: dict[str, Any], capsys) -> None:
    data = operator["data"]
    before = snapshot(data)
    code, said, _ = run("add", data, operator["home"] / "report.json", "--tools", shared_file(TOOLS), capsys=capsys)
    assert code == 0 and all(line.startswith("already there: ") for line in said) and len(said) == 2
    code, said, _ = run("add", data, shared_file(AUTONOMOUS), shared_file(VETO), shared_file(GRADES), REPORT, capsys=capsys)
    assert code == 0 and len(said) == 4 and all(line.startswith("already there: ") for line in said), said
    assert said[2] == f"already there: {shared_file(GRADES)} (CLEO GRADES.jsonl rows): all 35 rows are in {data}/sessions/"
    assert snapshot(data) == before


def test_a_single_test_entry_finds_its_schema_in_the_tree(operator: dict[str, Any], tmp_path: Path, capsys) -> None:
    """The tree has getBalance in exactly one schema of etherscan (account): a later grading of it
    needs no --schema. A tool that no schema has does."""
    data = tmp_path / "data"
    (data / Path(ENTRY).parent).mkdir(parents=True)
    entry = json.loads(shared_file(AUTONOMOUS).read_text())
    entry["gradingId"] = "a1b2c3d4--2026-06-02T08-00-00Z"
    later = tmp_path / "later.json"
    later.write_text(json.dumps(entry))
    assert run("add", data, later, capsys=capsys)[0] == 0
    assert (data / Path(ENTRY).parent / "single-test--decision-maker--crypto--2026-06-02T08-00-00Z.json").is_file()
    entry["schemaId"] = "etherscan.getLogs"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(entry))
    code, _, err = run("add", data, other, capsys=capsys)
    assert code == 2 and err == (
        f"scorecards: {other}: $.schemaId: a single-test entry's schemaId names its tool, not its schema folder, and "
        "no schema of etherscan has a tool getLogs: name the schema with --schema NAME; nothing was written\n")


@pytest.mark.parametrize("case", ["tool-score", "json", "cleo-line", "flowmcp-na", "unknown", "tools-alone", "tools"])
def test_a_broken_file_writes_nothing_and_names_the_reason(operator: dict[str, Any], tmp_path: Path, case: str,
                                                           capsys) -> None:
    data = operator["data"]
    before = snapshot(data)
    broken = tmp_path / "broken.json"
    fresh = tmp_path / "fresh.json"  # a valid file, new to the data, given with the broken one: not written either
    fresh.write_text(shared_file(AUTONOMOUS).read_text().replace("2026-05-29T15-34Z", "2026-06-03T08-00-00Z"))
    good: list[str | Path] = [fresh]
    flags: list[str | Path] = []
    if case == "tool-score":
        document = json.loads((operator["home"] / "report.json").read_text())
        document["generatedAt"] = "2026-07-01T00:00:00.000Z"
        document["tools"][3]["scores"]["purposeClarity"] = 9
        broken.write_text(json.dumps(document))
        expected = f"{broken}: $.tools[3].scores.purposeClarity: not a tdqs ScoreReport: "
    elif case == "json":
        broken.write_text('{"specVersion": "1.2", ')
        expected = f"{broken}: $: not valid JSON: Expecting property name enclosed in double quotes at line 1, column 24"
    elif case == "cleo-line":
        lines = shared_file(GRADES).read_text().splitlines()
        row = json.loads(lines[5])
        row["dimensions"]["taskHygiene"]["score"] = 25
        broken = tmp_path / "GRADES.jsonl"
        broken.write_text("\n".join([*lines[:5], json.dumps(row), *lines[6:]]) + "\n")
        expected = f"{broken}: line 6, $.dimensions.taskHygiene: "
    elif case == "flowmcp-na":
        entry = json.loads(shared_file(AUTONOMOUS).read_text())
        entry["gradings"][1]["score"] = "n/a"
        broken.write_text(json.dumps(entry))
        expected = f"{broken}: $.gradings[1].naReason: an n/a answer needs a naReason from the closed set [NA-001]"
    elif case == "unknown":
        broken.write_text('{"hello": "world"}')
        expected = f"{broken}: $: not a grading result scorecards knows"
    elif case == "tools-alone":
        broken = shared_file(TOOLS)
        expected = f"{shared_file(TOOLS)}: $: this looks like a tools/list result: add it with --tools beside the tdqs ScoreReport"
    else:  # a good report (not yet filed) with a --tools that is no tools/list
        later = tmp_path / "report.json"
        document = json.loads((operator["home"] / "report.json").read_text())
        document["generatedAt"] = "2026-07-01T00:00:00.000Z"
        later.write_text(json.dumps(document))
        tools = tmp_path / "tools.json"
        tools.write_text('{"tools": [{"name": 5}]}')
        broken, flags = later, ["--tools", tools]
        expected = f"{tools}: $.tools: not a tools/list result: "
    code, said, err = run("add", data, *good, broken, "--schema", "account", *flags, capsys=capsys)
    assert code == 2 and said == []
    assert err.startswith(f"scorecards: {expected}"), err
    assert err.endswith("; nothing was written\n") and err.count("\n") == 1
    assert snapshot(data) == before


def test_a_different_file_of_the_same_name_is_never_replaced(operator: dict[str, Any], tmp_path: Path, capsys) -> None:
    data = operator["data"]
    before = snapshot(data)
    other = tmp_path / "report.json"
    save_report(other, model="stand-in/another")
    code, _, err = run("add", data, other, capsys=capsys)
    assert code == 2 and err == (f"scorecards: {other}: $: {CAPTURE}.score.json already holds a different file, "
                                 "and add never replaces one; nothing was written\n")
    assert snapshot(data) == before


def test_a_second_report_of_the_same_schema_and_day_is_numbered(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    assert run("add", data, REPORT, capsys=capsys)[0] == 0
    document = json.loads(REPORT.read_text())
    document["timestamps"]["reportedAt"] = "2026-05-16T18:00:00Z"
    later = tmp_path / "later.json"
    later.write_text(json.dumps(document, indent=4))
    code, said, _ = run("add", data, later, capsys=capsys)
    assert code == 0 and said == [f"filed {later} (Scoring Protocol v1 report) as "
                                  f"{data}/scoring-reports/example-maps_geocode/example-maps_geocode-2026-05-16-2.json"]
    assert run("add", data, later, REPORT, capsys=capsys)[1][0].startswith("already there: ")


def test_a_server_name_that_is_not_an_id_needs_server(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    report = tmp_path / "report.json"
    save_report(report, server_name="GitHub (official)")
    code, _, err = run("add", data, report, capsys=capsys)
    assert code == 2 and err == (
        f"scorecards: {report}: $.server.name: 'GitHub (official)' is not a valid server id (1-128 characters of "
        "A-Z a-z 0-9 . _ -, starting with a letter or digit, not ending in a dot, not a name Windows reserves): "
        "name the server with --server ID; nothing was written\n")
    assert snapshot(data) == {}
    code, said, _ = run("add", data, report, "--server", "github", capsys=capsys)
    assert code == 0 and said[0] == (f"filed {report} (tdqs ScoreReport, 26 tools) as "
                                     f"{data}/servers/github/2026-06-01T00-00-00Z.score.json")


def test_cleo_rows_already_present_are_skipped_and_counted(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    lines = shared_file(GRADES).read_bytes().split(b"\n")
    # Ten rows already there, re-spaced (the same rows as JSON), in another file of sessions/.
    (data / "sessions" / "old.jsonl").write_bytes(b"\n".join(
        json.dumps(json.loads(line), indent=None, separators=(", ", ": ")).encode() for line in lines[:10]) + b"\n")
    code, said, _ = run("add", data, shared_file(GRADES), capsys=capsys)
    assert code == 0 and said == [f"appended {shared_file(GRADES)} (CLEO GRADES.jsonl rows) to {data}/sessions/GRADES.jsonl: "
                                  "25 rows, 10 duplicates skipped"]
    assert (data / "sessions" / "GRADES.jsonl").read_bytes() == b"\n".join(lines[10:35]) + b"\n"


def test_the_readme_starts_with_the_set_up_and_its_quick_start_is_new_add_build() -> None:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks[0] == (
        "pip install -e . && scorecards build          # install, then build the site from data/ into site/\n"
        "pip install -e '.[test]' && pytest            # install with test tools, then run the tests\n")
    commands = [line.split("#")[0].strip() for line in blocks[1].splitlines()]
    assert [command.split(" && ")[0].split()[:2] for command in commands] == [
        ["scorecards", "new"], ["scorecards", "add"], ["scorecards", "build"]]


OTHER_TOOLS = "real-tools/server-filesystem.json"
"""Another server's real tools/list (in shared/): none of its 14 tools is one of server-github's 26."""


def test_another_servers_tools_list_is_refused_with_one_line(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    report = tmp_path / "report.json"
    scored = [tool["name"] for tool in save_report(report)["tools"]]
    other = shared_file(OTHER_TOOLS)
    code, said, err = run("add", data, report, "--tools", other, capsys=capsys)
    assert code == 2 and said == [] and err == (
        f"scorecards: {other}: $.tools: none of its 14 tools is among the 26 that {report} scored "
        f"({', '.join(scored[:3])} and 23 more): it looks like another server's tools/list; give the one this "
        "report scored; nothing was written\n")
    assert snapshot(data) == {}
    assert run("add", data, report, "--tools", shared_file(TOOLS), capsys=capsys)[0] == 0


def test_check_warns_of_a_tools_list_already_filed_beside_another_servers_report(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    report = tmp_path / "report.json"
    save_report(report)
    assert run("add", data, report, capsys=capsys)[0] == 0
    (data / f"{CAPTURE}.tools.json").write_bytes(shared_file(OTHER_TOOLS).read_bytes())  # filed by hand, before add checked
    before = snapshot(data)
    code, said, _ = run("check", data, capsys=capsys)
    assert code == 0 and snapshot(data) == before
    warned = [line for line in said if line.startswith(f"warning: {CAPTURE}.tools.json: $.tools: ")]
    assert len(warned) == 1 and (f"none of its 14 tools is among the 26 that {CAPTURE}.score.json scored"
                                 in warned[0]) and "another server's tools/list" in warned[0], said


def test_categories_are_filed_into_server_json_and_get_their_pages(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    report = tmp_path / "report.json"
    save_report(report)
    meta = data / "servers" / "server-github" / "server.json"
    code, said, _ = run("add", data, report, "--category", "Code hosting", "--category", "Issue tracking",
                        capsys=capsys)
    assert code == 0 and said[1] == (f"added categories Code hosting, Issue tracking to {data}/servers/server-github/"
                                     "server.json")
    assert meta.read_text(encoding="utf-8") == '{\n  "categories": [\n    "Code hosting",\n    "Issue tracking"\n  ]\n}\n'
    # A category already there under another spelling is not added twice; the rest of the file is kept.
    meta.write_text('{"displayName": "GitHub", "categories": ["Code hosting"]}', encoding="utf-8")
    code, said, _ = run("add", data, report, "--category", "code-hosting", "--category", "CI/CD", capsys=capsys)
    assert code == 0 and said[0].startswith("already there: ")
    assert json.loads(meta.read_text(encoding="utf-8")) == {"displayName": "GitHub",
                                                            "categories": ["Code hosting", "CI/CD"]}
    code, said, _ = run("add", data, report, "--category", "ci-cd", capsys=capsys)
    assert code == 0 and said[1] == f"already in {data}/servers/server-github/server.json: categories ci-cd"
    # A name the model refuses writes nothing and says why.
    before = snapshot(data)
    code, _, err = run("add", data, report, "--category", " padded", capsys=capsys)
    assert code == 2 and "servers/server-github/server.json: $.categories:" in err and "' padded' has a space" in err
    assert snapshot(data) == before
    # The build ranks the server on each category's page, linked from its own page.
    out = tmp_path / "site"
    assert run("build", data, "-o", out, "--no-search", capsys=capsys)[0] == 0
    for key, name in (("code-hosting", "Code hosting"), ("ci-cd", "CI/CD")):
        page = Page((out / "categories" / key / "index.html").read_text(encoding="utf-8"))
        assert name in page.text and "../../servers/server-github/" in page.links
    server = Page((out / "servers" / "server-github" / "index.html").read_text(encoding="utf-8"))
    assert "../../categories/code-hosting/" in server.links and "../../categories/ci-cd/" in server.links
