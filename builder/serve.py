"""`scorecards serve`: the built folder on localhost, under the same base path as in production,
so a site built with `--base-url /<repo>/` can be checked exactly as GitHub Pages will serve it:
text files gzipped for a client that accepts it, as Pages does (Lighthouse measures with it);
the base path without its slash redirected to it, as Pages does; a folder without an index.html
a 404, never a listing. A client that hangs up, or a path no file can have (`%00`), is not the
server's error and prints no traceback. With live reload (`builder.live_reload`) each HTML page is
sent with the reload script; the files on disk are never changed.
"""

from __future__ import annotations

import gzip
import http.server
import socket
import sys
import urllib.parse
from pathlib import Path

from builder.live_reload import SCRIPT, SCRIPT_PATH, VERSION_PATH, LiveReload

COMPRESSED = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".csv", ".jsonl"}
"""What GitHub Pages gzips: text, not images, fonts or the already compressed search index."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Answers GET and HEAD from the site folder; the standard handler gives only its MIME types,
    request parsing and logging."""

    folder = Path()
    base_path = "/"
    quiet = False
    live: LiveReload | None = None

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet and not getattr(self, "path", "").startswith(VERSION_PATH):  # the reload poll, twice a second
            super().log_message(format, *args)

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _answer(self, *, head: bool) -> None:
        parts = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(parts.path)
        query = f"?{parts.query}" if parts.query else ""
        if self.live is not None and path == SCRIPT_PATH:
            self._send(SCRIPT, "text/javascript; charset=utf-8", head=head)
            return
        if self.live is not None and path == VERSION_PATH:
            self._send(str(self.live.version).encode(), "text/plain; charset=utf-8", head=head)
            return
        if self.base_path != "/" and path == self.base_path.rstrip("/"):
            self._redirect(self.base_path + query)
            return
        target = self._file(path)
        if target is None:
            self.send_error(404)
            return
        if target.is_dir():
            if not path.endswith("/"):
                self._redirect(parts.path + "/" + query)
                return
            target = target / "index.html"
            if not target.is_file():
                self.send_error(404)
                return
        try:
            body = target.read_bytes()
        except OSError:
            self.send_error(404)
            return
        kind = self.guess_type(str(target))
        if self.live is not None and target.suffix == ".html":
            body = self.live.inject(body)
        self._send(body, kind, head=head, compress=target.suffix in COMPRESSED)

    def _file(self, path: str) -> Path | None:
        """The file or folder of the site at `path`, or None: outside the base path, a `..`, a NUL."""
        if not path.startswith(self.base_path):
            return None
        segments = [part for part in path[len(self.base_path):].split("/") if part not in ("", ".")]
        if any(part == ".." or "\0" in part or "\\" in part for part in segments):
            return None
        target = self.folder.joinpath(*segments)
        return target if target.is_file() or target.is_dir() else None

    def _send(self, body: bytes, kind: str, *, head: bool, compress: bool = False, status: int = 200) -> None:
        """`body`, gzipped when the client accepts it and it is text."""
        gzipped = compress and "gzip" in self.headers.get("Accept-Encoding", "")
        if gzipped:
            body = gzip.compress(body, compresslevel=6, mtime=0)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if compress:
            self.send_header("Vary", "Accept-Encoding")
        if self.live is not None:
            self.send_header("Cache-Control", "no-store")  # a reload must fetch the rebuilt files
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code == 404:
            page = self.folder / "404.html"
            if page.is_file():
                body = page.read_bytes()
                self._send(self.live.inject(body) if self.live is not None else body, "text/html; charset=utf-8",
                           head=self.command == "HEAD", status=404)
                return
        super().send_error(code, message, explain)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hung up (a closed tab, a cancelled request) is nobody's error: no traceback."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Server6(_Server):
    address_family = socket.AF_INET6


def make_server(
    folder: Path, *, port: int, base_url: str = "/", host: str = "127.0.0.1", quiet: bool = False,
    live: LiveReload | None = None,
) -> http.server.ThreadingHTTPServer:
    """Bound to (host, port) and ready to serve; OSError when the port is taken."""
    handler = type("Handler", (_Handler,), {"folder": Path(folder), "base_path": base_url, "quiet": quiet,
                                            "live": live})
    server = _Server6 if ":" in host else _Server  # `--host ::` listens on IPv6
    return server((host, port), handler)


def address(server: http.server.ThreadingHTTPServer, base_url: str) -> str:
    host, port = server.server_address[:2]
    name = str(host)
    shown = f"[{name}]" if ":" in name else name
    return f"http://{shown}:{port}{base_url}"


def serve(server: http.server.ThreadingHTTPServer) -> None:
    """Serves until Ctrl-C (KeyboardInterrupt, handled by the command line), then closes the socket."""
    try:
        server.serve_forever()
    finally:
        server.server_close()
