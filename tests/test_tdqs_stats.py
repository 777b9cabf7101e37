"""The home page and api/stats.json equal an independent computation over the same files.

The expected figures are computed here from the raw capture JSON with plain Python (json,
statistics, fractions): no reader, no DuckDB, no tdqs."""

from __future__ import annotations

import json
import random
import statistics
from fractions import Fraction
from pathlib import Path

import pytest
from corpus import KEYS, definition, report, tool_score, write_capture
from site_helpers import Page, api, build_in_memory

WEIGHTS = {"purpose_clarity": 25, "usage_guidelines": 20, "behavioral_transparency": 20,
           "parameter_semantics": 15, "conciseness_structure": 10, "contextual_completeness": 10}
CAMEL = {"purpose_clarity": "purposeClarity", "usage_guidelines": "usageGuidelines",
         "behavioral_transparency": "behavioralTransparency", "parameter_semantics": "parameterSemantics",
         "conciseness_structure": "concisenessStructure", "contextual_completeness": "contextualCompleteness"}


def make_corpus(data: Path, seed: int = 7) -> None:
    rng = random.Random(seed)
    for s in range(12):
        captures = 2 if s % 4 == 0 else 1
        for c in range(captures):
            tools = []
            for t in range(rng.randint(1, 9)):
                dims = {k: rng.choice([1, 2, 3, 3, 4, 4, 5, 5]) for k in KEYS}
                flags = ["No Description"] if rng.random() < 0.08 else []
                if flags:
                    dims = dict.fromkeys(KEYS, 1)
                defn = definition(f"tool_{t}", None if flags else f"Tool {t} v{c}")
                tools.append(tool_score(defn, dims, flags=flags))
            coherence = tuple(rng.randint(2, 5) for _ in range(4))
            stamp = f"2026-0{c + 5}-0{s % 9 + 1}T10:00:00.000Z"
            rep = report(f"server-{s:02d}", tools, coherence=coherence, generated_at=stamp)
            write_capture(data, f"server-{s:02d}", rep)


def half_up(value: Fraction) -> Fraction:
    return Fraction(int(value * 10 + Fraction(1, 2)), 10)


def expected_figures(data: Path) -> dict:
    current_tools, definitions, servers = [], set(), []
    for folder in sorted((data / "servers").iterdir()):
        reports = [json.loads(p.read_text()) for p in folder.glob("*.score.json")]
        newest = max(reports, key=lambda r: r["generatedAt"])
        definitions |= {(folder.name, t["name"], t["contextSignals"]["inputHash"]) for r in reports for t in r["tools"]}
        tenths = []
        for tool in newest["tools"]:
            dims = {k: tool["scores"][CAMEL[k]] for k in KEYS}
            tdqs = half_up(sum(Fraction(WEIGHTS[k] * v, 100) for k, v in dims.items()))
            tenths.append(int(tdqs * 10))
            current_tools.append((dims, tdqs, tool["flags"] + tool["serverFlags"]))
        s = newest["serverScore"]
        coherence = [s["disambiguation"], s["namingConsistency"], s["toolCountAppropriateness"], s["completeness"]]
        servers.append((tenths, coherence))
    n = len(current_tools)
    values = [float(t) for _, t, _ in current_tools]
    tiers = {"A": 0, "B": 0, "C": 0, "D": 0, "F": 0}
    for _, t, _ in current_tools:
        tiers["A" if t >= Fraction(35, 10) else "B" if t >= 3 else "C" if t >= 2 else "D" if t >= 1 else "F"] += 1
    q = statistics.quantiles(values, n=4, method="inclusive")
    gaps = [Fraction(sum(t) - len(t) * min(t), 10 * len(t)) for t, _ in servers]
    overall = []
    for t, coh in servers:
        dq = half_up(Fraction(6, 10) * Fraction(sum(t), 10 * len(t)) + Fraction(4, 10) * Fraction(min(t), 10))
        ch = half_up(Fraction(sum(coh), 4))
        overall.append(half_up(Fraction(7, 10) * dq + Fraction(3, 10) * ch))
    return {
        "serverCount": len(servers),
        "toolCount": n,
        "scoredDefinitions": len(definitions),
        "mean": sum(Fraction(t) for _, t, _ in current_tools) / n,
        "median": statistics.median(values),
        "p25": q[0],
        "p75": q[2],
        "tiers": tiers,
        "dimensions": {
            k: (
                Fraction(sum(d[k] for d, _, _ in current_tools), n),
                Fraction(sum(d[k] < 3 for d, _, _ in current_tools), n),
            )
            for k in KEYS
        },
        "smellShare": Fraction(sum(any(v < 3 for v in d.values()) for d, _, _ in current_tools), n),
        "noDescription": Fraction(sum("No Description" in f for _, _, f in current_tools), n),
        "gap": sum(gaps) / len(gaps),
        "outliers": Fraction(sum(g >= 1 for g in gaps), len(gaps)),
        "overall": sum(overall) / len(overall),
    }


def test_stats_equal_an_independent_computation(tmp_path: Path) -> None:
    make_corpus(tmp_path)
    want = expected_figures(tmp_path)
    writer, _ = build_in_memory(tmp_path)
    got = api(writer, "api/stats.json")
    approx = lambda value: pytest.approx(float(value), abs=1e-6)  # noqa: E731

    assert got["serverCount"] == want["serverCount"]
    assert got["toolCount"] == want["toolCount"]
    assert got["scoredDefinitions"] == want["scoredDefinitions"] > want["toolCount"]
    assert got["tdqs"].pop("percentileMethod").startswith("linear interpolation between the two nearest ranks")
    assert got["tdqs"] == {"mean": approx(want["mean"]), "median": approx(want["median"]),
                           "p25": approx(want["p25"]), "p75": approx(want["p75"])}
    for tier, count in want["tiers"].items():
        assert got["tiers"][tier] == {"count": count, "share": approx(Fraction(count, want["toolCount"]))}
    for key, (mean, smell) in want["dimensions"].items():
        assert got["dimensions"][key] == {"mean": approx(mean), "smellRate": approx(smell)}
    assert got["smellShare"] == approx(want["smellShare"])
    assert got["flagShares"]["No Description"] == approx(want["noDescription"])
    assert want["noDescription"] > 0
    assert got["serverLevel"]["meanMinGap"] == approx(want["gap"])
    assert got["serverLevel"]["shareWithOutlier"] == approx(want["outliers"])
    assert got["serverLevel"]["overallMean"] == approx(want["overall"])

    # Issue 22: every figure is rounded half up on its exact value, as tdqs's round1 does.
    text = Page(writer.text("index.html")).text
    assert f"{want['scoredDefinitions']} distinct definitions have been scored" in text
    assert f"The average tool scores {shown(want['mean'], 2)}" in text
    assert (f"half of all tools score {shown(want['median'], 2)} or more, and the middle half between "
            f"{shown(want['p25'], 2)} and {shown(want['p75'], 2)}") in text
    for tier, count in want["tiers"].items():
        assert f"{count} {shown(Fraction(count * 100, want['toolCount']), 1)}%" in text, tier
    assert f"{shown(want['smellShare'] * 100, 1)}% of tools carry at least one smell" in text
    assert f"on average {shown(want['gap'], 2)} below its mean" in text


def shown(value: Fraction | float, digits: int) -> str:
    """Half up on the exact value (a float as written), by hand: floor(x·10^d + 1/2)."""
    exact = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    units = int((exact * 10**digits + Fraction(1, 2)) // 1)
    return f"{units // 10**digits}.{units % 10**digits:0{digits}d}"


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    make_corpus(tmp_path / "data")
    first, _ = build_in_memory(tmp_path / "data")
    second, _ = build_in_memory(tmp_path / "data")
    assert first.files.keys() == second.files.keys()
    assert first.files == second.files
