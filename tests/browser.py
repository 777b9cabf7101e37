"""Headless Chromium for tests: Debian's chromium driven by Playwright for Python.

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by .ci/run). The site is
served on loopback by the project's own server, under a base path as on GitHub Pages."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from builder.serve import make_server

CHROMIUM = os.environ.get("SCORECARDS_CHROMIUM", "/usr/bin/chromium")
HEADLESS_SHELL = os.environ.get("SCORECARDS_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
"""Debian's chromium-headless-shell: the same Blink and V8 as CHROMIUM without the browser's window
machinery (Chromium's old headless mode). It loads a page with about two thirds of the CPU."""
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
OUTPUT = Path(__file__).resolve().parents[1] / "test-output"


def require_chromium() -> None:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")


def lightest_chromium() -> str:
    """HEADLESS_SHELL where it is installed (.ci/run installs it), else CHROMIUM: for a test that
    loads many pages and looks at their DOM and dialogs, not at how they are drawn."""
    return HEADLESS_SHELL if HEADLESS_SHELL and shutil.which(HEADLESS_SHELL) is not None else CHROMIUM


@contextmanager
def served(folder: Path, base_url: str = "/") -> Iterator[str]:
    server = make_server(folder, port=0, base_url=base_url, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{base_url}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium() -> Iterator[object]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
