"""A tdqs ScoreReport of an operator's own tools/list, made by the stand-in instead of a model, for
`scorecards try`: to see what the site makes of one's tools without a model or a key.

The report is what `tdqs score --format json --output` writes, scored by the real
`tdqs.score_server` with `StandInLlm`, so its model is `stand-in/…` and every page that shows it
says "Stand-in scores". The definitions are the operator's; the judgements are synthetic.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tdqs import TdqsInputError, parse_tool_definitions, score_server, stringify_json

from scorecards_demo.standin import StandInLlm

SERVER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
"""As the data folder's server ids (builder.tdqs.layout.SERVER_ID)."""


class NotToolsList(ValueError):
    """The file is not a tools/list tdqs can score: the message names the file and the reason."""


def server_id_for(path: Path, document: object) -> str:
    """The id the server is filed under: the file's `serverName` (or `server.name`, as in
    ../shared/real-tools) when it is a valid id, else the file's name without `.json`/`.tools`,
    with anything an id may not hold replaced by `-`."""
    names: list[object] = []
    if isinstance(document, dict):
        names.append(document.get("serverName"))
        server = document.get("server")
        names.append(server.get("name") if isinstance(server, dict) else None)
    for name in names:
        if isinstance(name, str) and SERVER_ID.match(name):
            return name
    stem = path.name.removesuffix(".json").removesuffix(".tools")
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:128]
    return cleaned or "server"


def stand_in_report(path: Path) -> tuple[str, bytes]:
    """(server id, the report's bytes) for the tools/list at `path`."""
    try:
        document = json.loads(path.read_text(encoding="utf-8-sig"))
        tools = parse_tool_definitions(document).tools
    except (OSError, UnicodeDecodeError) as error:
        raise NotToolsList(f"{path}: cannot be read: {error}") from error
    except ValueError as error:  # json.JSONDecodeError
        raise NotToolsList(f"{path}: not JSON: {error}") from error
    except TdqsInputError as error:
        raise NotToolsList(f"{path}: {error}") from error
    server = server_id_for(path, document)
    report = score_server(llm=StandInLlm(), server_name=server, tools=tools, concurrency=1)
    return server, (stringify_json(report.model_dump(mode="json"), indent=2) + "\n").encode()
