"""A hand-made pair of TDQS data folders for `scorecards diff`, with real tdqs models (tests/corpus.py).

What merging `head` into `base` does, worked out by hand (tests/test_diff.py writes it out):

- alpha: two tools, every dimension 4 (TDQS 4.0); coherence 4, 4, 4, 4 (4.0). In head, `fetch` falls
  to every dimension 2 (TDQS 2.0, tier C, six new smells) and `store` gains the flag "Annotation
  Contradiction", which caps behavioural transparency at 1: 4, 3, 1, 4, 4, 4 (TDQS 3.2, tier B, one new smell).
- beta: five tools, every one scored, in base; in head a newer capture scores three of its five
  (60%, under the 80% rule): its overall score is withheld and it loses its tier.
- gone: only in base (removed). `Pipe | *bold* <script>`: only in head (added), its name made to
  break a Markdown table.
"""

from __future__ import annotations

from pathlib import Path

from corpus import definition, report, scores, tool_score, write_capture

EARLY = "2026-06-01T00:00:00.000Z"
LATE = "2026-06-02T00:00:00.000Z"
HOSTILE = "Pipe | *bold* <script>alert(1)</script> 100%\r\nnext: a, b"


def _tools(names: list[str]) -> list[dict[str, object]]:
    return [definition(name, f"Does {name}.") for name in names]


def write_base(data: Path) -> None:
    alpha = _tools(["fetch", "store"])
    write_capture(data, "alpha", report("alpha", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in alpha],
                                        coherence=(4, 4, 4, 4), generated_at=EARLY), alpha)
    beta = _tools(["b1", "b2", "b3", "b4", "b5"])
    write_capture(data, "beta", report("beta", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in beta],
                                       coherence=(4, 4, 4, 4), generated_at=EARLY), beta)
    gone = _tools(["g1"])
    write_capture(data, "gone", report("gone", [tool_score(d, scores(3, 3, 3, 3, 3, 3)) for d in gone],
                                       coherence=(3, 3, 3, 3), generated_at=EARLY), gone)


def write_head(data: Path) -> None:
    alpha = _tools(["fetch", "store"])
    write_capture(data, "alpha", report("alpha", [
        tool_score(alpha[0], scores(2, 2, 2, 2, 2, 2)),
        tool_score(alpha[1], scores(4, 3, 1, 4, 4, 4), flags=["Annotation Contradiction"]),
    ], coherence=(4, 4, 4, 4), generated_at=LATE), alpha)
    beta = _tools(["b1", "b2", "b3", "b4", "b5"])
    write_capture(data, "beta", report("beta", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in beta],
                                       coherence=(4, 4, 4, 4), generated_at=EARLY), beta)
    write_capture(data, "beta", report("beta", [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in beta[:3]],
                                       coherence=(4, 4, 4, 4), generated_at=LATE, tool_count=5), beta)
    added = _tools(["a1"])
    write_capture(data, "added", report(HOSTILE, [tool_score(d, scores(4, 4, 4, 4, 4, 4)) for d in added],
                                        coherence=(4, 4, 4, 4), generated_at=LATE), added)
