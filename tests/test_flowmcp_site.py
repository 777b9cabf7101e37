"""The FlowMCP section built end to end (read → DuckDB → pages → HTML and API JSON), on the spec's own
examples laid out as a tree plus a namespace with hostile text, and on the default `data/` folder."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path
from typing import Any

import pytest
from flowmcp_fixtures import answer, entry, spec_tree, write
from site_helpers import Page

from builder.build import BuildResult, read_and_plan
from builder.build import build as build_site
from builder.config import SiteConfig
from builder.engine.write import MemoryWriter
from builder.flowmcp.pages.section import system
from builder.pages.page import DataFile

REPO_DATA = Path(__file__).resolve().parents[1] / "data"
ODD_TOOL = "<i>x<b> tool"
HOSTILE = "<script>alert('x')</script>"
SECTION_PREFIXES = ("flowmcp/", "providers/", "selections/", "scoring-reports/")


def build(data: Path) -> tuple[MemoryWriter, BuildResult]:
    writer = MemoryWriter()
    return writer, build_site(data, writer, SiteConfig(), search=False, systems=[system()])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryWriter, BuildResult]:
    data = spec_tree(tmp_path_factory.mktemp("data"))
    write(data / f"grading-data/providers/odd/s/tools/{ODD_TOOL}/_gradings/single-test--2026-06-01T00-00-00Z.json", entry(
        [
            answer("Q-api", "pass", evidence="javascript:alert(1)"),
            answer("Q-private", "n/a", naReason="requires-private-data"),
            answer("Q-aged", "stale"),
            answer("Q-<img src=x onerror=alert(1)>", 2.0, reasoning=HOSTILE),
        ],
        grade="B", schemaId="odd.t",
    ))
    write(data / "scoring-reports/odd_file/odd_file-2026-06-01.json", {
        "schemaId": "odd/file", "schemaIdSlug": "odd_file", "schemaHash": "sha256:ab", "date": "2026-06-01",
        "grade": "F", "score": 3.0, "scoringProtocol": "v1", "creator": {"skill": "s"},
        "harness": {"name": "claude-code", "model": "m"}, "timestamps": {"reportedAt": "2026-06-01T00:00:00Z"},
        "dimensions": [{"dimension": "whenToUse", "score": 3.0, "reasoning": HOSTILE}],
        "validationPassed": False, "validationErrors": ["VAL-001: no tools", {"code": "VAL-002"}],
    })
    return build(data)


def section_pages(writer: MemoryWriter) -> list[str]:
    return [p for p in writer.paths if p.endswith(".html") and p.startswith(SECTION_PREFIXES)]


def test_every_link_of_the_section_resolves(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    pages = section_pages(writer)
    assert len(pages) >= 9
    for path in pages:
        for link in Page(writer.text(path)).links:
            if link.startswith(("http://", "https://", "mailto:", "#")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), link.split("#")[0]))
            if link.split("#")[0].endswith("/") or target == ".":
                target = posixpath.join(target, "index.html") if target != "." else "index.html"
            assert target in writer.paths, f"{path} links to {link}, which is not built"


def test_third_party_text_is_escaped_and_only_web_evidence_is_a_link(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    for path in section_pages(writer):
        html = writer.text(path)
        assert "<script>alert" not in html and "<img src=x" not in html and "<i>x<b>" not in html
        assert 'href="javascript:' not in html
    [odd] = [p for p in section_pages(writer) if "/_gradings/" in p and p.startswith("providers/odd/")]
    text = Page(writer.text(odd)).text
    assert "javascript:alert(1)" in text and HOSTILE in text  # shown, as text
    [spec] = [p for p in section_pages(writer) if "/_gradings/" in p and p.startswith("providers/etherscan/")]
    assert "https://example.org/proofs/etherscan-getBalance/2026-05-29.txt" in Page(writer.text(spec)).links


def test_an_entry_page_shows_every_answer_and_its_audit_trail(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    [path] = [p for p in section_pages(writer) if "/_gradings/" in p and p.startswith("providers/etherscan/")]
    text = Page(writer.text(path)).text
    for expected in (
        "Q-api-availability", "Q-description-neutrality", "Q-when-to-use",  # questions
        "non-deterministic", "llm · claude-opus-4-7 1m", "script · single-schema-validator 0.1.0",  # graders
        "Clear, unambiguous trigger sentence",  # reasoning
        "Before the tier trim (rawGrade) A", "Grade (recomputed) B",
        "scoringSystem scoringSystem/1.0.0", "gradingSystem gradingSystem/1.0.0",
        "Audit trail", "(current)",
    ):
        assert expected in text, expected


def test_a_veto_is_shown_with_trigger_evidence_and_grader(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    [path] = [p for p in section_pages(writer) if "/_gradings/" in p and p.startswith("providers/example/")]
    text = Page(writer.text(path)).text
    assert "REJECTED: categorical veto api-key-domain-mismatch" in text
    assert "schema declares FACEBOOK_API_KEY for example.xyz" in text
    assert "script · api-key-domain-checker 0.1.0" in text


def test_the_namespace_page_shows_both_values_where_index_json_differs(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    text = Page(writer.text("providers/defillama/index.html")).text
    assert "$.schemas.prices.tools.getFirstPrice.grade A B single-test is an autonomous area: capped at B" in text
    assert "index.json: A" in text  # beside the recomputed B in the tools table
    report = json.loads(writer.text("build-report.json"))
    assert {(p["file"], p["jsonPath"], p["severity"]) for p in report["problems"]} >= {
        ("grading-data/providers/defillama/index.json", "$.schemas.prices.tools.getFirstPrice.grade", "warning")}


def test_gradings_and_nodes_carry_scoring_and_grading_system_apart(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    gradings = [p for p in writer.paths if p.startswith("api/flowmcp/") and "/_gradings/" in p]
    assert len(gradings) == 3
    for path in gradings:
        record = json.loads(writer.text(path))
        assert (record["scoringSystem"], record["gradingSystem"]) == ("scoringSystem/1.0.0", "gradingSystem/1.0.0")
    namespace = json.loads(writer.text("api/flowmcp/providers/etherscan.json"))
    assert (namespace["lastScoredUnder"], namespace["lastGradedUnder"]) == ("scoringSystem/1.0.0", "gradingSystem/1.0.0")
    for schema in namespace["schemas"]:
        for node in [schema["node"], schema["toolsAggregate"], *schema["tools"]]:
            assert "scoringSystem" in node and "gradingSystem" in node
    assert "scoring_system" not in "".join(writer.text(p) for p in writer.paths if p.startswith("api/flowmcp/"))


def test_statistics_are_computed_in_sql_and_match_a_hand_count(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    stats = json.loads(writer.text("api/flowmcp/index.json"))["stats"]
    # current entries: getBalance B (mean 4.5), maliciousAdapter REJECTED (vetoed), odd B ((5 + 2) / 2 = 3.5)
    assert [(r["grade"], r["entries"]) for r in stats["entryGrades"]] == [("B", 2), ("REJECTED", 1)]
    [area] = stats["areaMeans"]
    assert (area["area"], area["entries"], area["scored"], area["mean"], area["lowest"], area["highest"],
            area["vetoed"]) == ("single-test", 3, 2, 4.0, 3.5, 4.5, 1)
    assert sorted((r["why"], r["naReason"], r["answers"]) for r in stats["leftOut"]) == [
        ("n/a", "requires-private-data", 1), ("stale", None, 1)]
    # nodes: defillama 2 pending, 6 graded, 1 stable; etherscan 4 pending, 1 graded, 1 stable;
    # example 4 pending, 2 rejected; odd 4 pending, 1 graded, 1 stable; the selection 3 pending
    assert [(r["status"], r["providerNodes"], r["selectionNodes"]) for r in stats["nodeStatuses"]] == [
        ("pending", 14, 3), ("graded", 8, 0), ("stable", 3, 0), ("rejected", 2, 0)]
    assert [(r["status"], r["providers"], r["selections"]) for r in stats["rollupStatuses"]] == [
        ("partial", 3, 0), ("pending", 0, 1), ("rejected", 1, 0)]
    assert [(r["grade"], r["rollups"]) for r in stats["rollupGrades"]] == [("B", 1), ("REJECTED", 1), ("none", 3)]
    assert stats["overview"]["indexDifferences"] == 1
    assert [(r["grade"], r["reports"], r["failedValidation"]) for r in stats["reportGrades"]] == [("F", 1, 1)]


def test_a_report_page_shows_dimensions_validation_and_provenance(site: tuple[MemoryWriter, BuildResult]) -> None:
    writer, _ = site
    text = Page(writer.text("scoring-reports/odd_file/index.html")).text
    for expected in ("Grade (recomputed) F", "Validation failed", "VAL-001: no tools", '{"code": "VAL-002"}',
                     "Fix: VAL-001: no tools", "whenToUse", HOSTILE, "Model m", "schemaHash sha256:ab"):
        assert expected in text, expected
    # Freshness beside the grade: the date in words, the model, the protocol and the bands applied (issue 23).
    assert "Scored 1 Jun 2026 · model m · Scoring Protocol v1, gradingSystem/1.0.0 Why:" in text
    assert "scoring-reports/odd_file/odd_file-2026-06-01/index.html" in writer.paths
    assert json.loads(writer.text("api/flowmcp/scoring-reports/odd_file.json"))["grade"] == "F"


def test_the_section_is_built_the_same_twice(tmp_path: Path) -> None:
    data = spec_tree(tmp_path)

    def files() -> dict[str, Any]:
        model = read_and_plan(data, SiteConfig(), [system()])
        return {o.path: o.data() for o in model.outputs if isinstance(o, DataFile)}

    assert files() == files()


def test_the_default_data_folder_builds_the_section_without_errors() -> None:
    writer, model = build(REPO_DATA)
    flow = [p for p in model.log.problems if p.system in ("flowmcp", "scoring-protocol")]
    assert [p for p in flow if p.severity == "error"] == []
    assert read_and_plan(REPO_DATA, SiteConfig(), [system()]).site["stand_in_models"] == ["stand-in/flowmcp-demo"]
    section = Page(writer.text("flowmcp/index.html")).text
    assert "Stand-in scores" in section
    statuses = {r["name"]: (r["status"], r["grade"]) for r in json.loads(writer.text("api/flowmcp/index.json"))["providers"]}
    # the README's cases: a lagging index (C from the partial skill), a rejected and a pending namespace
    assert statuses == {"acme-weather": ("partial", "C"), "example-maps": ("pending", None),
                        "example-payments": ("rejected", "REJECTED")}
    selection = json.loads(writer.text("api/flowmcp/selections/example-travel.json"))
    assert (selection["status"], selection["grade"], selection["differences"]) == ("partial", "A", [])
    getalerts = [t for s in json.loads(writer.text("api/flowmcp/providers/acme-weather.json"))["schemas"]
                 for t in s["tools"] if t["name"] == "getAlerts"]
    assert [(t["status"], t["grade"], t["mean"]) for t in getalerts] == [("graded", "C", 2.6)]  # stale and n/a left out
