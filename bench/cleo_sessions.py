"""A data folder of CLEO session grades only, of any size, for timing a site without TDQS: the rows of
the repository's data/sessions/GRADES.jsonl again and again, each with a session id of its own.

    python -m bench.cleo_sessions OUT --sessions 5000      # OUT: a new folder"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_sessions(out: Path, sessions: int) -> Path:
    """Writes `out`/sessions/GRADES.jsonl with `sessions` rows; returns the file."""
    rows = [json.loads(line) for line in (ROOT / "data" / "sessions" / "GRADES.jsonl").read_text("utf-8").splitlines()]
    target = out / "sessions" / "GRADES.jsonl"
    target.parent.mkdir(parents=True)
    with open(target, "w", encoding="utf-8") as file:
        for number in range(sessions):
            row = dict(rows[number % len(rows)], sessionId=f"session-{1777884067392 + number}-{number:06x}")
            file.write(json.dumps(row) + "\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sessions", type=int, default=5000)
    args = parser.parse_args()
    if args.out.exists():
        parser.error(f"{args.out} exists: give a new folder")
    print(f"{args.sessions:,} sessions in {write_sessions(args.out, args.sessions)}")


if __name__ == "__main__":
    main()
