"""Live reload for `scorecards serve --watch`: rebuild when an input changes, then reload the browser.

The watcher (`watchfiles`, in a thread) sees a change to the data folder, the templates or the
settings file and calls the rebuild; each rebuild that finishes bumps `LiveReload.version`. Every
HTML page the server sends gets one `<script>` tag, added on the way out and never written into the
built site, whose script asks the server for the version twice a second and reloads the page when
it moves on. The script is a file of its own under `PREFIX`, so the site's Content-Security-Policy
(`script-src 'self'`) allows it as it is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import watchfiles

PREFIX = "/__scorecards__/"
"""Where the server answers for live reload, outside any base path; no page of a site is there."""
SCRIPT_PATH = PREFIX + "reload.js"
VERSION_PATH = PREFIX + "version"

SCRIPT = b"""(() => {
  const seen = document.currentScript.dataset.version;
  const check = () => fetch("/__scorecards__/version", {cache: "no-store"})
    .then((answer) => answer.text())
    .then((version) => { if (version !== seen) { location.reload(); } else { setTimeout(check, 500); } })
    .catch(() => setTimeout(check, 2000));
  setTimeout(check, 500);
})();
"""


class LiveReload:
    """The version of the site being served: 0 at start, one more after each rebuild."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = 0

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    def bump(self) -> None:
        with self._lock:
            self._version += 1

    def inject(self, html: bytes) -> bytes:
        """The page with the reload script before its last `</body>` (or at its end)."""
        tag = f'<script src="{SCRIPT_PATH}" data-version="{self.version}"></script>'.encode()
        at = html.rfind(b"</body>")
        return html + tag if at < 0 else html[:at] + tag + html[at:]


def watch(
    folders: Sequence[Path], wanted: Callable[[Path], bool], rebuild: Callable[[list[Path]], None],
    stop: threading.Event,
) -> threading.Thread:
    """Calls `rebuild` with the changed paths (those `wanted` keeps) after each burst of changes
    under `folders`, in a daemon thread, until `stop` is set."""

    def loop() -> None:
        changes = watchfiles.watch(
            *folders, watch_filter=lambda _change, path: wanted(Path(path)), stop_event=stop, raise_interrupt=False,
            debounce=300,
        )
        for batch in changes:
            rebuild(sorted({Path(path) for _change, path in batch}))

    thread = threading.Thread(target=loop, name="scorecards-watch", daemon=True)
    thread.start()
    return thread
