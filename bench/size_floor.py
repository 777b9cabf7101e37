"""The least a site with one page per tool can weigh: what limits the site's size, from the corpus.

    python -m bench.size_floor CORPUS            # a data folder, e.g. a `scorecards demo` corpus

A tool page must carry what is that tool's own: its name, title and description, its input schema
(printed as the tool page prints it: indented JSON, `&`, `<` and `>` escaped), the grading's summary
and its six justifications. Nothing else is counted: no markup, no navigation, no checklist, no
scores. Each page is also a file in the GitHub Pages artifact, a tar: a 512-byte header for the
file and one for its folder (`tools/<name>/index.html`), its padding to 512 bytes not counted.

The sum over the current tools of every server is a floor under the tool pages alone: no page
design can publish them in fewer bytes. It is read straight from the corpus's JSON, not through
the builder. Prints the floor and its parts, and the same as a share of GitHub Pages' supported
1 GB; `--json` writes them as JSON too.
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PAGES_LIMIT = 1_000_000_000
"""GitHub Pages' supported site size (decimal, as GitHub states it)."""

TAR_ENTRY = 512
"""A tar header: one for each file and one for each folder."""


@dataclass
class Floor:
    servers: int = 0
    tools: int = 0
    names: int = 0
    descriptions: int = 0
    schemas: int = 0
    justifications: int = 0
    summaries: int = 0
    tar_entries: int = 0
    gzip_of_text: int = 0

    @property
    def text(self) -> int:
        return self.names + self.descriptions + self.schemas + self.justifications + self.summaries

    @property
    def total(self) -> int:
        return self.text + self.tar_entries


def _newest(folder: Path, suffix: str) -> Path | None:
    """The newest file of a server's folder with this suffix: capture names start with their
    UTC time stamp (`2026-05-02T23-00-12Z`), so the greatest name is the newest."""
    found = sorted(folder.glob(f"*{suffix}"))
    return found[-1] if found else None


def _schema_text(schema: Any) -> str:
    return html.escape(json.dumps(schema, indent=2, ensure_ascii=False), quote=False)


def measure(corpus: Path) -> Floor:
    floor = Floor()
    text_parts: list[bytes] = []
    for server in sorted(p for p in (corpus / "servers").iterdir() if p.is_dir()):
        score_file = _newest(server, ".score.json")
        if score_file is None:
            continue
        floor.servers += 1
        scored = json.loads(score_file.read_text(encoding="utf-8"))
        tools_file = _newest(server, ".tools.json")
        definitions: dict[str, dict[str, Any]] = {}
        if tools_file is not None:
            listed = json.loads(tools_file.read_text(encoding="utf-8"))
            for tool in listed.get("tools", []) if isinstance(listed, dict) else listed:
                definitions[str(tool.get("name"))] = tool
        for tool in scored.get("tools", []):
            name = str(tool.get("name", ""))
            definition = definitions.get(name, {})
            parts = {
                "names": name + str(definition.get("title") or ""),
                "descriptions": str(definition.get("description") or ""),
                "schemas": _schema_text(definition.get("inputSchema", {})),
                "justifications": "".join(
                    str(j.get("justification", "")) for j in (tool.get("justifications") or {}).values()),
                "summaries": str(tool.get("summary") or ""),
            }
            for key, value in parts.items():
                encoded = html.escape(value, quote=False).encode() if key != "schemas" else value.encode()
                setattr(floor, key, getattr(floor, key) + len(encoded))
                text_parts.append(encoded)
            floor.tools += 1
            floor.tar_entries += 2 * TAR_ENTRY
    floor.gzip_of_text = len(gzip.compress(b"".join(text_parts), 6))
    return floor


def report(floor: Floor) -> list[str]:
    def gb(value: int) -> str:
        return f"{value / 1e6:9,.1f} MB"

    lines = [
        f"{floor.servers:,} servers, {floor.tools:,} current tools: the floor under one page per tool",
        f"  names and titles    {gb(floor.names)}",
        f"  descriptions        {gb(floor.descriptions)}",
        f"  input schemas       {gb(floor.schemas)}  (indented JSON, as printed)",
        f"  justifications      {gb(floor.justifications)}",
        f"  summaries           {gb(floor.summaries)}",
        f"  tar headers         {gb(floor.tar_entries)}  (a file and its folder, 1,024 bytes a tool)",
        f"  total               {gb(floor.total)} = {floor.total / PAGES_LIMIT:.0%} of GitHub Pages' supported 1 GB",
        f"  the text gzipped    {gb(floor.gzip_of_text)} (all of it as one stream: less than any set of files)",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if not (args.corpus / "servers").is_dir():
        print(f"{args.corpus}: no servers/ folder, so not a data folder", file=sys.stderr)
        return 2
    floor = measure(args.corpus)
    print("\n".join(report(floor)))
    if args.json:
        args.json.write_text(json.dumps({**asdict(floor), "text": floor.text, "total": floor.total}, indent=2) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
