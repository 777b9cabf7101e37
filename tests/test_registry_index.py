"""`scorecards index` writes index.json as servers are read, one at a time: the same bytes as a
dump of the whole index model, without holding a registry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.cli import main
from builder.engine.problems import ProblemLog
from builder.tdqs.models import RegistryIndex
from builder.tdqs.reader import read_tdqs
from builder.tdqs.registry_index import dump_index, index_server, index_text

DATA = Path(__file__).resolve().parents[1] / "data"


def _whole(servers: tuple) -> str:
    """The index as one model dumped at once: what index_text must reproduce piece by piece."""
    return dump_index(RegistryIndex(servers=[index_server(server) for server in servers]))


@pytest.mark.parametrize("count", [0, 1, 2])
def test_a_streamed_index_is_the_dump_of_the_whole_model(tmp_path: Path, count: int) -> None:
    for number in range(count):
        name = f"server-{number}"
        tool = definition("fetch_ünïcode", "Fetches — «quoted» \"text\".\nSecond line.")
        write_capture(tmp_path, name, report(name, [tool_score(tool, scores(4, 3, 5, 2, 4, 3))]), [tool])
    corpus = read_tdqs(tmp_path, ProblemLog())
    servers = corpus.servers if corpus is not None else ()
    assert len(servers) == count
    assert "".join(index_text(iter(servers))) == _whole(servers)


def test_the_index_command_rewrites_data_index_json_byte_for_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    committed = (DATA / "index.json").read_bytes()
    (data / "index.json").unlink()
    assert main(["index", str(data)]) == 0
    assert (data / "index.json").read_bytes() == committed
    servers = len(list((DATA / "servers").iterdir()))
    assert f"({servers} servers)" in capsys.readouterr().out
