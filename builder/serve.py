"""`scorecards serve`: the built folder on localhost, under the same base path as in production,
so a site built with `--base-url /<repo>/` can be checked exactly as GitHub Pages will serve it:
text files gzipped for a client that accepts it, as Pages does (Lighthouse measures with it)."""

from __future__ import annotations

import functools
import gzip
import http.server
import os
from pathlib import Path

COMPRESSED = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".csv", ".jsonl"}
"""What GitHub Pages gzips: text, not images, fonts or the already compressed search index."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    base_path = "/"
    quiet = False

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def translate_path(self, path: str) -> str:
        if self.base_path != "/" and path.startswith(self.base_path):
            path = "/" + path[len(self.base_path):]
        elif self.base_path != "/":
            path = "/__outside_base_path__"
        return super().translate_path(path)

    def do_GET(self) -> None:
        if not self._send_gzipped(head=False):
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._send_gzipped(head=True):
            super().do_HEAD()

    def _send_gzipped(self, *, head: bool) -> bool:
        """Sends the file gzipped when the client accepts it and it is text; False to let the
        standard handler answer (folders without a slash, missing files, binary files)."""
        if "gzip" not in self.headers.get("Accept-Encoding", ""):
            return False
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return False
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path) or os.path.splitext(path)[1] not in COMPRESSED:
            return False
        with open(path, "rb") as handle:
            body = gzip.compress(handle.read(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code == 404:
            page = Path(self.directory) / "404.html"
            if page.is_file():
                body = page.read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        super().send_error(code, message, explain)


def make_server(
    folder: Path, *, port: int, base_url: str = "/", host: str = "127.0.0.1", quiet: bool = False
) -> http.server.ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"base_path": base_url, "quiet": quiet})
    return http.server.ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(folder)))


def serve(folder: Path, *, port: int, base_url: str = "/") -> None:
    server = make_server(folder, port=port, base_url=base_url)
    print(f"serving {folder} at http://127.0.0.1:{server.server_address[1]}{base_url} (Ctrl-C to stop)")
    try:
        server.serve_forever()
    finally:
        server.server_close()
