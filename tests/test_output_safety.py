"""A build never destroys what it did not make (issue 21, "The output folder").

Each test drives the real `scorecards` command in folders made under pytest's tmp_path, with HOME
pointed at one of them, and checks the exit status, the one-line message and that every file the
user had is still there byte for byte. No test points a build at a real home, a checkout or `/`:
the root and other fixed places are checked with `check_output`, which only inspects.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import multiprocessing
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.cli import main
from builder.engine.output import MARKER, UnsafeOutput, check_output


def tree(folder: Path) -> dict[str, str]:
    """Every entry below `folder` (without following links): files by content, links by target."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_file():
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[name] = "folder"
    return found


def corpus(data: Path, servers: int = 1, tools: int = 3) -> Path:
    for s in range(servers):
        made = [tool_score(definition(f"t{t}", f"Tool {t} of {s}"), scores(4, 3, 3, 3, 4, 3)) for t in range(tools)]
        write_capture(data, f"s{s:03d}", report(f"s{s:03d}", made))
    return data


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(home)}


def scorecards(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd, env=environment(home),
        check=False, timeout=300,
    )


def start(*args: str, cwd: Path, home: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "builder.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=cwd, env=environment(home),
    )


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A project folder with a data folder and a home folder of the user's, both under tmp_path."""
    corpus(tmp_path / "project" / "data")
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    (home / "notes" / "todo.txt").write_text("call the bank\n")
    (home / ".bashrc").write_text("export PATH\n")
    return tmp_path


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scorecards: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_a_folder_of_the_users_is_refused_and_kept(place: Path) -> None:
    notes = place / "notes"
    notes.mkdir()
    (notes / "draft.md").write_text("# my notes\n")
    (notes / "sub").mkdir()
    (notes / "sub" / "a.bin").write_bytes(bytes(range(256)))
    before = tree(notes)
    result = scorecards("build", "data", "-o", str(notes), cwd=place / "project", home=place / "home")
    refused(result, str(notes), "not empty", MARKER)
    assert tree(notes) == before
    assert not list(place.glob(".notes.*"))  # nothing was staged beside it either


def test_the_repository_itself_is_refused(place: Path) -> None:
    project = place / "project"
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / "README.md").write_text("mine\n")
    before = tree(project)
    refused(scorecards("build", "data", "-o", ".", cwd=project, home=place / "home"), "data folder")
    refused(scorecards("build", str(project / "data"), "-o", ".", cwd=project / "data", home=place / "home"))
    assert tree(project) == before


def test_the_current_folder_and_above_are_refused_whatever_they_hold(place: Path) -> None:
    work = place / "work"
    (work / "deeper").mkdir(parents=True)
    data = place / "project" / "data"
    refused(scorecards("build", str(data), "-o", ".", cwd=work, home=place / "home"), "is the current folder")
    refused(scorecards("build", str(data), "-o", "..", cwd=work / "deeper", home=place / "home"), "holds the current folder")
    assert tree(work) == {"deeper": "folder"}


def test_an_empty_output_path_is_refused(place: Path) -> None:
    project = place / "project"
    before = tree(project)
    refused(scorecards("build", "data", "-o", "", cwd=project, home=place / "home"), "empty")
    refused(scorecards("build", "data", "-o", "  ", cwd=project, home=place / "home"), "empty")
    assert tree(project) == before


def test_the_folder_above_the_data_and_the_data_itself_are_refused(place: Path) -> None:
    project = place / "project"
    before = tree(project)
    for output, words in ((project, "holds the data folder"), (project / "data", "is the data folder"),
                          (project / "data" / "servers", "is inside the data folder")):
        refused(scorecards("build", "data", "-o", str(output), cwd=project, home=place / "home"), words)
    assert tree(project) == before


def test_the_home_folder_and_above_are_refused(place: Path) -> None:
    home = place / "home"
    before = tree(home)
    refused(scorecards("build", str(place / "project" / "data"), "-o", str(home), cwd=place, home=home), "home folder")
    inner = home / "notes"  # a home folder inside the output: the output holds it
    refused(scorecards("build", str(place / "project" / "data"), "-o", str(home), cwd=place, home=inner),
            "holds the home folder")
    assert tree(home) == before


def test_roots_and_fixed_places_are_refused_by_the_check(tmp_path: Path) -> None:
    """`check_output` only inspects: it is safe to ask it about `/` and the real home folder."""
    data = corpus(tmp_path / "data")
    for place in ("/", Path.home(), Path.cwd()):
        with pytest.raises(UnsafeOutput):
            check_output(place, data)
    assert check_output(tmp_path / "site", data) == (tmp_path / "site").resolve()


def test_a_symlink_given_as_the_output_is_refused_and_its_target_kept(place: Path) -> None:
    target = place / "home" / "notes"
    before = tree(target)
    link = place / "project" / "site"
    link.symlink_to(target)
    refused(scorecards("build", "data", "-o", "site", cwd=place / "project", home=place / "home"), "symbolic link")
    assert tree(target) == before and link.is_symlink()
    (place / "project" / "empty-target").mkdir()
    link.unlink()
    link.symlink_to(place / "project" / "empty-target")  # even an empty target: the link is not followed
    refused(scorecards("build", "data", "-o", "site", cwd=place / "project", home=place / "home"), "symbolic link")
    assert not any((place / "project" / "empty-target").iterdir())


def test_an_empty_folder_and_a_previous_site_are_replaced(place: Path) -> None:
    project = place / "project"
    (project / "site").mkdir()
    first = scorecards("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home")
    assert first.returncode == 0, first.stderr
    assert (project / "site" / MARKER).is_file() and (project / "site" / "servers" / "s000" / "index.html").is_file()
    again = scorecards("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home")
    assert again.returncode == 0, again.stderr
    # A site whose marker the user deleted is the user's now: kept.
    (project / "site" / MARKER).unlink()
    before = tree(project / "site")
    refused(scorecards("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home"), MARKER)
    assert tree(project / "site") == before


def test_a_marker_of_another_content_does_not_count(place: Path) -> None:
    project = place / "project"
    (project / "site").mkdir()
    (project / "site" / MARKER).write_text("")
    (project / "site" / "keep.txt").write_text("keep\n")
    before = tree(project / "site")
    refused(scorecards("build", "data", "-o", "site", cwd=project, home=place / "home"), MARKER)
    assert tree(project / "site") == before


def test_leftover_cleanup_spares_folders_that_only_look_like_staging(place: Path) -> None:
    project = place / "project"
    for name in (".site.old-backup", ".site.tmp-mine"):
        (project / name).mkdir()
        (project / name / "precious.txt").write_text(f"{name}\n")
    before = tree(project)
    result = scorecards("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home")
    assert result.returncode == 0, result.stderr
    after = tree(project)
    assert {k: v for k, v in after.items() if k in before} == before
    assert not [p for p in project.glob(".site.*-*") if p.name not in (".site.old-backup", ".site.tmp-mine")]


def wait_for_staging(project: Path, process: subprocess.Popen[str], pages: int = 20) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        for staging in project.glob(".site.tmp-*"):
            if sum(1 for _ in staging.rglob("*.html")) > pages:
                return
        time.sleep(0.01)
    raise AssertionError("the build never got to writing pages: make the corpus bigger")


@pytest.mark.parametrize(("signum", "said"), [
    (signal.SIGTERM, "scorecards: stopped by SIGTERM; the previous site is unchanged"),
    (signal.SIGHUP, "scorecards: stopped by SIGHUP; the previous site is unchanged"),
    (signal.SIGINT, "scorecards: interrupted; the previous site is unchanged"),
])
def test_sigterm_or_ctrl_c_ends_a_build_whatever_it_is_doing(place: Path, signum: int, said: str) -> None:
    """SIGTERM (a cancelled job), SIGHUP (the terminal closed) or SIGINT (Ctrl-C) while the workers write pages and the build's own
    process may be inside a DuckDB query (which reports the signal as its own error)."""
    project = place / "project"
    assert scorecards("build", "data", "-o", "site", cwd=project, home=place / "home").returncode == 0
    before = tree(project / "site")
    corpus(project / "data", servers=120, tools=12)
    process = start("build", "data", "-o", "site", cwd=project, home=place / "home")
    wait_for_staging(project, process)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 128 + signum
    assert stderr.strip().splitlines()[-1] == said
    assert "Traceback" not in stderr
    assert tree(project / "site") == before
    assert not list(project.glob(".site.tmp-*")) and not list(project.glob(".site.old-*"))


def test_a_second_build_into_the_same_output_refuses_and_spares_the_first(place: Path) -> None:
    project = place / "project"
    corpus(project / "data", servers=120, tools=12)
    first = start("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home")
    wait_for_staging(project, first)
    # The first build is paused while it writes pages, so it still holds the lock however long the
    # second takes to start (no corpus is big enough for that on every machine: a second build that
    # started after the first had finished found no lock and built, a flake).
    first.send_signal(signal.SIGSTOP)
    try:
        second = scorecards("build", "data", "-o", "site", "--no-search", cwd=project, home=place / "home")
    finally:
        first.send_signal(signal.SIGCONT)
    refused(second, "another build is writing", ".site.lock")
    _, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    assert (project / "site" / "servers" / "s119" / "tools" / "t11" / "index.html").is_file()
    assert not list(project.glob(".site.tmp-*"))


def user_tar(path: Path) -> None:
    with tarfile.open(path, "w") as tar:
        data = b"my backup\n"
        info = tarfile.TarInfo("backup/notes.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


def test_tar_outputs_follow_the_same_rules(place: Path) -> None:
    project, home = place / "project", place / "home"
    user_tar(project / "backup.tar")
    before = tree(project)
    refused(scorecards("build", "data", "-o", "backup.tar", cwd=project, home=home), "not a tar that scorecards built")
    (project / "folder.tar").mkdir()
    (project / "folder.tar" / "x").write_text("x\n")
    refused(scorecards("build", "data", "-o", "folder.tar", cwd=project, home=home), "is a folder")
    before = tree(project)
    # A scorecards tar is replaced; its marker is among the first members.
    for _ in range(2):
        result = scorecards("build", "data", "-o", "site.tar", "--no-search", cwd=project, home=home)
        assert result.returncode == 0, result.stderr
    with tarfile.open(project / "site.tar") as tar:
        names = tar.getnames()
    assert names[:2] == [".nojekyll", MARKER]
    assert {k: v for k, v in tree(project).items() if k in before} == before


def test_a_plain_file_given_as_a_folder_output_is_kept_in_place(place: Path) -> None:
    project = place / "project"
    (project / "site").write_text("not a folder\n")
    before = tree(project)
    refused(scorecards("build", "data", "-o", "site", cwd=project, home=place / "home"), "is a file")
    assert tree(project) == before


@contextlib.contextmanager
def mounted(folder: Path, options: str) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_os_errors_are_one_line_and_lose_nothing(place: Path) -> None:
    project, home = place / "project", place / "home"
    small = place / "small"
    with mounted(small, "size=6m"):
        first = scorecards("build", "data", "-o", str(small / "site"), "--no-search", cwd=project, home=home)
        assert first.returncode == 0, first.stderr
        before = tree(small / "site")
        # The disk fills up: a filler leaves less room than the site's own files take, so what a
        # rebuild must write fresh (the staging folder, the static files, the site-wide pages)
        # cannot fit. (The site alone no longer fills the disk since it lost plotly.js's 4.8 MB.)
        site_bytes = sum(path.stat().st_size for path in (small / "site").rglob("*") if path.is_file())
        disk = os.statvfs(small)
        free = disk.f_bavail * disk.f_frsize
        (small / "filler").write_bytes(b"\0" * max(0, free - site_bytes // 8))
        full = scorecards("build", "data", "-o", str(small / "site"), "--no-search", cwd=project, home=home)
        assert full.returncode == 1, full.stderr
        assert "Traceback" not in full.stderr
        line = full.stderr.strip().splitlines()[-1]
        assert line.startswith(f"scorecards: cannot write {small}") and "No space left on device" in line, line
        assert tree(small / "site") == before
        assert not list(small.glob(".site.tmp-*"))
        # A mount point is never the output.
        refused(scorecards("build", "data", "-o", str(small), cwd=project, home=home), "mount point")
    readonly = place / "readonly"
    with mounted(readonly, "ro,size=1m"):
        result = scorecards("build", "data", "-o", str(readonly / "site"), cwd=project, home=home)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        line = result.stderr.strip().splitlines()[-1]
        assert line.startswith(f"scorecards: cannot write {readonly}") and "Read-only file system" in line, line


@pytest.mark.parametrize("name", ["site", "site.tar"])
def test_a_full_disk_at_any_step_fails_in_one_line_and_leaves_nothing_running(
    place: Path, name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The disk fills at every step in turn (a filler leaves 0, 16, 32 … KiB free, up to more than
    the site takes): the step that fails says so in one line, the site stays whole, and nothing of
    the build is left running or on disk, its forked readers above all (a failure after they forked
    once left them, and their pools' threads, alive: they held the output's lock, and the
    interpreter's exit raced their pipes). Run in this process (`builder.cli.main`), where what is
    left can be seen."""
    project, small = place / "project", place / "small"
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(place / "home"))
    out = small / name
    command = ["build", "data", "-o", str(out), "--no-search", "-q", "--workers", "2"]
    threads = set(threading.enumerate())
    with mounted(small, "size=6m"):
        assert main(command) == 0
        before = tree(small)
        pages = sum(path.stat().st_size for path in [out, *out.rglob("*")] if path.is_file()) // 4096
        failed = 0
        for free in range(0, pages + 16, 4):  # in pages of 4 KiB
            (small / "filler").unlink(missing_ok=True)
            disk = os.statvfs(small)
            (small / "filler").write_bytes(b"\0" * max(0, disk.f_bavail * disk.f_frsize - free * 4096))
            capsys.readouterr()
            code = main(command)
            said = capsys.readouterr().err.strip().splitlines()
            if code != 0:
                failed += 1
                assert code == 1 and len(said) == 1, (free, said)
                assert said[0].startswith("scorecards: cannot write ") and "No space left on device" in said[0], said
            assert multiprocessing.active_children() == [], (free, said)
            # Nothing the build started runs on, the gzipped downloads' copies neither (builder.engine.background).
            left = [t.name for t in set(threading.enumerate()) - threads]
            assert left == [], (free, said, left)
            now = tree(small)
            assert {k: v for k, v in now.items() if k == name or k.startswith(f"{name}/")} == {
                k: v for k, v in before.items() if k == name or k.startswith(f"{name}/")}, (free, said)
            assert not [k for k in now if k.startswith((f".{name}.tmp-", f".{name}.old-"))], (free, said)
        assert failed > pages // 8  # the disk was full for most of the sweep


@pytest.mark.parametrize(("command", "says"), [
    (["diff", "data", "data"], "scorecards: cannot build data: "),
    (["verify", "site", "--data", "data"], "scorecards: cannot rebuild data: "),
])
def test_a_full_disk_under_the_build_diff_or_verify_makes_is_one_line(
    place: Path, command: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`diff` and `verify` build the data into a temporary folder: the disk under it fills at every
    step in turn (DuckDB's store among them), and each failure is one line, exit 1, with no worker
    left and nothing left in the temporary folder."""
    project, small = place / "project", place / "small"
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(place / "home"))
    assert main(["build", "data", "-o", "site", "--no-search", "-q"]) == 0
    with mounted(small, "size=6m"):
        monkeypatch.setattr(tempfile, "tempdir", str(small))
        failed = 0
        for free in range(0, 64, 4):  # in pages of 4 KiB
            (small / "filler").unlink(missing_ok=True)
            disk = os.statvfs(small)
            (small / "filler").write_bytes(b"\0" * max(0, disk.f_bavail * disk.f_frsize - free * 4096))
            capsys.readouterr()
            code = main([*command, "-q", "--workers", "2"])
            said = capsys.readouterr().err.strip().splitlines()
            if code != 0:
                failed += 1
                assert code == 1 and len(said) == 1, (free, said)
                assert said[0].startswith(says) and "No space left on device" in said[0], (free, said)
            assert multiprocessing.active_children() == [], (free, said)
            assert sorted(path.name for path in small.iterdir()) == ["filler"], (free, said)
        assert failed > 4
