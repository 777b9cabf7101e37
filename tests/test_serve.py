"""`scorecards serve`, run as the operator runs it (a subprocess on an ephemeral port): the base path
without its slash redirected, no folder listings, no traceback for a client that hangs up or asks for
`%00`, one line for a busy port, and with `--watch` a rebuild and a browser reload on every change.
The site's files are never changed by serving them."""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture

GUARD = Path(__file__).resolve().parent / "fork_guard.py"
"""Runs the command with the count of threads at each fork (tests/fork_guard.py)."""

WAIT = 120.0
"""Seconds to wait for a start or a rebuild: the machine is shared, a build takes seconds."""

INDEX = b"<!doctype html><title>home</title><body><p>home page</p></body>\n"
NOT_FOUND = b"<!doctype html><title>missing</title><body><p>no such page</p></body>\n"
BIG = b"x" * 4_000_000


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with OPENER.open(url, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@contextmanager
def serving(*args: str, cwd: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`scorecards serve … --port 0`: the address it prints, and the process (stopped with Ctrl-C),
    which says each unsafe fork it made on its standard error as it exits (tests/fork_guard.py)."""
    process = subprocess.Popen(
        [sys.executable, str(GUARD), "builder.cli", "serve", *args, "--port", "0"], cwd=cwd, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + WAIT
        line = ""
        while time.monotonic() < deadline and not line.startswith("serving "):
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                raise AssertionError(f"serve ended: {process.stderr.read() if process.stderr else ''}")
        assert line.startswith("serving "), line
        yield line.split(" at ", 1)[1].split()[0], process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def stopped(process: subprocess.Popen[str]) -> tuple[int | None, str]:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    return process.returncode, err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    (folder / "empty").mkdir(parents=True)
    (folder / "empty" / "data.json").write_bytes(b"{}\n")
    (folder / "index.html").write_bytes(INDEX)
    (folder / "404.html").write_bytes(NOT_FOUND)
    (folder / "big.txt").write_bytes(BIG)
    return folder


def test_the_base_path_without_its_slash_redirects_and_folders_are_not_listed(site: Path, tmp_path: Path) -> None:
    before = snapshot(site)
    with serving("site", "--base-url", "/repo/", cwd=tmp_path) as (url, process):
        origin = url.removesuffix("/repo/")
        status, headers, _ = fetch(origin + "/repo")
        assert status == 301 and headers["Location"] == "/repo/"
        status, headers, _ = fetch(origin + "/repo?q=1")
        assert status == 301 and headers["Location"] == "/repo/?q=1"
        assert fetch(origin + "/repo/")[::2] == (200, INDEX)
        status, _, body = fetch(url + "empty/")
        assert status == 404 and body == NOT_FOUND  # the 404 page, not an index of empty/
        assert fetch(url + "empty")[0] == 301
        assert fetch(url + "empty/data.json")[2] == b"{}\n"
        code, err = stopped(process)
    assert code == 0 and "Traceback" not in err
    assert snapshot(site) == before


def test_a_client_that_hangs_up_or_asks_for_nul_prints_no_traceback(site: Path, tmp_path: Path) -> None:
    before = snapshot(site)
    with serving("site", cwd=tmp_path) as (url, process):
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        for path in ("/%00", "/a%00b/index.html", "/empty/%00"):
            status, _, body = fetch(url.rstrip("/") + path)
            assert (status, body) == (404, NOT_FOUND), path
        for _ in range(5):  # asks for 4 MB and resets the connection before reading any of it
            with socket.create_connection((host, int(port)), timeout=10) as client:
                client.sendall(b"GET /big.txt HTTP/1.1\r\nHost: x\r\n\r\n")
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        with socket.create_connection((host, int(port)), timeout=10) as client:
            client.sendall(b"GET /index.ht")  # half a request, then gone
        time.sleep(1)
        assert fetch(url)[2] == INDEX  # still serving
        code, err = stopped(process)
    assert code == 0
    assert "Traceback" not in err and "Exception" not in err and "Error" not in err, err
    assert snapshot(site) == before


def test_a_busy_port_is_one_line_and_exit_2(site: Path, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "builder.cli", "serve", "site", "--port", str(port)],
                                cwd=tmp_path, capture_output=True, text=True, timeout=WAIT, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"scorecards: cannot serve on 127.0.0.1 port {port}: Address already in use "
                             "(another server is there? choose another with --port)\n")


def test_a_bad_base_url_is_one_line_and_exit_2(site: Path, tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "builder.cli", "serve", "site", "--base-url", "https://x.org/a b"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=WAIT, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "scorecards: --base-url: a URL cannot hold white space or control characters\n"


def test_host_is_the_address_served_on(site: Path, tmp_path: Path) -> None:
    with serving("site", "--host", "127.0.0.2", "-q", cwd=tmp_path) as (url, process):
        assert url.startswith("http://127.0.0.2:")
        assert fetch(url)[2] == INDEX
        code, err = stopped(process)
    assert code == 0 and err == ""  # -q: not even the request lines


def test_watch_rebuilds_on_a_data_change_and_the_page_reloads(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_capture(data, "first-server", report("first-server", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))
    (tmp_path / "scorecards.toml").write_text('base_url = "/repo/"\n', encoding="utf-8")
    with serving("site", "--watch", "data", "--no-search", cwd=tmp_path) as (url, process):
        assert url.endswith("/repo/")
        origin = url.removesuffix("/repo/")
        status, _, page = fetch(url + "servers/index.html")
        assert status == 200 and b"first-server" in page and b"second-server" not in page
        # The reload script is added as the page is sent; the built file does not have it.
        tag = b'<script src="/__scorecards__/reload.js" data-version="0"></script>'
        assert tag in page and b"__scorecards__" not in (tmp_path / "site" / "servers" / "index.html").read_bytes()
        script = fetch(origin + "/__scorecards__/reload.js")
        assert script[0] == 200 and script[1]["Content-Type"].startswith("text/javascript")
        assert b'"/__scorecards__/version"' in script[2] and b"location.reload()" in script[2]
        assert fetch(origin + "/__scorecards__/version")[2] == b"0"

        write_capture(data, "second-server",
                      report("second-server", [tool_score(definition("u"), scores(3, 3, 3, 3, 3, 3))]))
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and fetch(origin + "/__scorecards__/version")[2] == b"0":
            time.sleep(0.2)
        assert fetch(origin + "/__scorecards__/version")[2] != b"0", "no rebuild"
        page = fetch(url + "servers/index.html")[2]
        assert b"second-server" in page and b'data-version="0"' not in page
        assert b"second-server" in (tmp_path / "site" / "servers" / "index.html").read_bytes()

        (tmp_path / "scorecards.toml").write_text('base_url = "/repo/"\ntitle = "Renamed"\n', encoding="utf-8")
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and b"Renamed" not in fetch(url)[2]:
            time.sleep(0.2)
        assert b"<title>MCP tool definition scorecards \xc2\xb7 Renamed</title>" in fetch(url)[2]
        code, err = stopped(process)
    assert code == 0 and "Traceback" not in err
    assert "unsafe fork" not in err  # the rebuilds run in processes of their own, not forked from the server's


def test_an_open_page_reloads_itself_after_a_rebuild_in_a_real_browser(tmp_path: Path) -> None:
    from browser import chromium

    data = tmp_path / "data"
    write_capture(data, "first-server", report("first-server", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))
    with serving("site", "--watch", "data", "--no-search", cwd=tmp_path) as (url, process), chromium() as browser:
        page = browser.new_page()  # type: ignore[attr-defined]
        problems: list[str] = []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.goto(url + "servers/index.html")
        assert "first-server" in page.inner_text("main") and "second-server" not in page.inner_text("main")
        write_capture(data, "second-server",
                      report("second-server", [tool_score(definition("u"), scores(3, 3, 3, 3, 3, 3))]))
        # The test does not reload: the page's own script does (a locator, since the page's CSP forbids eval).
        page.locator("main", has_text="second-server").wait_for(timeout=WAIT * 1000)
        assert problems == []  # the script is allowed by the page's Content-Security-Policy
        code, err = stopped(process)
    assert code == 0 and "Traceback" not in err
