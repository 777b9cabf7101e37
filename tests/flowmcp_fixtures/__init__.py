"""Builders of FlowMCP test inputs: the spec's shared examples laid out as a grading-data tree (copied
into a tmp folder at test time, never into the repo), and small valid documents to break on purpose."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

from shared_data import shared_file

EXAMPLES = "flowmcp-examples"  # in shared/: the spec's examples, found or fetched by tests/shared_data.py

ETHERSCAN_ENTRY = "grading-data/providers/etherscan/getBalance/tools/getBalance/_gradings/" \
    "single-test--decision-maker--crypto--2026-05-29T15-34-00Z.json"
VETO_ENTRY = "grading-data/providers/example/maliciousAdapter/tools/maliciousAdapter/_gradings/" \
    "single-test--2026-05-29T10-00-00Z.json"
DEFILLAMA_INDEX = "grading-data/providers/defillama/index.json"
SELECTION_INDEX = "grading-data/selections/crypto-domain-full/index.json"


def shared(name: str) -> Any:
    return json.loads(shared_file(f"{EXAMPLES}/{name}").read_text(encoding="utf-8"))


def write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document if isinstance(document, str) else json.dumps(document, indent=2), encoding="utf-8")
    return path


def spec_tree(data: Path) -> Path:
    """The Grading-Spec's own examples as one tree: the namespace index (23-index-json §6), the two
    grading entries of 08-grading-model §15 in their tools' `_gradings/`, and the lockSnapshot of
    16-selection-lockfile as a selection's index.json."""
    for source, target in (
        ("namespace-index.json", DEFILLAMA_INDEX),
        ("grading-entry-autonomous.json", ETHERSCAN_ENTRY),
        ("grading-entry-rejected-veto.json", VETO_ENTRY),
        ("lock-snapshot.json", SELECTION_INDEX),
    ):
        (data / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared_file(f"{EXAMPLES}/{source}"), data / target)
    return data


def answer(question: str, score: Any, *, weight: float = 1.0, llm: bool = False, **extra: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "questionId": question, "score": score, "weight": weight,
        "determinism": "non-deterministic" if llm else "deterministic",
        "graderIdentity": {"kind": "llm", "name": "m", "version": "1"} if llm
        else {"kind": "script", "name": "validator", "version": "0.1.0"},
        "timestamp": "2026-06-01T10:00:00Z",
    }
    if llm:
        found["llmModel"] = "test-model"
        found["selectionContext"] = {"groupId": "g", "personaIds": ["decision-maker"]}
    found.update(extra)
    return found


def entry(answers: list[dict[str, Any]], *, area: str = "single-test", grade: str = "B", **extra: Any) -> dict[str, Any]:
    """A valid grading entry of `area` in namespace `ns` (tier, persona, skill and selection filled in as
    the area needs)."""
    base = copy.deepcopy(shared("grading-entry-autonomous.json"))
    group = area not in ("single-test", "tools-aggregate-schema", "tools-aggregate-namespace",
                         "namespace-description", "namespace-skills", "about-namespace")
    base.update({"area": area, "gradings": answers, "aggregateGrade": grade, "schemaId": "ns.t",
                 "gradingTier": "group-bound" if group else "autonomous", "maxAttainableGrade": "A" if group else "B"})
    if group:
        base["selectionId"] = "sel"
    if area in ("namespace-skills", "selection-skills-L1", "selection-skills-L2", "selection-skills-L3"):
        base["skillId"] = "skill"
    base.update(extra)
    return base
