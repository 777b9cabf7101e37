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
    folders: Sequence[Path], files: Sequence[Path], rebuild: Callable[[list[Path]], None], stop: threading.Event,
) -> list[threading.Thread]:
    """Calls `rebuild` with the changed paths after each burst of changes to anything under
    `folders` or to one of `files`, until `stop` is set. A file is watched through its folder, not
    recursively (an editor that saves by renaming replaces the file, and the folder may be the one
    the site is built into), so each kind has a daemon thread of its own; the rebuilds never
    overlap."""
    one_at_a_time = threading.Lock()
    wanted = {file.resolve() for file in files}

    def loop(paths: Sequence[Path], recursive: bool, keep: Callable[[Path], bool]) -> None:
        changes = watchfiles.watch(
            *paths, watch_filter=lambda _change, path: keep(Path(path)), stop_event=stop, raise_interrupt=False,
            debounce=300, recursive=recursive,
        )
        for batch in changes:
            with one_at_a_time:
                rebuild(sorted({Path(path) for _change, path in batch}))

    jobs = [(folders, True, lambda _path: True)] if folders else []
    if wanted:
        jobs.append((sorted({file.parent for file in wanted}), False, lambda path: path.resolve() in wanted))
    threads = [threading.Thread(target=loop, args=job, name="scorecards-watch", daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
    return threads
