"""bench/size_floor.py: the floor under one page per tool, checked on a corpus written by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `bench` is not installed: import it from the checkout

from bench.size_floor import measure


def test_the_floor_counts_each_tools_own_text_once_and_two_tar_headers(tmp_path: Path) -> None:
    server = tmp_path / "servers" / "one"
    server.mkdir(parents=True)
    older = {"tools": [{"name": "gone", "description": "x" * 1000, "inputSchema": {}}]}
    (server / "2026-01-01T00-00-00Z.tools.json").write_text(json.dumps(older))
    (server / "2026-01-01T00-00-00Z.score.json").write_text(json.dumps({"tools": [{"name": "gone"}]}))
    newest = {"tools": [{"name": "a<b", "title": "T", "description": "Reads & writes.",
                         "inputSchema": {"type": "object"}}]}
    (server / "2026-02-01T00-00-00Z.tools.json").write_text(json.dumps(newest))
    scored = {"tools": [{"name": "a<b", "summary": "Sum.", "justifications": {
        "purposeClarity": {"justification": "Clear.", "score": 4},
        "usageGuidelines": {"justification": "None.", "score": 2}}}]}
    (server / "2026-02-01T00-00-00Z.score.json").write_text(json.dumps(scored))
    floor = measure(tmp_path)
    # By hand: only the newest capture counts; "a&lt;b" + "T" = 7, "Reads &amp; writes." = 19,
    # the schema printed as '{\n  "type": "object"\n}' = 22, "Clear." + "None." = 11, "Sum." = 4.
    assert (floor.servers, floor.tools) == (1, 1)
    assert (floor.names, floor.descriptions, floor.schemas, floor.justifications, floor.summaries) == (7, 19, 22, 11, 4)
    assert floor.tar_entries == 1024
    assert floor.total == 7 + 19 + 22 + 11 + 4 + 1024
