"""The embedded corpus, built with --base-url /scorecards/ and served under that path, has no broken
internal link: every page is crawled and every href and src is followed."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from shared_sites import scorecards_config
from site_helpers import Page

from builder.serve import make_server


@pytest.fixture(scope="module")
def served_site(scorecards_site: Path) -> Iterator[str]:
    """data/ built with --base-url /scorecards/ (the session's shared build, read only here)."""
    assert scorecards_config().base_url == "/scorecards/"
    server = make_server(scorecards_site, port=0, base_url="/scorecards/", quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/scorecards/"
    server.shutdown()
    server.server_close()


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, "", b""


def test_every_internal_link_resolves(served_site: str) -> None:
    host = urlsplit(served_site).netloc
    queue, seen, broken, pages = [served_site], {served_site}, [], 0
    while queue:
        url = queue.pop()
        status, kind, body = fetch(url)
        if status != 200:
            broken.append(url)
            continue
        if "text/html" not in kind:
            continue
        pages += 1
        page = Page(body.decode("utf-8"))
        for ref in page.links + page.sources:
            target = urldefrag(urljoin(url, ref)).url
            parts = urlsplit(target)
            if parts.scheme not in ("http", "https") or parts.netloc != host:
                continue
            assert parts.path.startswith("/scorecards/"), f"{url} links outside the base path: {ref}"
            if target not in seen:
                seen.add(target)
                queue.append(target)
    assert not broken, broken[:20]
    assert pages > 100


def test_not_found_page_links_work_from_any_depth(served_site: str) -> None:
    status, _, body = fetch(served_site + "no/such/page/")
    assert status == 404
    page = Page(body.decode("utf-8"))
    for ref in page.links + page.sources:
        if ref.startswith("/"):
            assert ref.startswith("/scorecards/")
            assert fetch(urljoin(served_site, ref))[0] == 200, ref
