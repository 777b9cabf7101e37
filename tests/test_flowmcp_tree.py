"""Reading grading-data trees: the spec's own examples laid out as a tree, and small hand-made trees
for the rules the examples do not reach (audit trails, partial gradings, lagging and broken index.json,
broken newest entries)."""

from __future__ import annotations

from pathlib import Path

from flowmcp_fixtures import DEFILLAMA_INDEX, ETHERSCAN_ENTRY, VETO_ENTRY, answer, entry, spec_tree, write

from builder.engine.problems import ProblemLog
from builder.flowmcp.reader import FlowCorpus, read
from builder.flowmcp.records import Rollup

TOOL = "grading-data/providers/ns/s/tools/t/_gradings"


def read_tree(data: Path) -> tuple[FlowCorpus, ProblemLog]:
    log = ProblemLog()
    corpus = read(data, log)
    assert corpus is not None
    return corpus, log


def rollup(corpus: FlowCorpus, name: str) -> Rollup:
    [found] = [r for r in corpus.rollups if r.name == name]
    return found


# ---- the spec's examples ---------------------------------------------------------------------------


def test_spec_namespace_example_has_exactly_one_difference(tmp_path: Path) -> None:
    corpus, log = read_tree(spec_tree(tmp_path))
    defillama = rollup(corpus, "defillama")
    # getFirstPrice is stored at A, but single-test is autonomous: capped at B
    [difference] = defillama.differences
    assert (difference.json_path, difference.stored, difference.recomputed) == (
        "$.schemas.prices.tools.getFirstPrice.grade", "A", "B")
    assert difference.file == DEFILLAMA_INDEX
    [warning] = [p for p in log.problems if p.file == DEFILLAMA_INDEX]
    assert warning.severity == "warning" and warning.json_path == difference.json_path
    tool = defillama.node("schemas", "prices", "tools", "getFirstPrice")
    assert tool is not None and (tool.status, tool.grade, tool.source) == ("stable", "B", "index")
    # everything else reproduces: partial (pending coins, graded nodes, one stable tool), worst grade B
    assert (defillama.status, defillama.grade) == ("partial", "B")
    coins = defillama.node("schemas", "coins")
    assert coins is not None and (coins.status, coins.reason) == ("pending", "not yet imported")


def test_spec_autonomous_example_recomputes_to_b_from_a_raw(tmp_path: Path) -> None:
    corpus, log = read_tree(spec_tree(tmp_path))
    tool = rollup(corpus, "etherscan").node("schemas", "getBalance", "tools", "getBalance")
    assert tool is not None
    record = tool.current
    assert record is not None and record.computed is not None
    # pass (5) + 4.5 + 4.0 = 13.5 / 3 = 4.5 → A, trimmed to B; the stored B agrees; full and at the cap: stable
    assert float(record.computed.mean) == 4.5
    assert (record.computed.raw_grade, record.grade, tool.status) == ("A", "B", "stable")
    assert [p for p in log.problems if p.file == ETHERSCAN_ENTRY] == []


def test_spec_veto_example_rejects_the_tool_the_schema_and_the_namespace(tmp_path: Path) -> None:
    corpus, _ = read_tree(spec_tree(tmp_path))
    example = rollup(corpus, "example")
    tool = example.node("schemas", "maliciousAdapter", "tools", "maliciousAdapter")
    schema = example.node("schemas", "maliciousAdapter")
    assert tool is not None and schema is not None
    assert (tool.status, tool.grade) == ("rejected", "REJECTED")
    assert (schema.status, schema.grade) == ("rejected", "REJECTED")
    assert (example.status, example.grade) == ("rejected", "REJECTED")
    record = tool.current
    assert record is not None and record.entry is not None and record.entry.categorical_veto is not None
    assert record.entry.categorical_veto.triggered_by == "api-key-domain-mismatch"
    assert record.file == VETO_ENTRY


def test_spec_lock_snapshot_example_as_a_selection(tmp_path: Path) -> None:
    corpus, _ = read_tree(spec_tree(tmp_path))
    selection = rollup(corpus, "crypto-domain-full")
    member = selection.node("members", "binance.ticker")
    assert member is not None
    # binance is not in the data: pending, not imported; the frozen pin still says stable
    assert (member.status, member.reason) == ("pending", "selection member, not imported")
    assert member.pinned is not None and member.pinned.grading_status == "stable"
    assert (selection.status, selection.grade, selection.differences) == ("pending", None, ())


def test_versions_scoring_and_grading_are_kept_apart(tmp_path: Path) -> None:
    corpus, _ = read_tree(spec_tree(tmp_path))
    etherscan = rollup(corpus, "etherscan")
    assert (etherscan.last_scored_under, etherscan.last_graded_under) == ("scoringSystem/1.0.0", "gradingSystem/1.0.0")
    assert rollup(corpus, "defillama").last_scored_under is None  # no entry in the data
    assert corpus.data_as_of == "2026-05-29T15:34:00Z"


# ---- audit trails, partial gradings, broken entries ---------------------------------------------------


def test_the_newest_entry_is_current_and_older_ones_are_the_trail(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json", entry([answer("Q-a", 2.0)], grade="D"))
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 4.0)], grade="B"))
    corpus, log = read_tree(tmp_path)
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None
    assert [r.name.stamp for r in tool.trail] == ["2026-06-01T00-00-00Z", "2026-06-02T00-00-00Z"]
    assert (tool.grade, tool.status) == ("D", "graded")
    assert log.problems == []


def test_a_stored_grade_that_does_not_reproduce_is_a_warning_with_both_values(tmp_path: Path) -> None:
    # 4.0 and 2.0 → 3.0 → C, stored B
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 4.0), answer("Q-b", 2.0)]))
    corpus, log = read_tree(tmp_path)
    [warning] = log.problems
    assert (warning.severity, warning.json_path) == ("warning", "$.aggregateGrade")
    assert "stored B, recomputed C" in warning.reason
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None and tool.grade == "C"


def test_a_partial_grading_keeps_the_last_full_grade(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 2.0)], grade="D"))
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json",
          entry([answer("Q-a", 5.0)], grade="D", gradingMode="partial"))
    corpus, log = read_tree(tmp_path)
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None and tool.current is not None and tool.current.computed is not None
    # its own answers band to A (B after the trim), but a partial grading leaves the grade at D
    assert tool.current.computed.grade == "B"
    assert (tool.grade, tool.status) == ("D", "graded")
    assert log.problems == []


def test_a_partial_grading_without_a_full_one_has_no_grade(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json",
          entry([answer("Q-a", 5.0)], grade="B", gradingMode="partial"))
    corpus, log = read_tree(tmp_path)
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None and (tool.grade, tool.status) == (None, "pending")
    assert "stored B, recomputed none (pending)" in log.problems[0].reason


def test_all_answers_left_out_is_pending_not_graded(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json",
          entry([answer("Q-a", "n/a", naReason="requires-private-data"), answer("Q-b", "stale")], grade="F"))
    corpus, _ = read_tree(tmp_path)
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None and (tool.status, tool.grade) == ("pending", None)


def test_a_broken_newest_entry_blocks_its_node_and_nothing_else(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 4.0)]))
    bad = entry([answer("Q-a", "n/a", naReason="API was down")])
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json", bad)
    other = "grading-data/providers/ns/s/tools/u/_gradings/single-test--2026-06-01T00-00-00Z.json"
    write(tmp_path / other, entry([answer("Q-a", 4.0)]))
    corpus, log = read_tree(tmp_path)
    ns = rollup(corpus, "ns")
    tool = ns.node("schemas", "s", "tools", "t")
    assert tool is not None and tool.status == "blocked"
    assert tool.reason is not None and "2026-06-02T00-00-00Z" in tool.reason
    assert [r.valid for r in tool.trail] == [True, False]  # the older entry stays in the trail
    [error] = [p for p in log.problems if p.severity == "error"]
    assert (error.file, error.json_path, error.code) == (
        f"{TOOL}/single-test--2026-06-02T00-00-00Z.json", "$.gradings[0].naReason", "NA-001")
    assert [f.status for f in log.files if f.file == error.file] == ["rejected"]
    sibling = ns.node("schemas", "s", "tools", "u")
    assert sibling is not None and sibling.status == "stable"
    assert ns.status == "partial"  # blocked and stable nodes: partly usable


def test_names_outside_the_grammar_and_misplaced_areas_are_rejected(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "grading.json", entry([answer("Q-a", 4.0)]))
    write(tmp_path / TOOL / "about-namespace--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 4.0)]))
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 4.0)], area="about-namespace"))
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json", "{not json")
    _, log = read_tree(tmp_path)
    reasons = {p.file.rsplit("/", 1)[-1]: p.reason for p in log.problems}
    assert "named <area>" in reasons["grading.json"]
    assert "does not belong in" in reasons["about-namespace--2026-06-01T00-00-00Z.json"]
    assert "the file name says single-test" in reasons["single-test--2026-06-01T00-00-00Z.json"]
    assert "not valid JSON" in reasons["single-test--2026-06-02T00-00-00Z.json"]
    assert all(p.severity == "error" for p in log.problems)


# ---- index.json -------------------------------------------------------------------------------------


def test_a_lagging_index_is_compared_node_by_node(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 2.0)], grade="D"))
    write(tmp_path / TOOL / "single-test--2026-06-02T00-00-00Z.json", entry([answer("Q-a", 3.0)], grade="C"))
    unlisted = "grading-data/providers/ns/s/tools/u/_gradings/single-test--2026-06-01T00-00-00Z.json"
    write(tmp_path / unlisted, entry([answer("Q-a", 3.0)], grade="C"))
    old_ref = "s/tools/t/_gradings/single-test--2026-06-01T00-00-00Z.json"
    write(tmp_path / "grading-data/providers/ns/index.json", {
        "indexVersion": 2, "namespace": "ns", "status": "partial",
        "schemas": {"s": {"status": "graded", "tools": {"t": {"status": "graded", "grade": "D", "ref": old_ref}}}},
    })
    corpus, _ = read_tree(tmp_path)
    found = {(d.json_path, d.stored, d.recomputed) for d in rollup(corpus, "ns").differences}
    assert found == {
        ("$.schemas.s.tools.t.grade", "D", "C"),
        ("$.schemas.s.tools.t.ref", old_ref, "s/tools/t/_gradings/single-test--2026-06-02T00-00-00Z.json"),
        ("$.schemas.s.tools.u.status", None, "graded"),  # in the tree, not in the index yet
    }


def test_without_an_index_everything_is_rolled_up_from_the_entries(tmp_path: Path) -> None:
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 5.0)]))
    aggregate = "grading-data/providers/ns/s/_gradings/tools-aggregate-schema--2026-06-01T00-00-00Z.json"
    write(tmp_path / aggregate, entry([answer("Q-a", 4.0)], area="tools-aggregate-schema"))
    corpus, log = read_tree(tmp_path)
    ns = rollup(corpus, "ns")
    assert ns.index_state == "absent" and ns.differences == ()
    schema = ns.node("schemas", "s")
    assert schema is not None and (schema.status, schema.grade) == ("stable", "B")
    # about, description and the namespace aggregate are still pending: partial, graded B
    assert (ns.status, ns.grade) == ("partial", "B")
    assert log.problems == []


def test_an_index_in_the_wrong_vocabulary_is_rejected_and_the_entries_still_count(tmp_path: Path) -> None:
    # "graded" is a node status; a namespace rollup is operational, partial, blocked, pending or rejected
    write(tmp_path / "grading-data/providers/ns/index.json", {"indexVersion": 2, "status": "graded"})
    write(tmp_path / TOOL / "single-test--2026-06-01T00-00-00Z.json", entry([answer("Q-a", 5.0)]))
    corpus, log = read_tree(tmp_path)
    ns = rollup(corpus, "ns")
    assert ns.index_state == "rejected" and ns.index_file == "grading-data/providers/ns/index.json"
    [error] = log.problems
    assert (error.json_path, error.severity) == ("$.status", "error")
    assert ns.node("schemas", "s", "tools", "t") is not None


def test_selection_members_resolve_to_provider_schemas(tmp_path: Path) -> None:
    write(tmp_path / "grading-data/providers/ns/s/_gradings/tools-aggregate-schema--2026-06-01T00-00-00Z.json",
          entry([answer("Q-a", 3.0)], area="tools-aggregate-schema", grade="C"))
    sel = tmp_path / "grading-data/selections/sel"
    write(sel / "selection/sel--2026-06-01T00-00-00Z--0a1b2c3d.json",
          {"selectionId": "sel", "name": "Sel", "members": [{"schemaId": "ns.s"}, {"schemaId": "nope.x"}, {"schemaId": "bad"}]})
    write(sel / "_gradings/selection-aggregate--2026-06-02T00-00-00Z.json",
          entry([answer("Q-a", 4.3), answer("Q-b", 4.6), answer("Q-c", 4.6)], area="selection-aggregate", grade="A"))
    write(sel / "index.json", {"indexVersion": 2, "selectionId": "sel", "members": {"ns.s": {"status": "stable", "grade": "C"}}})
    corpus, log = read_tree(tmp_path)
    selection = rollup(corpus, "sel")
    member = selection.node("members", "ns.s")
    missing = selection.node("members", "nope.x")
    broken = selection.node("members", "bad")
    assert member is not None and missing is not None and broken is not None
    assert (member.status, member.grade, member.provider) == ("graded", "C", ("ns", "s"))
    assert (missing.status, missing.reason) == ("pending", "selection member, not imported")
    assert (broken.status, broken.reason) == ("blocked", "malformed schemaId: bad")
    # the stored member says stable, but C is not the autonomous maximum: graded; and the index does
    # not list the selection aggregate the tree has
    assert [(d.json_path, d.stored, d.recomputed) for d in selection.differences] == [
        ("$.selectionAggregate.status", None, "stable"), ('$.members["ns.s"].status', "stable", "graded")]
    # group-bound: 13.5 / 3 = 4.5 → A, not trimmed, and the selection's grade is its aggregate's
    assert (selection.grade, selection.status) == ("A", "partial")
    assert {b.node for b in selection.blockers} == {"members.bad", "members.nope.x"}
    assert [p.severity for p in log.problems] == ["warning", "warning"]


def test_no_flowmcp_folders_means_no_section(tmp_path: Path) -> None:
    assert read(tmp_path, ProblemLog()) is None


def test_symbolic_links_are_never_followed_out_of_the_data_folder(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "secret.json", entry([answer("Q-a", 5.0)]))
    data = tmp_path / "data"
    link = data / TOOL / "single-test--2026-06-01T00-00-00Z.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    (data / "grading-data/providers/ns/s/tools/linked").symlink_to(outside.parent, target_is_directory=True)
    corpus, log = read_tree(data)
    tool = rollup(corpus, "ns").node("schemas", "s", "tools", "t")
    assert tool is not None and (tool.trail, tool.status) == ((), "pending")
    assert rollup(corpus, "ns").node("schemas", "s", "tools", "linked") is None
    # Each link is reported (issue 21), the linked folder as well as the linked file.
    linked_folder, linked_file = log.problems
    assert linked_folder.file == "grading-data/providers/ns/s/tools/linked" and "symbolic link" in linked_folder.reason
    assert linked_file.file == f"{TOOL}/single-test--2026-06-01T00-00-00Z.json" and "symbolic link" in linked_file.reason
