"""Names a Windows checkout cannot hold, and links the docs do not allow, through the real commands.

- A server id Windows reserves (`nul`, `con`, `lpt9`, in any case) or ending in a dot is refused by
  `scorecards add` with one line, and a data folder that has one anyway builds a site whose every
  path can be checked out on Windows (the reserved names listed here by hand, from Microsoft's
  "Naming Files, Paths, and Namespaces").
- A repository or homepage URL that is not http(s) (`mailto:`) is not linked
  (docs/data-format.md: "Links are shown only when they are http(s) URLs").
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from site_helpers import Page
from test_add import run, save_report, snapshot

from builder.cli import main

ROOT = Path(__file__).resolve().parents[1]
RESERVED = {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))}
IDS = ["nul", "CON", "lpt9", "trailing.", "com1.tools"]


def _portable(segment: str) -> bool:
    return segment.split(".")[0].lower() not in RESERVED and not segment.endswith((".", " "))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    home = tmp_path_factory.mktemp("names")
    data = home / "data"
    source = sorted((ROOT / "data" / "servers").iterdir())[0]
    for server_id in IDS:
        shutil.copytree(source, data / "servers" / server_id)
    (data / "servers" / "nul" / "server.json").write_text(json.dumps(
        {"repositoryUrl": "mailto:owner@example.org", "homepageUrl": "https://example.org/home"}), encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["index", str(data)]) == 0
        assert main(["build", str(data), "-o", str(home / "site"), "--no-search", "--workers", "1"]) == 0
    return data, home / "site"


def test_every_output_path_can_be_checked_out_on_windows(site: tuple[Path, Path]) -> None:
    _, out = site
    paths = [path.relative_to(out).as_posix() for path in out.rglob("*")]
    assert [path for path in paths if not all(_portable(part) for part in path.split("/"))] == []
    servers = sorted(path.name for path in (out / "servers").iterdir() if path.is_dir())
    assert len(servers) == len(IDS)  # each server has its own folder


def test_a_mailto_repository_url_is_not_linked_and_an_https_homepage_is(site: tuple[Path, Path]) -> None:
    _, out = site
    pages = [path for path in (out / "servers").glob("*/index.html") if "https://example.org/home" in path.read_text()]
    assert len(pages) == 1
    page = Page(pages[0].read_text(encoding="utf-8"))
    assert not [link for link in page.links if link.startswith("mailto:")]
    assert "https://example.org/home" in page.links


@pytest.mark.parametrize(("name", "flag"), [("nul", None), ("LPT9", None), ("release.", None), ("ok", "con"),
                                            ("ok", "aux.json")])
def test_add_refuses_a_server_id_windows_cannot_hold(tmp_path: Path, name: str, flag: str | None, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    report = tmp_path / "report.json"
    save_report(report, server_name=name)
    code, said, err = run("add", data, report, *(["--server", flag] if flag else []), capsys=capsys)
    rule = ("1-128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit, not ending in a dot, not a name "
            "Windows reserves")
    if flag:
        expected = f"scorecards: {flag}: --server: not a valid server id ({rule}); nothing was written\n"
    else:
        expected = (f"scorecards: {report}: $.server.name: {name!r} is not a valid server id ({rule}): name the server "
                    "with --server ID; nothing was written\n")
    assert (code, said, err) == (2, [], expected)
    assert snapshot(data) == {}
