"""`scorecards serve`: the built folder on localhost, under the same base path as in production,
so a site built with `--base-url /<repo>/` can be checked exactly as GitHub Pages will serve it."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path


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
