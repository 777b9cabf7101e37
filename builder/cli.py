"""`scorecards`: build, check, index, demo, new, add, serve.

User errors (a missing folder, a bad option) print one clear line and exit 2; data problems never
stop a build, they are listed in build-report.json and, with --strict, turn the exit code to 1.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from importlib.metadata import version
from pathlib import Path

from tqdm import tqdm

from builder.config import SiteConfig
from builder.settings import Settings, SettingsError, find_settings, load_settings


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
                                                            "search")}
    try:
        return load_settings(path, overrides)
    except SettingsError as error:
        raise UserError(str(error)) from error


def _positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of workers")
    return number


def cmd_build(args: argparse.Namespace) -> int:
    from builder.build import build
    from builder.engine.links import BrokenLinks
    from builder.engine.output import UnsafeOutput

    data = _data_dir(args.data)
    settings = _settings(args, data)
    try:
        result = build(data, args.output, settings.site(), progress=Progress(), search=settings.search,
                       workers=args.workers)
    except UnsafeOutput as error:
        raise UserError(str(error)) from error
    except OSError as error:
        raise BuildFailed(_os_error(error, args.output)) from error
    except BrokenLinks as error:
        raise BuildFailed(f"{error}; nothing was replaced (a scorecards bug: please report it)") from error
    if args.timings:
        Path(args.timings).write_text(json.dumps(result.timings, indent=2) + "\n", encoding="utf-8")
    log = result.log
    warnings = len(log) - log.error_count
    print(
        f"built {result.files_written} files into {args.output} "
        f"({', '.join(result.systems) or 'no grading data'}); "
        f"{log.error_count} errors, {warnings} warnings in the input (see build-report.json)"
    )
    return 1 if settings.strict and len(log) else 0


def cmd_check(args: argparse.Namespace) -> int:
    from builder.build import read_and_plan

    data = _data_dir(args.data)
    settings = _settings(args, data)
    model = read_and_plan(data, settings.site())
    model.close()
    for problem in model.log.problems:
        code = f" [{problem.code}]" if problem.code else ""
        print(f"{problem.severity}: {problem.file}: {problem.json_path}: {problem.reason}{code}")
    files = model.log.files
    print(f"{len(files)} files read, {model.log.error_count} errors, {len(model.log) - model.log.error_count} warnings")
    return 1 if model.log.error_count or (settings.strict and len(model.log)) else 0


def cmd_index(args: argparse.Namespace) -> int:
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_tdqs
    from builder.tdqs.registry_index import write_index

    data = _data_dir(args.data)
    log = ProblemLog()
    corpus = read_tdqs(data, log)
    if corpus is None:
        raise UserError(f"no TDQS captures under {data / 'servers'}")
    path = write_index(data, corpus)
    print(f"wrote {path} ({len(corpus.servers)} servers); {log.error_count} input errors")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from builder.engine.problems import ProblemLog
    from builder.tdqs.reader import read_tdqs
    from builder.tdqs.registry_index import write_index
    from scorecards_demo.generate import generate_demo

    out = Path(args.output)
    if args.servers < 1 or args.tools < args.servers:
        raise UserError("--servers must be at least 1 and --tools at least --servers (every server has a tool)")
    progress = Progress()
    try:
        generate_demo(out, servers=args.servers, tools=args.tools, seed=args.seed,
                      progress=lambda done, total: progress("score", done, total))
    except ValueError as error:
        raise UserError(str(error)) from error
    corpus = read_tdqs(out, ProblemLog())
    if corpus is not None:
        write_index(out, corpus)
    print(f"wrote a demo corpus of {args.servers} servers and {args.tools} tools into {out} (stand-in scores)")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from builder.scaffold import NotEmpty, check_new_folder, write_skeleton

    folder = Path(args.folder)
    try:
        check_new_folder(folder)
    except NotEmpty as error:
        raise UserError(str(error)) from error
    folder.mkdir(parents=True, exist_ok=True)
    if args.demo:
        cmd_demo(argparse.Namespace(output=str(folder / "data"), servers=30, tools=300, seed=0))
    for path in write_skeleton(folder):
        print(f"wrote {path}")
    print(f"a scorecards repository is ready in {folder}: add results with `scorecards add {folder / 'data'} FILE…`, "
          f"build with `scorecards build {folder / 'data'} -o {folder / 'site'}`, then push it to GitHub")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from builder.add import AddError, add_files

    data = _data_dir(args.data)
    for path in [*args.files, *([args.tools] if args.tools else [])]:
        if not Path(path).is_file():
            raise UserError(f"file not found: {path}")
    try:
        lines = add_files(data, [Path(path) for path in args.files], tools=Path(args.tools) if args.tools else None,
                          server=args.server, schema=args.schema, shown=args.data)
    except AddError as error:
        raise UserError(f"{error}; nothing was written") from error
    for line in lines:
        print(line)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from builder.serve import serve

    folder = Path(args.output)
    if not folder.is_dir():
        raise UserError(f"site folder not found: {folder} (run `scorecards build` first)")
    serve(folder, port=args.port, base_url=SiteConfig(base_url=args.base_url).base_url)
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="scorecards", description=__doc__.splitlines()[0])
    root.add_argument("--version", action="version", version=f"scorecards {version('scorecards')}")
    commands = root.add_subparsers(dest="command", required=True)

    build = commands.add_parser("build", help="build the site from a data folder")
    build.add_argument("data", nargs="?", default="data", help="data folder (default: data)")
    build.add_argument("-o", "--output", default="site", help="output folder (default: site); a name ending in .tar writes a GitHub Pages artifact instead")
    # Settings: each also a key of scorecards.toml; a flag given here overrides the file.
    build.add_argument("--config", default=None, metavar="FILE",
                       help="settings file (default: scorecards.toml beside the data folder, or in the current folder)")
    build.add_argument("--base-url", default=None, help="path the site is served under, e.g. /<repo>/ (default: /)")
    build.add_argument("--site-url", default=None, help="absolute origin for canonical links, sitemap, feeds and badges")
    build.add_argument("--dispute-url", default=None, help="issue tracker URL for 'dispute this score' links")
    build.add_argument("--title", default=None, help="site title")
    build.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                       help="exit 1 when the input has any problem")
    build.add_argument("--search", action=argparse.BooleanOptionalAction, default=None,
                       help="build the Pagefind search index (default: on)")
    build.add_argument("--timings", default=None, metavar="FILE", help="write seconds per build stage as JSON")
    build.add_argument("--workers", type=_positive, default=None, metavar="N",
                       help="processes that read and render (default: one per core; 1 builds in this process, for "
                            "debugging); the site is the same for any number")
    build.set_defaults(run=cmd_build)

    check = commands.add_parser("check", help="validate a data folder without building (exit 1 on errors)")
    check.add_argument("data", nargs="?", default="data")
    check.add_argument("--config", default=None, metavar="FILE", help="settings file (default: as for build)")
    check.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None, help="exit 1 on warnings too")
    check.set_defaults(run=cmd_check)

    index = commands.add_parser("index", help="rebuild DATA/index.json from the captures")
    index.add_argument("data", nargs="?", default="data")
    index.set_defaults(run=cmd_index)

    demo = commands.add_parser("demo", help="generate a synthetic corpus scored by the deterministic stand-in")
    demo.add_argument("output")
    demo.add_argument("--servers", type=int, default=30)
    demo.add_argument("--tools", type=int, default=300)
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(run=cmd_demo)

    new = commands.add_parser("new", help="make a repository ready to publish a scorecards site from")
    new.add_argument("folder", help="the new repository's folder (missing or empty)")
    new.add_argument("--demo", action="store_true", help="fill data/ with the generated demo corpus")
    new.set_defaults(run=cmd_new)

    add = commands.add_parser("add", help="file grading results into a data folder, whatever the files are called")
    add.add_argument("data", help="the data folder")
    add.add_argument("files", nargs="+", metavar="FILE",
                     help="a tdqs ScoreReport, a FlowMCP grading entry, a Scoring Protocol v1 report or CLEO GRADES.jsonl")
    add.add_argument("--tools", default=None, metavar="TOOLS.json", help="the tools/list the ScoreReport scored")
    add.add_argument("--server", default=None, metavar="ID", help="the server id, when not the report's server name")
    add.add_argument("--schema", default=None, metavar="NAME",
                     help="the schema folder of a FlowMCP single-test entry, when the tree does not tell")
    add.set_defaults(run=cmd_add)

    serve = commands.add_parser("serve", help="serve a built site on localhost")
    serve.add_argument("output", nargs="?", default="site")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--base-url", default="/")
    serve.set_defaults(run=cmd_serve)
    return root


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
