"""Broken TDQS input: each case is reported with its file, JSON path and reason, and the rest of
the site still builds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture
from shared_data import shared_file
from site_helpers import api, build_in_memory


def good_server(data: Path) -> None:
    write_capture(data, "good", report("good", [tool_score(definition("fine_tool"), scores(5, 4, 4, 3, 5, 4))]))


def problems_of(writer) -> list[dict]:
    return api(writer, "build-report.json")["problems"]


def find(problems: list[dict], file: str, path: str | None = None) -> dict:
    matches = [p for p in problems if p["file"] == file and (path is None or p["jsonPath"] == path)]
    assert matches, (file, path, problems)
    return matches[0]


def test_each_broken_capture_is_reported_and_the_rest_builds(tmp_path: Path) -> None:
    good_server(tmp_path)
    # Not JSON: the real broken capture.
    (tmp_path / "servers" / "broken").mkdir(parents=True)
    target = tmp_path / "servers" / "broken" / "2026-06-01T00-00-00Z.score.json"
    shutil.copy(shared_file("bad-input/not-json-capture.json"), target)
    # Wrong shape: an array.
    (tmp_path / "servers" / "shape").mkdir()
    (tmp_path / "servers" / "shape" / "2026-06-01T00-00-00Z.score.json").write_text("[1, 2]")
    # Score out of range.
    doc = report("range", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]).model_dump(mode="json")
    doc["tools"][0]["scores"]["purposeClarity"] = 7  # tdqs writes camelCase keys
    write_capture(tmp_path, "range", doc)
    # Unknown spec version.
    doc = report("future", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]).model_dump(mode="json")
    doc["specVersion"] = "9.9"
    write_capture(tmp_path, "future", doc)
    # Empty tool list.
    doc = report("empty", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]).model_dump(mode="json")
    doc["tools"] = []
    write_capture(tmp_path, "empty", doc)
    # A stored TDQS and tier that disagree with the dimension scores.
    doc = report("liar", [tool_score(definition("t"), scores(2, 2, 2, 2, 2, 2))]).model_dump(mode="json")
    doc["tools"][0]["tdqs"] = 4.9
    doc["tools"][0]["tier"] = "A"
    write_capture(tmp_path, "liar", doc)
    # Duplicate tool names.
    twice = tool_score(definition("same"), scores(3, 3, 3, 3, 3, 3))
    write_capture(tmp_path, "dupes", report("dupes", [twice, twice]))

    writer, _ = build_in_memory(tmp_path)
    problems = problems_of(writer)

    assert "not valid JSON" in find(problems, "servers/broken/2026-06-01T00-00-00Z.score.json", "$")["reason"]
    assert "JSON object" in find(problems, "servers/shape/2026-06-01T00-00-00Z.score.json", "$")["reason"]
    out_of_range = find(problems, "servers/range/2026-06-01T00-00-00Z.score.json", "$.tools[0].scores.purposeClarity")
    assert "7" in out_of_range["reason"]
    assert "9.9" in find(problems, "servers/future/2026-06-01T00-00-00Z.score.json", "$.specVersion")["reason"]
    assert "no tools" in find(problems, "servers/empty/2026-06-01T00-00-00Z.score.json", "$.tools")["reason"]
    liar = find(problems, "servers/liar/2026-06-01T00-00-00Z.score.json", "$.tools[0].tdqs")
    assert "4.9" in liar["reason"] and "2.0" in liar["reason"] and liar["severity"] == "warning"
    find(problems, "servers/liar/2026-06-01T00-00-00Z.score.json", "$.tools[0].tier")
    assert "duplicate" in find(problems, "servers/dupes/2026-06-01T00-00-00Z.score.json", "$.tools[1].name")["reason"]

    # The rest of the site is there: the good server, the liar with its recomputed score, the deduplicated server.
    assert api(writer, "api/servers/good.json")["tools"][0]["tdqs"] == 4.2  # 1.25+0.8+0.8+0.45+0.5+0.4
    liar_tool = api(writer, "api/servers/liar.json")["tools"][0]
    assert (liar_tool["tdqs"], liar_tool["tier"]) == (2.0, "C")
    assert [t["name"] for t in api(writer, "api/servers/dupes.json")["tools"]] == ["same"]
    # A server whose every capture was rejected is not left out: its page says it is not scored, and why.
    broken = writer.text("servers/broken/index.html")
    assert "not scored yet" in broken and "2026-06-01T00-00-00Z.score.json: not valid JSON" in broken
    statuses = {f["file"]: f["status"] for f in api(writer, "build-report.json")["files"]}
    assert statuses["servers/broken/2026-06-01T00-00-00Z.score.json"] == "rejected"
    assert statuses["servers/good/2026-06-01T00-00-00Z.score.json"] == "accepted"
    # The problems page lists them too.
    assert "not valid JSON" in writer.text("problems/index.html")


def test_a_huge_file_is_refused_without_reading_it(tmp_path: Path, monkeypatch) -> None:
    from builder.sources import jsonfile

    good_server(tmp_path)
    monkeypatch.setattr(jsonfile, "MAX_FILE_BYTES", 1000)
    doc = report("big", [tool_score(definition("t", "x" * 5000), scores(4, 4, 4, 4, 4, 4))])
    write_capture(tmp_path, "big", doc)
    writer, _ = build_in_memory(tmp_path)
    problem = find(problems_of(writer), "servers/big/2026-06-01T00-00-00Z.score.json", "$")
    assert "over the 1,000-byte limit" in problem["reason"]


def test_index_json_disagreements_are_reported(tmp_path: Path) -> None:
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_tdqs
    from builder.tdqs.registry_index import write_index

    good_server(tmp_path)
    write_index(tmp_path, read_tdqs(tmp_path, ProblemLog()).servers)
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["servers"][0]["scores"]["overallScore"] is not None
    writer, _ = build_in_memory(tmp_path)
    assert not [p for p in problems_of(writer) if p["file"] == "index.json"]

    index["servers"][0]["scores"]["overallScore"] = 1.0
    (tmp_path / "index.json").write_text(json.dumps(index))
    write_capture(tmp_path, "newcomer", report("newcomer", [tool_score(definition("n"), scores(3, 3, 3, 3, 3, 3))]))
    writer, _ = build_in_memory(tmp_path)
    index_problems = [p for p in problems_of(writer) if p["file"] == "index.json"]
    reasons = " | ".join(p["reason"] for p in index_problems)
    assert any(p["jsonPath"] == "$.servers[0].scores.overallScore" for p in index_problems)
    assert "'newcomer' has captures but is not in index.json" in reasons


def test_index_comparison_reads_the_expected_entries_once(tmp_path: Path) -> None:
    """The entries the captures give are streamed (a registry's come from the build's spool): each
    is read once, in any order, and every disagreement is found."""
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_tdqs
    from builder.tdqs.registry_index import compare_index, index_entry_json, write_index

    good_server(tmp_path)
    write_capture(tmp_path, "second", report("second", [tool_score(definition("s"), scores(3, 3, 3, 3, 3, 3))]))
    write_capture(tmp_path, "newcomer", report("newcomer", [tool_score(definition("n"), scores(3, 3, 3, 3, 3, 3))]))
    corpus = read_tdqs(tmp_path, ProblemLog())
    write_index(tmp_path, corpus.servers)
    stored = json.loads((tmp_path / "index.json").read_text())
    by_id = {entry["id"]: entry for entry in stored["servers"]}
    first = next(i for i in by_id if i not in ("second", "newcomer"))
    ghost = json.loads(json.dumps(by_id[first])) | {"id": "ghost"}
    changed = json.loads(json.dumps(by_id["second"]))
    changed["scores"]["meanTdqs"] = 1.0
    # Stored: the first server, the second changed, the first again, a server with no capture;
    # the newcomer is missing.
    stored["servers"] = [by_id[first], changed, by_id[first], ghost]
    given = [(server.server_id, index_entry_json(server)) for server in reversed(corpus.servers)]
    read = []

    def once():
        for item in given:
            read.append(item[0])
            yield item

    log = ProblemLog()
    compare_index(stored, once(), log)
    assert sorted(read) == sorted(s.server_id for s in corpus.servers)  # each entry read once
    found = [(p.json_path, p.reason) for p in log.problems]
    rebuild = "; run `scorecards index DATA` to rebuild it from the captures"
    assert found == [  # the log sorts by file, then JSON path
        ("$.servers", "server 'newcomer' has captures but is not in index.json" + rebuild),
        ("$.servers[1].scores.meanTdqs",
         f"index.json says 1.0 but the captures say {by_id['second']['scores']['meanTdqs']}" + rebuild),
        ("$.servers[2]", f"server {first!r} is in index.json but has no usable capture" + rebuild),
        ("$.servers[3]", "server 'ghost' is in index.json but has no usable capture" + rebuild),
    ]


def test_the_build_report_holds_every_file_and_problem_as_the_log_has_them() -> None:
    """The report is encoded record by record; read back, it equals the log's own models dumped
    whole, and counts its files the way the summary says."""
    from builder.engine.problems import ProblemLog
    from builder.publish.report import build_report_json

    log = ProblemLog()
    log.read("servers/a/x.score.json", "tdqs")
    log.reject("servers/b/y.score.json", "tdqs", "$", 'not JSON: "\u00e9\\n</script>')
    log.add("servers/c/z.score.json", "tdqs", "$.tools[2].scores", "out of range", severity="warning")
    log.add("servers/c/z.score.json", "tdqs", "$.tools[10].scores", "out of range")
    report = json.loads(build_report_json(log))
    # Each file with a problem also says where the site lists them (both on page 1, b's before c's).
    where = {entry["file"]: entry.pop("problemsPage", None) for entry in report["files"]}
    assert where["servers/a/x.score.json"] is None
    assert where["servers/b/y.score.json"].startswith("problems/#f-servers-b-y-score-json-")
    assert where["servers/c/z.score.json"].startswith("problems/#f-servers-c-z-score-json-")
    assert report["files"] == [f.model_dump(mode="json", by_alias=True, exclude_none=True) for f in log.files]
    assert report["problems"] == [p.model_dump(mode="json", by_alias=True) for p in log.problems]
    assert [p["jsonPath"] for p in report["problems"][1:]] == ["$.tools[2].scores", "$.tools[10].scores"]
    assert report["summary"] == {"filesRead": 3, "accepted": 1, "partlyRejected": 1, "rejected": 1,
                                 "errors": 2, "warnings": 1}
    log.read("servers/d/w.score.json", "tdqs")  # a change after the files were listed is seen
    assert len(json.loads(build_report_json(log))["files"]) == 4
