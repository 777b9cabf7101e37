"""`scorecards`: build, check, index, demo, new, add, try, verify, diff, serve.

User errors (a missing folder, a bad option) print one clear line and exit 2; data problems never
stop a build, they are listed in build-report.json and, with --strict, turn the exit code to 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
from tqdm import tqdm

from builder.annotations import github_annotations
from builder.config import SiteConfig
from builder.running_wheel import DISTRIBUTION
from builder.settings import Settings, SettingsError, find_settings, load_settings
from builder.urls import MANIFEST

if TYPE_CHECKING:
    from builder.build import BuildResult
    from builder.diff.read import Build
    from builder.engine.problems import Problem
    from builder.live_reload import LiveReload
    from builder.publish.manifest import Input


class UserError(Exception):
    """A mistake in what was asked (a missing folder, an output that may not be replaced): exit 2."""


class BuildFailed(Exception):
    """The system refused (a read-only folder, a full disk): exit 1, the previous site whole."""


class Stopped(BaseException):
    """SIGTERM or SIGHUP, raised where the build is so that it cleans up as it does for Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_RECEIVED: list[int] = []
"""The signals that asked this build to stop, in the order they came."""


def _stop(signum: int, frame: object) -> None:
    _RECEIVED.append(signum)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _os_error(error: OSError, output: str) -> str:
    """One line naming the path and the cause (a write's ENOSPC names no file: then the output)."""
    where = error.filename if error.filename is not None else Path(output).resolve()
    also = f" -> {error.filename2}" if error.filename2 is not None else ""
    return f"cannot write {where}{also}: {error.strerror or error}; nothing was replaced"


_DUCKDB_WRITE = re.compile(r'Could not write file "(?P<file>[^"]+)": (?P<reason>[^\n]+)')


def _write_failure(error: OSError | duckdb.Error) -> tuple[str | None, str] | None:
    """(the file, the reason) when a build could not write (a full disk, a read-only folder): an
    OSError, or DuckDB failing to write its store or its spill files; None for any other DuckDB
    error (a bug: its traceback is wanted)."""
    if isinstance(error, OSError):
        return error.filename, error.strerror or str(error)
    said = _DUCKDB_WRITE.search(str(error))
    if said is not None:
        return said["file"], said["reason"]
    if isinstance(error, duckdb.IOException):
        return None, str(error).splitlines()[0]
    return None


class Progress:
    """Progress per stage: a tqdm bar (rate and ETA) on a terminal; one line per finished stage
    otherwise, so CI logs stay readable."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.started = time.monotonic()
        self.bars: dict[str, tqdm] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.tty:
            bar = self.bars.get(stage)
            if bar is None:
                bar = self.bars[stage] = tqdm(total=total, desc=f"{stage:>8}", unit="file", file=sys.stderr)
            bar.total = total
            bar.update(done - bar.n)
            if done >= total:
                bar.close()
        elif done >= total:
            sys.stderr.write(f"{stage}: {total} done ({time.monotonic() - self.started:.1f}s)\n")


def _quiet(args: argparse.Namespace) -> bool:
    return getattr(args, "verbosity", 0) < 0


def _verbose(args: argparse.Namespace) -> bool:
    return getattr(args, "verbosity", 0) > 0


def _say(args: argparse.Namespace, line: str) -> None:
    """A line of what was done: not with -q."""
    if not _quiet(args):
        print(line, flush=True)


def _data_dir(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise UserError(f"data folder not found: {path}")
    return path


def _settings(args: argparse.Namespace, data: Path) -> Settings:
    """`scorecards.toml` (given, beside the data folder, or in the current folder) with the flags
    that were given laid over it."""
    path = Path(args.config) if args.config else find_settings(data, Path.cwd())
    if args.config and not path.is_file():  # type: ignore[union-attr]
        raise UserError(f"settings file not found: {args.config}")
    overrides = {key: getattr(args, key, None) for key in ("title", "base_url", "site_url", "dispute_url", "strict",
                                                            "search", "size_warning_bytes",
                                                            "max_input_age_days")}
    try:
        return load_settings(path, overrides)
    except SettingsError as error:
        raise UserError(str(error)) from error


def _problem_line(problem: Problem, data: str) -> str:
    """A problem as `check` and `build -v` print it: the command it says to run on the data folder
    (`scorecards index DATA`) names the folder as it was typed."""
    from builder.tdqs.registry_index import INDEX_COMMAND, index_command

    code = f" [{problem.code}]" if problem.code else ""
    reason = problem.reason.replace(INDEX_COMMAND, index_command(data))
    return f"{problem.severity}: {problem.file}: {problem.json_path}: {reason}{code}"


def _positive(text: str) -> int:
    """`--workers N`: a whole number from 1 (argparse names the flag before the reason)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number of workers")
    return number


def _positive_bytes(text: str) -> int:
    number = int(text.replace("_", ""))
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of bytes")
    return number


def cmd_build(args: argparse.Namespace) -> int:
    from builder.build import COUNTS, build
    from builder.engine.links import BrokenLinks
    from builder.engine.output import UnsafeOutput

    data = _data_dir(args.data)
    settings = _settings(args, data)
    try:
        result = build(data, args.output, settings.site(), progress=None if _quiet(args) else Progress(),
                       search=settings.search, workers=args.workers, size_warning_bytes=settings.size_warning_bytes)
    except UnsafeOutput as error:
        raise UserError(str(error)) from error
    except OSError as error:
        raise BuildFailed(_os_error(error, args.output)) from error
    except duckdb.Error as error:
        if (failed := _write_failure(error)) is None:
            raise
        where, reason = failed
        raise BuildFailed(f"cannot write {where or Path(args.output).resolve()}: {reason}; nothing was replaced") from error
    except BrokenLinks as error:
        raise BuildFailed(f"{error}; nothing was replaced (a scorecards bug: please report it)") from error
    if args.timings:
        Path(args.timings).write_text(json.dumps(result.timings, indent=2) + "\n", encoding="utf-8")
    log = result.log
    for line in github_annotations(log.problems, data):  # on GitHub Actions only
        print(line)
    warnings = len(log) - log.error_count
    old = _stale_inputs(settings, result.inputs, result.data_as_of, args.data)
    if _verbose(args):
        for problem in log.problems:
            print(_problem_line(problem, args.data), file=sys.stderr)
        for stage, value in result.timings.items():
            shown = f"{int(value)} outputs from the previous build" if stage in COUNTS else f"{value:.2f}s"
            print(f"{stage}: {shown}", file=sys.stderr)
    if result.size_warning:  # even with -q: an operator must see it before the deploy fails
        print(f"scorecards: warning: {result.size_warning}", file=sys.stderr)
        if os.environ.get("GITHUB_ACTIONS") == "true":
            print(f"::warning title=Site too big for GitHub Pages::{result.size_warning}")
    files, weight = _weight_line(result)
    reused = int(result.timings.get("reused", 0))
    _say(args, f"built {files} ({reused:,} reused from the previous build) into {args.output} "
               f"({', '.join(result.systems) or 'no grading data'}){weight}; "
               f"{log.error_count} errors, {warnings} warnings in the input (see build-report.json)")
    # A size warning does not fail a strict build: strict is about the input, and no change to
    # the input fixes a site that outgrew GitHub Pages (README, "Beyond GitHub Pages").
    return 1 if settings.strict and (len(log) or old) else 0


def _stale_inputs(settings: Settings, inputs: list[Input], data_as_of: str | None, data: str) -> int:
    """Warns on standard error about each input folder whose newest capture is older than
    `max_input_age_days` before the data's as-of date; returns how many."""
    from builder.publish.manifest import stale

    if settings.max_input_age_days is None:
        return 0
    found = stale(inputs, data_as_of, settings.max_input_age_days)
    for folder, item, age in found:
        print(f"scorecards: warning: {Path(data) / folder}: its newest input, {Path(item.path).name}, is {age} days "
              f"older than the data (max_input_age_days = {settings.max_input_age_days})", file=sys.stderr)
    return len(found)


def _weight_line(result: BuildResult) -> tuple[str, str]:
    """What the build wrote and what it weighs, as build-report.json's `size` counts them:
    (`4,997 files, build-report.json and manifest.jsonl`, `: 42.3 MB, 14.3 MB gzipped`, and the tar's size for an
    artifact)."""
    from builder.engine.weight import size_text

    weight = result.weight
    if weight is None:
        return f"{result.files_written} files", ""
    tar = f", a {size_text(result.tar_bytes)} tar" if result.tar_bytes is not None else ""
    return (f"{weight.files:,} files, build-report.json and manifest.jsonl",
            f": {size_text(weight.bytes)}, {size_text(weight.gzip_bytes)} gzipped{tar}")


def cmd_check(args: argparse.Namespace) -> int:
    from builder.build import read_and_plan

    data = _data_dir(args.data)
    settings = _settings(args, data)
    model = read_and_plan(data, settings.site())
    for problem in model.log.problems:
        if _quiet(args) and problem.severity != "error":
            continue
        print(_problem_line(problem, args.data))
    for line in github_annotations(model.log.problems, data):  # on GitHub Actions: on the files in a pull request
        print(line)
    files = model.log.files
    if _verbose(args):
        for read in files:
            print(f"read {read.file} ({read.system}, {read.status})")
    _say(args, f"{len(files)} files read, {model.log.error_count} errors, "
         f"{len(model.log) - model.log.error_count} warnings")
    return 1 if model.log.error_count or (settings.strict and len(model.log)) else 0


def cmd_index(args: argparse.Namespace) -> int:
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_servers
    from builder.tdqs.registry_index import write_index

    data = _data_dir(args.data)
    log = ProblemLog()
    servers = read_servers(data, log)
    if servers is None:
        raise UserError(f"no TDQS captures under {data / 'servers'}")
    path, count = write_index(data, servers)
    _say(args, f"wrote {path} ({count} servers); {log.error_count} input errors")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_servers
    from builder.tdqs.registry_index import write_index
    from scorecards_demo.generate import generate_demo

    out = Path(args.output)
    if args.servers < 1 or args.tools < args.servers:
        raise UserError("--servers must be at least 1 and --tools at least --servers (every server has a tool)")
    progress = Progress()
    try:
        extra = {} if getattr(args, "fork_share", None) is None else {"fork_share": args.fork_share}
        generate_demo(out, servers=args.servers, tools=args.tools, seed=args.seed, **extra,
                      progress=None if _quiet(args) else lambda done, total: progress("score", done, total))
    except ValueError as error:
        raise UserError(str(error)) from error
    servers = read_servers(out, ProblemLog())
    if servers is not None:
        write_index(out, servers)
    _say(args, f"wrote a demo corpus of {args.servers} servers and {args.tools} tools into {out} (stand-in scores)")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from builder.scaffold import NotEmpty, check_new_folder, default_install, write_skeleton

    folder = Path(args.folder)
    try:
        check_new_folder(folder)
    except NotEmpty as error:
        raise UserError(str(error)) from error
    folder.mkdir(parents=True, exist_ok=True)
    if args.demo:
        cmd_demo(argparse.Namespace(output=str(folder / "data"), servers=30, tools=300, seed=0,
                                    verbosity=args.verbosity))
    for path in write_skeleton(folder, args.install or default_install()):
        _say(args, f"wrote {path}")
    _say(args, f"a scorecards repository is ready in {folder}: add results with `scorecards add {folder / 'data'} FILE…`, "
          f"build with `scorecards build {folder / 'data'} -o {folder / 'site'}`; to publish it, follow the steps "
          f"in {folder / 'README.md'} (turn GitHub Pages on before the first push)")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from builder.add import AddError, add_files

    data = _data_dir(args.data)
    for path in [*args.files, *([args.tools] if args.tools else [])]:
        if not Path(path).is_file():
            raise UserError(f"file not found: {path}")
    try:
        lines = add_files(data, [Path(path) for path in args.files], tools=Path(args.tools) if args.tools else None,
                          server=args.server, schema=args.schema, shown=args.data, categories=args.category or ())
    except AddError as error:
        raise UserError(f"{error}; nothing was written") from error
    for line in lines:
        _say(args, line)
    return 0


STAND_IN_DATA = "stand-in/data"
STAND_IN_SITE = "stand-in/site"
"""Where `scorecards try` files and builds: a folder whose name says what its scores are."""


def cmd_try(args: argparse.Namespace) -> int:
    import tempfile

    from builder.add import AddError, add_files
    from scorecards_demo.stand_in_report import NotToolsList, stand_in_report

    for path in args.files:
        if not Path(path).is_file():
            raise UserError(f"file not found: {path}")
    reports: dict[str, tuple[Path, bytes]] = {}  # every file scored before anything is written
    for path in args.files:
        try:
            server, report = stand_in_report(Path(path))
        except NotToolsList as error:
            raise UserError(str(error)) from error
        if server in reports:
            raise UserError(f"{path}: {reports[server][0]} is also server {server}: try them one at a time")
        reports[server] = (Path(path), report)
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="scorecards-try-") as folder:
        for server, (path, report) in reports.items():
            staged = Path(folder) / f"{server}.stand-in.score.json"
            staged.write_bytes(report)
            try:
                lines = add_files(data, [staged], tools=path, server=server, shown=args.data)
            except AddError as error:
                shown = str(error).replace(str(staged), f"the stand-in report of {path}")
                raise UserError(f"{shown}; nothing was written for {path}") from error
            for line in lines:
                _say(args, line.replace(str(staged), f"stand-in report of {path}"))
    build_args = argparse.Namespace(
        data=args.data, output=args.output, config=None, title=None, base_url=None, site_url=None, dispute_url=None,
        strict=None, search=None, timings=None, workers=None, verbosity=args.verbosity,
    )
    code = cmd_build(build_args)
    _say(args, f"stand-in scores, not from a model, for {', '.join(reports)}: see them with "
         f"`scorecards serve {args.output}`")
    return code


def _base_url(value: str) -> str:
    """`--base-url` of `serve` as a build would take it; a bad one is one line, exit 2."""
    from pydantic import ValidationError

    try:
        return SiteConfig(base_url=value).base_url
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise UserError(f"--base-url: {' '.join(reason.split())}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    from builder.live_reload import LiveReload
    from builder.serve import address, make_server, serve

    folder = Path(args.output)
    data = _data_dir(args.watch) if args.watch else None
    if data is None and not folder.is_dir():
        raise UserError(f"site folder not found: {folder} (run `scorecards build` first, or serve with --watch DATA)")
    base_url = _settings(args, data).site().base_url if data is not None else _base_url(args.base_url or "/")
    live = LiveReload() if data is not None else None
    try:
        server = make_server(folder, port=args.port, base_url=base_url, host=args.host, quiet=_quiet(args), live=live)
    except OSError as error:
        raise UserError(f"cannot serve on {args.host} port {args.port}: {error.strerror or error} "
                        "(another server is there? choose another with --port)") from error
    try:
        if data is not None and live is not None:
            _watch(args, data, live)
        print(f"serving {folder} at {address(server, base_url)} (Ctrl-C to stop)", flush=True)  # even with -q
        serve(server)
    except KeyboardInterrupt:
        _say(args, "stopped")
    finally:
        server.server_close()
    return 0


def _rebuild(build_args: argparse.Namespace) -> None:
    """A rebuild of `serve --watch`, in a process of its own (`_watch`): exits 1 after one line when
    it fails, and the server keeps serving the previous site. SIGTERM and SIGHUP end it as they end
    a build (`main`)."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _stop)
    try:
        cmd_build(build_args)
    except (UserError, BuildFailed) as error:
        print(f"scorecards: rebuild failed: {error}", file=sys.stderr, flush=True)
        sys.exit(1)
    except (KeyboardInterrupt, Stopped):
        print("scorecards: rebuild interrupted; the previous site is unchanged", file=sys.stderr, flush=True)
        sys.exit(1)
    except Exception as error:  # a bug: said, and the server keeps serving the previous site
        print(f"scorecards: rebuild failed: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


def _watch(args: argparse.Namespace, data: Path, live: LiveReload) -> None:
    """Builds once (a failure is the command's), then rebuilds on every change to the data folder,
    the templates or the settings file (a failure there is one line, and the previous site stays
    served).

    The first build runs here, before any thread starts; each rebuild runs in a process started
    with `spawn` (a new interpreter, not a fork) from the watcher's thread. This process then has
    the server's and the watcher's threads, and a build forks its workers: forked from here, they
    could inherit a lock one of those threads held (README, "What runs where")."""
    import multiprocessing
    import threading

    from builder.engine.assets import TEMPLATES
    from builder.live_reload import watch

    build_args = argparse.Namespace(**{**vars(args), "data": str(data), "timings": None, "workers": None,
                                       "strict": None})
    cmd_build(build_args)
    settings = Path(args.config) if args.config else find_settings(data, Path.cwd())
    spawn = multiprocessing.get_context("spawn")

    def rebuild(changed: list[Path]) -> None:
        started = time.monotonic()
        process = spawn.Process(target=_rebuild, args=(build_args,), name="scorecards-rebuild")
        process.start()
        process.join()
        if process.exitcode != 0:  # it said why, unless a signal ended it
            if process.exitcode is not None and process.exitcode < 0:
                print(f"scorecards: rebuild ended by {signal.Signals(-process.exitcode).name}", file=sys.stderr,
                      flush=True)
            return
        live.bump()
        if _verbose(args):
            print(f"rebuilt in {time.monotonic() - started:.1f}s after changes to "
                  f"{', '.join(str(path) for path in changed)}", file=sys.stderr, flush=True)

    watch([data, TEMPLATES], [settings] if settings is not None else [], rebuild, threading.Event())


DIFF_EPILOG = """BASE and HEAD: each a build (its folder, its .tar or the http(s) URL of the published site) or a
data folder, built first into a temporary folder. Only the API files the two builds' manifests say
differ are read. Budgets: [budgets] in scorecards.toml (--config, else beside --data, else in the
current folder); every one off by default.

exit codes:
  0  compared (and no budget failed)
  1  a data folder could not be built (a full disk, an unreadable file)
  2  a bad argument
  3  BASE or HEAD is not a build: no manifest.jsonl, a manifest cut short, a file that is not what
     its manifest lists, a site that does not answer
  4  the two builds grade different systems (say TDQS and CLEO): nothing to compare
  5  the settings file's budgets cannot be used: an unknown key, a value of the wrong type
  6  a budget failed (each is named on standard error and in the Markdown)"""


def _diff_side(source: str, folder: Path, settings: Settings, args: argparse.Namespace) -> Build:
    """The build `source` names; a data folder is built into `folder` first (without search)."""
    import dataclasses

    from builder.diff.read import looks_like_data, open_build

    if Path(source).is_dir() and looks_like_data(Path(source)):
        from builder.build import build  # only here: two builds to compare need none of the builder

        try:
            build(Path(source), folder, settings.site(), search=False, workers=args.workers,
                  size_warning_bytes=settings.size_warning_bytes)
        except (OSError, duckdb.Error) as error:
            if (failed := _write_failure(error)) is None:
                raise
            raise BuildFailed(f"cannot build {source}: {failed[1]}; nothing was compared") from error
        return dataclasses.replace(open_build(str(folder)), name=source)
    return open_build(source)


def cmd_diff(args: argparse.Namespace) -> int:
    import tempfile

    from builder.diff import CODES, annotate, as_json, markdown
    from builder.diff.budgets import failures
    from builder.diff.compare import MixedSystems, compare
    from builder.diff.read import NotABuild, looks_like_data

    def fail(kind: str, line: str) -> int:
        print(f"scorecards diff: {line}", file=sys.stderr)
        return CODES[kind]

    head_is_data = Path(args.head).is_dir() and looks_like_data(Path(args.head))
    data = Path(args.data) if args.data else Path(args.head) if head_is_data else Path("data")
    path = Path(args.config) if args.config else find_settings(data, Path.cwd())
    if args.config and not path.is_file():  # type: ignore[union-attr]
        raise UserError(f"settings file not found: {args.config}")
    try:
        settings = load_settings(path, {})
    except SettingsError as error:
        return fail("bad-budgets", str(error))
    try:
        with tempfile.TemporaryDirectory(prefix="scorecards-diff-") as folder:
            base = _diff_side(args.base, Path(folder) / "base", settings, args)
            head = _diff_side(args.head, Path(folder) / "head", settings, args)
            diff = compare(base, head)
    except NotABuild as error:
        return fail("not-a-build", str(error))
    except MixedSystems as error:
        return fail("mixed-systems", str(error))
    failed = failures(settings.budgets, diff)
    text = markdown.render(diff, failed, args.base_name, args.head_name)
    if args.json:
        Path(args.json).write_text(as_json.render(diff, failed), encoding="utf-8")
    if args.summary:
        with open(args.summary, "a", encoding="utf-8") as summary:
            summary.write(text)
    if args.format == "json":
        sys.stdout.write(as_json.render(diff, failed))
    else:
        for line in annotate.diff_annotations(diff.tdqs, data):  # on GitHub Actions only
            print(line)
        if not _quiet(args):
            sys.stdout.write(text)
    for line in failed:
        print(f"scorecards diff: budget failed: {line}", file=sys.stderr)
    return CODES["budget-failed"] if failed else CODES["compared"]


VERIFY_EPILOG = """exit codes (the smallest of those found):
  0  every file is as the manifest says (and, with --data, as the data builds it)
  1  --data: the data could not be built again (a full disk, an unreadable file)
  2  a bad argument: a site or data folder that is not there
  3  the site could not be read: a URL that does not answer, a tar that is not one
  4  the manifest is missing, cut short or not a scorecards manifest
  5  a file's bytes are not those the manifest lists (tampered or damaged)
  6  a file the manifest lists is missing
  7  a file is there that the manifest does not list (not seen over HTTP)
  8  --data: the data folder's files are not the inputs the manifest lists
  9  --data: the data builds files other than those published"""


def cmd_verify(args: argparse.Namespace) -> int:
    from builder.publish.manifest import ManifestError, read_inputs
    from builder.verify import CODES, compare
    from builder.verify.check import PartError, check
    from builder.verify.rebuild import rebuild
    from builder.verify.site import Unreachable, open_site

    try:
        site = open_site(args.site)
    except ValueError as error:
        raise UserError(str(error)) from error
    data = _data_dir(args.data) if args.data else None
    only = _only(args.only) if args.only else None
    if only is not None and data is not None:
        raise UserError("--only checks one folder against its part, --data the whole site against a rebuild: give one")
    where = site.name.rstrip("/")
    found: list[tuple[str, str]] = []

    def report(kind: str, line: str) -> None:
        found.append((kind, line))
        print(f"scorecards verify: {line}", file=sys.stderr)

    try:
        raw = site.manifest()
        if raw is None:
            report("manifest", f"{where}: no {MANIFEST} (not a scorecards site, or built before manifests)")
            return CODES["manifest"]
        checked = check(site, raw, only)
        manifest = checked.manifest
        for kind, path in checked.findings:
            report(kind, f"{where}/{path}: {VERIFY_SAYS[kind]}")
    except Unreachable as error:
        report("unreachable", str(error))
        return CODES["unreachable"]
    except PartError as error:
        report("manifest", f"{where}/{error.path}: {error}")
        return CODES["manifest"]
    except ManifestError as error:
        report("manifest", f"{where}/{MANIFEST}: {error}")
        return CODES["manifest"]
    if data is not None:
        inputs = {i.path: (i.sha256, i.size) for i in read_inputs(data)}
        listed = {i.path: (i.sha256, i.size) for i in manifest.inputs.values()}
        for kind, path in compare.maps(listed, inputs):
            report("other-data", f"{data / path}: {INPUT_SAYS[kind]}")
        try:
            rebuilt = rebuild(data, manifest.head, workers=args.workers)
        except (OSError, duckdb.Error) as error:  # a full disk, an unreadable data file: the temporary folder is gone
            if (failed := _write_failure(error)) is None:
                raise
            raise BuildFailed(f"cannot rebuild {data}: {failed[1]}; nothing was written") from error
        for kind, path in compare.maps(manifest.files, rebuilt.files):
            report("rebuild-differs", f"{where}/{path}: {REBUILD_SAYS[kind]}")
    if not found:
        _say(args, f"verified {len(manifest.files)} files of {f'{where}/{only}' if only else where} against its manifest"
             + (f" and a rebuild of {args.data}" if data is not None else ""))
    return min((CODES[kind] for kind, _ in found), default=0)


def _only(folder: str) -> str:
    """The folder `--only` names, as the manifest names its part's (`servers/<id>/`)."""
    from builder.urls import manifest_part

    given = folder.strip("/") + "/"
    if manifest_part(given + "index.html") != given:
        raise UserError(f"--only {folder}: not a folder the manifest has a part for (servers/<id>/, api/ …)")
    return given


VERIFY_SAYS = {"differs": "its bytes are not those the manifest lists", "missing": "listed in the manifest, missing",
               "extra": "not listed in the manifest"}
INPUT_SAYS = {"differs": "not the input the manifest lists", "only-published": "an input the manifest lists, missing",
              "only-rebuilt": "not an input the manifest lists"}
REBUILD_SAYS = {"differs": "the data builds other bytes", "only-published": "published, but the data does not build it",
                "only-rebuilt": "the data builds it, but it is not published"}


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="scorecards", description=__doc__.splitlines()[0])
    root.add_argument("--version", action="version", version=f"scorecards {version(DISTRIBUTION)}")
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # -q and -v on every command: quiet keeps only errors; verbose adds detail (timings, each problem).
    talk = argparse.ArgumentParser(add_help=False)
    loudness = talk.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", dest="verbosity", action="store_const", const=-1, default=0,
                          help="print errors only: no progress, no line per file")
    loudness.add_argument("-v", "--verbose", dest="verbosity", action="store_const", const=1, default=0,
                          help="print more: each input problem, seconds per stage, each rebuild")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=text, description=text, parents=[talk])

    build = command("build", "build the site from a data folder")
    build.add_argument("data", nargs="?", default="data", help="data folder (default: data)")
    build.add_argument("-o", "--output", default="site",
                       help="output folder (default: site); a name ending in .tar writes a GitHub Pages artifact instead")
    _settings_flags(build)
    build.add_argument("--timings", default=None, metavar="FILE",
                       help="write seconds per build stage as JSON (default: not written)")
    build.add_argument("--workers", type=_positive, default=None, metavar="N",
                       help="processes that read and render (default: one per core; 1 builds in this process, for "
                            "debugging); the site is the same for any number")
    build.set_defaults(run=cmd_build)

    check = command("check", "validate a data folder without building (exit 1 on errors)")
    check.add_argument("data", nargs="?", default="data", help="data folder (default: data)")
    check.add_argument("--config", default=None, metavar="FILE", help="settings file (default: as for build)")
    check.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                       help="exit 1 on warnings too (default: off, or strict in the settings file)")
    check.set_defaults(run=cmd_check)

    index = command("index", "rebuild DATA/index.json from the captures")
    index.add_argument("data", nargs="?", default="data", help="data folder (default: data)")
    index.set_defaults(run=cmd_index)

    demo = command("demo", "generate a synthetic corpus scored by the deterministic stand-in")
    demo.add_argument("output", help="the folder to write the demo data folder into")
    demo.add_argument("--servers", type=int, default=30, help="servers to make up (default: 30)")
    demo.add_argument("--tools", type=int, default=300, help="tools in all, shared among the servers (default: 300)")
    demo.add_argument("--seed", type=int, default=0, help="the same seed makes the same corpus (default: 0)")
    demo.add_argument("--fork-share", type=float, default=None, metavar="SHARE",
                      help="share of servers that are forks of an earlier one, with its name (default: 0.05)")
    demo.set_defaults(run=cmd_demo)

    new = command("new", "make a repository ready to publish a scorecards site from")
    new.add_argument("folder", help="the new repository's folder (missing or empty)")
    new.add_argument("--demo", action="store_true", help="fill data/ with the generated demo corpus (default: empty)")
    new.add_argument("--install", choices=("wheel", "index"), default=None,
                     help="how the repository installs scorecards: 'wheel', this scorecards as a wheel in vendor/, "
                          "pinned by its SHA-256 (for a version the package index does not have yet), or 'index', "
                          "this version from the package index (default: 'index' when this scorecards was "
                          "installed from an index, else 'wheel')")
    new.set_defaults(run=cmd_new)

    add = command("add", "file grading results into a data folder, whatever the files are called")
    add.add_argument("data", help="the data folder")
    add.add_argument("files", nargs="+", metavar="FILE",
                     help="a tdqs ScoreReport, a FlowMCP grading entry, a Scoring Protocol v1 report or CLEO GRADES.jsonl")
    add.add_argument("--tools", default=None, metavar="TOOLS.json",
                     help="the tools/list the ScoreReport scored (default: none; it must name every tool the report scored)")
    add.add_argument("--server", default=None, metavar="ID",
                     help="the server id (default: the report's server name)")
    add.add_argument("--category", action="append", default=None, metavar="NAME",
                     help="a category of the ScoreReport's server, added to its server.json; repeatable (default: none)")
    add.add_argument("--schema", default=None, metavar="NAME",
                     help="the schema folder of a FlowMCP single-test entry (default: the one the tree has the tool in)")
    add.set_defaults(run=cmd_add)

    try_ = command("try", "score your own tools/list files with the stand-in (no model, no key) and build a site")
    try_.add_argument("files", nargs="+", metavar="TOOLS.json",
                      help="a tools/list result ({\"tools\": [...]}), one per server")
    try_.add_argument("--data", default=STAND_IN_DATA, metavar="FOLDER",
                      help=f"the data folder the stand-in reports are filed into (default: {STAND_IN_DATA})")
    try_.add_argument("-o", "--output", default=STAND_IN_SITE, help=f"output folder (default: {STAND_IN_SITE})")
    try_.set_defaults(run=cmd_try)

    verify = commands.add_parser(
        "verify", parents=[talk], help="check a published site against its manifest, and optionally its data",
        description="check every file of a site (a folder, a .tar or an http(s) URL) against the manifest it "
                    f"publishes ({MANIFEST}); with --data, also build the data again in a temporary folder and "
                    "compare; name every file that differs, is missing or is extra; write nothing",
        epilog=VERIFY_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    verify.add_argument("site", help="the site: a folder, a .tar (GitHub Pages artifact) or an http(s) URL")
    verify.add_argument("--data", default=None, metavar="FOLDER",
                        help="the data folder the site was built from: check it is the manifest's inputs and that "
                             "it builds the same files (default: check the files only)")
    verify.add_argument("--only", default=None, metavar="FOLDER",
                        help="check that folder of the site alone (servers/<id>/): the top manifest, that folder's "
                             "part and the files it lists; over HTTP only those are fetched (default: the whole site)")
    verify.add_argument("--workers", type=_positive, default=None, metavar="N",
                        help="processes for the rebuild with --data (default: one per core)")
    verify.set_defaults(run=cmd_verify)

    diff = commands.add_parser(
        "diff", parents=[talk], help="what HEAD changes from BASE: tiers, scores, coverage, smells, flags",
        description="compare two builds (or data folders, or the published site and a data folder): servers "
                    "changing tier, every overall and tool score change with its delta, new and cleared smells and "
                    "flags, coverage crossing 80%, servers added and removed, and FlowMCP and CLEO grade changes; "
                    "largest move first; Markdown on standard output (and GitHub annotations on the changed data "
                    "files, on GitHub Actions), JSON with --json or --format json; fail on a budget",
        epilog=DIFF_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    diff.add_argument("base", help="the build before: a folder, a .tar, an http(s) URL or a data folder")
    diff.add_argument("head", help="the build after: a folder, a .tar, an http(s) URL or a data folder")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown",
                      help="what standard output gets (default: markdown)")
    diff.add_argument("--json", default=None, metavar="FILE", help="also write the JSON to FILE (default: not written)")
    diff.add_argument("--summary", default=None, metavar="FILE",
                      help="append the Markdown to FILE, as to $GITHUB_STEP_SUMMARY (default: not written)")
    diff.add_argument("--base-name", default=None, metavar="TEXT",
                      help="what the Markdown calls BASE, e.g. 'the published site' (default: BASE as given)")
    diff.add_argument("--head-name", default=None, metavar="TEXT",
                      help="what the Markdown calls HEAD, e.g. 'this pull request' (default: HEAD as given)")
    diff.add_argument("--data", default=None, metavar="FOLDER",
                      help="the data folder HEAD was built from: the annotations name its files, its scorecards.toml "
                           "holds the budgets (default: HEAD when it is a data folder, else data)")
    diff.add_argument("--config", default=None, metavar="FILE",
                      help="settings file with [budgets] (default: scorecards.toml beside the data folder, or in "
                           "the current folder)")
    diff.add_argument("--workers", type=_positive, default=None, metavar="N",
                      help="processes to build a data folder with (default: one per core)")
    diff.set_defaults(run=cmd_diff)

    serve = command("serve", "serve a built site on localhost; with --watch, rebuild it and reload the browser")
    serve.add_argument("output", nargs="?", default="site", help="the built site's folder (default: site)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000; 0 picks a free one)")
    serve.add_argument("--base-url", default=None,
                       help="path the site is served under, as it was built (default: /, or base_url in the "
                            "settings file with --watch)")
    serve.add_argument("--watch", default=None, metavar="DATA",
                       help="build DATA into the output folder now and again on every change to it, the templates "
                            "or the settings file, and reload the page in the browser (default: serve as it is)")
    serve.add_argument("--config", default=None, metavar="FILE", help="settings file, with --watch (default: as for build)")
    serve.add_argument("--search", action=argparse.BooleanOptionalAction, default=None,
                       help="with --watch, build the search index (default: on, or search in the settings file)")
    serve.set_defaults(run=cmd_serve)
    return root


def _settings_flags(build: argparse.ArgumentParser) -> None:
    """Settings: each also a key of scorecards.toml; a flag given here overrides the file."""
    build.add_argument("--config", default=None, metavar="FILE",
                       help="settings file (default: scorecards.toml beside the data folder, or in the current folder)")
    build.add_argument("--base-url", default=None, help="path the site is served under, e.g. /<repo>/ (default: /)")
    build.add_argument("--site-url", default=None,
                       help="absolute origin for canonical links, sitemap, feeds and badges (default: none)")
    build.add_argument("--dispute-url", default=None,
                       help="issue tracker URL for 'dispute this score' links (default: none)")
    build.add_argument("--title", default=None, help=f"site title (default: {SiteConfig().title})")
    build.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                       help="exit 1 when the input has any problem (default: off)")
    build.add_argument("--search", action=argparse.BooleanOptionalAction, default=None,
                       help="build the Pagefind search index (default: on)")
    build.add_argument("--size-warning-bytes", type=_positive_bytes, default=None, metavar="BYTES",
                       help="warn when the site's files add up to more (default: 1000000000, GitHub Pages' 1 GB)")
    build.add_argument("--max-input-age-days", type=int, default=None, metavar="DAYS",
                       help="warn about each server whose newest capture is more than DAYS days older than the "
                            "data's newest date (with --strict: exit 1) (default: none, no warning)")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # SIGTERM (a CI job cancelled, `kill`) and SIGHUP (the terminal or SSH session closed) end a
    # build as Ctrl-C does: the staging folder is removed and the previous site stays whole. Forked
    # workers set them back to the default.
    previous = {number: signal.signal(number, _stop) for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    _RECEIVED.clear()
    try:
        try:
            return int(args.run(args))
        except Exception as error:
            # A library that was running when the signal came may report it as its own error
            # (DuckDB: "Query interrupted"): the build was stopped all the same.
            if not _RECEIVED:
                raise
            if _RECEIVED[0] == signal.SIGINT:
                raise KeyboardInterrupt from error
            raise Stopped(_RECEIVED[0]) from error
    except UserError as error:
        print(f"scorecards: {error}", file=sys.stderr)
        return 2
    except BuildFailed as error:
        print(f"scorecards: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("scorecards: interrupted; the previous site is unchanged", file=sys.stderr)
        return 128 + signal.SIGINT
    except Stopped as stopped:
        name = signal.Signals(stopped.signum).name
        print(f"scorecards: stopped by {name}; the previous site is unchanged", file=sys.stderr)
        return 128 + stopped.signum
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


if __name__ == "__main__":
    sys.exit(main())
