"""The build's one executor (builder.engine.workers): worker affinity, results in the order given
as they come back, a worker's error with its traceback, workers that die with the build."""

from __future__ import annotations

import errno
import gc
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from builder.engine.workers import WorkerError, Workers


def _remember(state: dict[str, Any], name: str) -> int:
    state["name"] = name
    state["kept"] = [[name] * 10 for _ in range(100)]
    return os.getpid()


def _recall(state: dict[str, Any], _: Any) -> tuple[str, int, int]:
    return state["name"], os.getpid(), gc.get_freeze_count()


def test_each_worker_runs_in_its_own_process_with_its_own_state() -> None:
    workers = Workers(2)
    try:
        assert len(set(workers.pids)) == 2 and os.getpid() not in workers.pids
        workers.start_each(_remember, ["first", "second"])
        assert workers.collect() == workers.pids
        # Worker i is the same process every time, and holds what it was given before.
        workers.start_each(_recall, [None, None])
        assert [(name, pid) for name, pid, _ in workers.collect()] == [("first", workers.pids[0]),
                                                                       ("second", workers.pids[1])]
        shared = list(workers.share(_recall, range(8)))
        assert [pid for _, (_, pid, _) in shared] == [workers.pids[worker] for worker, _ in shared]
        assert [name for _, (name, _, _) in shared] == [["first", "second"][worker] for worker, _ in shared]
        # What a task left in the state was frozen out of the collector's walks (builder.engine.heap).
        assert all(frozen > 0 for _, (_, _, frozen) in shared)
    finally:
        workers.close()


def _wait_for(state: dict[str, Any], argument: tuple[int, str]) -> tuple[int, bool]:
    """Argument 0 returns at once; the others wait (at most 10 s) for the file the caller makes
    when it has taken in result 0. Argument 1 then takes longer than the others."""
    position, flag = argument
    if position == 0:
        return position, True
    deadline = time.monotonic() + 10
    while not os.path.exists(flag) and time.monotonic() < deadline:
        time.sleep(0.01)
    if position == 1:
        time.sleep(0.5)
    return position, os.path.exists(flag)


def test_results_come_back_in_the_order_given_as_soon_as_they_are_back(tmp_path: Path) -> None:
    flag = tmp_path / "first-taken"
    workers = Workers(2)
    try:
        taken = []
        for _, result in workers.share(_wait_for, [(i, str(flag)) for i in range(6)]):
            taken.append(result)
            flag.touch()  # the workers still running go on only once the first result is taken in
        # In the order given, though 2 came back before 1; and every later task saw that the first
        # result had been taken in while it ran.
        assert taken == [(i, True) for i in range(6)]
    finally:
        workers.close()


class _Unpicklable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.callback = lambda: None


def _deep_in_the_task(item: int) -> None:
    raise _Unpicklable(f"cannot take {item}")


def _fail(state: dict[str, Any], item: int) -> None:
    _deep_in_the_task(item)


def _square(state: dict[str, Any], item: int) -> int:
    return item * item


def _write_into(state: dict[str, Any], folder: str) -> None:
    with open(os.path.join(folder, "missing", "file"), "wb"):
        pass


def _refuse(state: dict[str, Any], words: str) -> None:
    raise OSError(words)


def test_a_workers_os_error_reaches_the_caller_as_the_same_os_error(tmp_path: Path) -> None:
    """A full disk or a missing folder in a worker is said by the command in one line, as its own
    OSErrors are: it arrives as an OSError of the same kind, number and file, the worker's
    traceback behind it."""
    folder = str(tmp_path)
    workers = Workers(2)
    try:
        with pytest.raises(FileNotFoundError) as raised:
            list(workers.share(_write_into, [folder]))
        assert raised.value.errno == errno.ENOENT and raised.value.strerror == os.strerror(errno.ENOENT)
        assert raised.value.filename == os.path.join(folder, "missing", "file")
        behind = raised.value.__cause__
        assert isinstance(behind, WorkerError) and "_write_into" in str(behind) and "Traceback" in str(behind)
        with pytest.raises(OSError) as words:  # one with no number: its words are its reason
            list(workers.share(_refuse, ["the disk said no"]))
        assert words.value.errno is None and words.value.strerror == "the disk said no"
        assert [value for _, value in workers.share(_square, range(3))] == [0, 1, 4]  # they live on
    finally:
        workers.close()


def test_a_worker_error_reaches_the_caller_with_the_worker_traceback() -> None:
    workers = Workers(2)
    try:
        with pytest.raises(WorkerError) as raised:
            list(workers.share(_fail, [3]))
        message = str(raised.value)
        assert "Traceback" in message and "_deep_in_the_task" in message
        assert "_Unpicklable: cannot take 3" in message
        workers.start_each(_fail, [4, 5])
        with pytest.raises(WorkerError, match=r"(?s)worker 0 failed.*cannot take 4"):
            workers.collect()
        # The workers live on.
        assert [value for _, value in workers.share(_square, range(4))] == [0, 1, 4, 9]
    finally:
        workers.close()


_LEADER = """
import json, sys, time
from builder.engine.workers import Workers
workers = Workers(2)
print(json.dumps(workers.pids), flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie waiting to be reaped."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


def _gone(pids: list[int], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(pid) for pid in pids)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_build() -> None:
    leader = subprocess.Popen([sys.executable, "-c", _LEADER], stdout=subprocess.PIPE, text=True)
    try:
        assert leader.stdout is not None
        pids = json.loads(leader.stdout.readline())
        assert len(pids) == 2 and all(_alive(pid) for pid in pids)
        leader.kill()
        leader.wait()
        assert _gone(pids)
    finally:
        leader.kill()
        leader.wait()


def test_sigterm_ends_a_worker_whatever_the_build_handles_it_with() -> None:
    previous = signal.signal(signal.SIGTERM, lambda number, frame: None)  # inherited by the fork
    try:
        workers = Workers(2)
    finally:
        signal.signal(signal.SIGTERM, previous)
    try:
        os.kill(workers.pids[1], signal.SIGTERM)
        assert _gone([workers.pids[1]])
        with pytest.raises(WorkerError, match="worker 1 died"):
            workers.start_each(_square, [2, 3])
            workers.collect()
    finally:
        workers.close()


@pytest.mark.parametrize("read_by_workers", [False, True])
def test_several_workers_write_the_same_tar_and_folder_as_one_process(tmp_path: Path, read_by_workers: bool) -> None:
    """`build` with several workers against one process: with the systems whose pages are all
    corpus-wide (rendered in the build's process whatever `workers` says), and with every system (a
    registry's read and rendered by the reader workers)."""
    from builder.build import build
    from builder.config import SiteConfig
    from builder.engine.write import MemoryWriter
    from builder.systems import all_systems

    config = SiteConfig(site_url="https://example.org", base_url="/scorecards/")
    data = Path(__file__).resolve().parent.parent / "data"
    systems = [s for s in all_systems() if read_by_workers or not s.records.plans_outputs]
    made: dict[str, bytes] = {}
    for workers in (1, 2):
        for out in (tmp_path / f"site-{workers}.tar", tmp_path / f"site-{workers}"):
            build(data, out, config, search=False, workers=workers, systems=systems)
        made[f"tar-{workers}"] = (tmp_path / f"site-{workers}.tar").read_bytes()
        made[f"folder-{workers}"] = json.dumps(
            {p.relative_to(tmp_path / f"site-{workers}").as_posix(): p.read_bytes().hex()
             for p in sorted((tmp_path / f"site-{workers}").rglob("*")) if p.is_file()}).encode()
    assert made["tar-2"] == made["tar-1"]
    assert made["folder-2"] == made["folder-1"]
    # Into memory, a build runs in this process whatever `workers` says, and makes the same files.
    memory = MemoryWriter()
    build(data, memory, config, search=False, workers=2, systems=systems)
    assert {path: content.hex() for path, content in memory.files.items()} == json.loads(made["folder-1"])
