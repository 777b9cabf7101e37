"""Lighthouse scores of the built site's page kinds, in Lighthouse's default mobile profile.

Builds a data folder (default `data/`) into a temporary folder with `--site-url` set to the local
server (so canonical links, the sitemap and robots.txt are what SEO checks), serves it gzipped as
GitHub Pages does (`scorecards serve`'s handler), runs Lighthouse 12 against one page of each
kind (every kind the site has: the comparison a visitor chooses, `compare/?s=…&s=…`, included)
and prints a table of the four category scores and the main performance metrics.

`--break N` first breaks N of the corpus's captures (a copy of it), alternately with the real failed
capture in ../shared/bad-input (or $SCORECARDS_SHARED_DATA/bad-input) and with a dimension score out
of range: a problem-heavy corpus for the data-problems pages. `--site FOLDER --port P` measures a site already built with
`--site-url http://127.0.0.1:P` instead of building one.

Lighthouse comes from npm and drives Debian's chromium (no browser download):

    npm i -E --prefix /tmp/lighthouse lighthouse@12.2.3
    python -m bench.lighthouse --lighthouse /tmp/lighthouse/node_modules/.bin/lighthouse
    python -m bench.lighthouse --lighthouse … --servers 1504 --tools 22837   # a tenth of the registry
    python -m bench.lighthouse --lighthouse … --data CORPUS --break 1000      # problem-heavy

Lighthouse's performance score depends on the CPU it gets: run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from builder.serve import make_server

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)


def first(folder: Path, pattern: str) -> str | None:
    """The first page matching `pattern` below `folder`, as a path relative to the site."""
    found = sorted(folder.glob(pattern))
    return found[0].parent.relative_to(folder).as_posix() + "/" if found else None


def chosen_comparison(site: Path) -> str | None:
    """`compare/?s=…&s=…` for the two best servers of the list (read from its JSON index)."""
    index = site / "api" / "server-list.json"
    if not index.is_file():
        return None
    rows = json.loads(index.read_text(encoding="utf-8"))["rows"][:2]
    slugs = [row[0].split("/")[1] for row in rows]
    return "compare/?" + "&".join(f"s={slug}" for slug in slugs) if len(slugs) == 2 else None


def unscored_server(site: Path) -> str | None:
    """The page of the first server the list marks "not scored" (read from its JSON index)."""
    index = site / "api" / "server-list.json"
    if not index.is_file():
        return None
    rows = [row for row in json.loads(index.read_text(encoding="utf-8"))["rows"] if row[2] == "not scored"]
    return rows[0][0].removesuffix("index.html") if rows else None


def search_results(site: Path) -> str | None:
    """`search/?q=…` for the first word of the best server's name (read from its JSON index): the
    search page with its results drawn, servers grouped above tools."""
    index = site / "api" / "server-list.json"
    if not index.is_file():
        return None
    rows = json.loads(index.read_text(encoding="utf-8"))["rows"]
    words = [word for word in rows[0][1].split() if word.isalpha() and len(word) > 3] if rows else []
    return f"search/?q={words[-1].lower()}" if words else None


def pages(site: Path) -> dict[str, str]:
    """One page of each kind: name → address below the site root."""
    kinds = {
        "home": "",
        "servers list": "servers/",
        "list, page 5 by name": "servers-by/name/5/",
        "server": first(site, "servers/*/index.html"),
        "tool": first(site, "servers/*/tools/*/index.html"),
        "server, not scored": (unscored := unscored_server(site)),
        "tool, not scored": first(site, f"{unscored}tools/*/index.html") if unscored else None,
        "compare (static)": first(site, "compare/*/index.html"),
        "compare (chosen)": chosen_comparison(site),
        "search": "search/",
        "search results": search_results(site),
        "categories": "categories/",
        "category": first(site, "categories/*/index.html"),
        "rubric": "rubric/",
        "changes": "changes/",
        "changes, page 2": "changes/2/",
        "downloads": "downloads/",
        "data problems": "problems/",
        "data problems, page 2": "problems/2/",
        "FlowMCP": "flowmcp/",
        "FlowMCP provider": first(site, "providers/*/index.html"),
        "FlowMCP selection": first(site, "selections/*/index.html"),
        "FlowMCP grading entry": first(site, "providers/**/_gradings/*/index.html"),
        "scoring report": first(site, "scoring-reports/*/index.html"),
        "sessions": "sessions/",
        "session": first(site, "sessions/*/index.html"),
        "CLEO run": first(site, "sessions/*/runs/*/index.html"),
    }
    return {name: path for name, path in kinds.items()
            if path is not None and (site / path.split("?")[0] / "index.html").is_file()}


def break_corpus(source: Path, target: Path, count: int) -> int:
    """A copy of the corpus at `source` with `count` of its captures broken (every k-th, in path
    order), alternately not JSON at all and with a dimension score out of range; returns how many."""
    shutil.copytree(source, target)
    captures = sorted(target.glob("servers/*/*.score.json"))
    step = max(1, len(captures) // max(count, 1))
    broken = captures[::step][:count]
    shared = Path(os.environ.get("SCORECARDS_SHARED_DATA") or ROOT.parent / "shared")  # as the tests find it
    not_json = (shared / "bad-input" / "not-json-capture.json").read_bytes()
    for number, capture in enumerate(broken):
        if number % 2 == 0:
            capture.write_bytes(not_json)
        else:
            document = json.loads(capture.read_text(encoding="utf-8"))
            document["tools"][0]["scores"]["purposeClarity"] = 7
            capture.write_text(json.dumps(document), encoding="utf-8")
    return len(broken)


def lighthouse(binary: str, url: str, report: Path) -> dict[str, float]:
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(
        [binary, url, "--output=json", f"--output-path={report}", f"--chrome-flags={CHROME_FLAGS}",
         f"--only-categories={','.join(CATEGORIES)}", "--quiet"],
        check=True, env=env, timeout=600,
    )
    result = json.loads(report.read_text(encoding="utf-8"))
    scores = {name: round(100 * (result["categories"][name]["score"] or 0)) for name in CATEGORIES}
    metrics = {name: result["audits"][name]["numericValue"] for name in METRICS}
    failed = [
        audit_id for name in CATEGORIES if name != "performance"
        for ref in result["categories"][name]["auditRefs"]
        if ref["weight"] and (audit := result["audits"][ref["id"]])["score"] is not None and audit["score"] < 1
        for audit_id in [ref["id"]]
    ]
    return {**scores, **metrics, "failed": failed}  # type: ignore[dict-item]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", required=True, help="the lighthouse binary (npm i -E lighthouse@12.2.3)")
    parser.add_argument("--data", default=None, help="data folder to build (default: data/, or a generated corpus)")
    parser.add_argument("--servers", type=int, default=0, help="generate a demo corpus of this many servers instead")
    parser.add_argument("--tools", type=int, default=0)
    parser.add_argument("--break", dest="broken", type=int, default=0, help="break this many captures first")
    parser.add_argument("--site", default=None, help="measure this built site instead of building one")
    parser.add_argument("--port", type=int, default=0, help="serve on this port (the built site's --site-url)")
    parser.add_argument("--only", default=None, help="measure only the page kinds whose names contain this")
    parser.add_argument("--keep", default=None, help="keep the Lighthouse JSON reports in this folder")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="scorecards-lighthouse-"))
    try:
        data = Path(args.data) if args.data else ROOT / "data"
        if args.servers:
            data = work / "corpus"
            subprocess.run([sys.executable, "-m", "builder.cli", "demo", str(data), "--servers", str(args.servers),
                            "--tools", str(args.tools)], check=True)
        if args.broken:
            print(f"broke {break_corpus(data, work / 'broken', args.broken)} captures")
            data = work / "broken"
        site = Path(args.site) if args.site else work / "site"
        server = make_server(site, port=args.port, quiet=True)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        if not args.site:
            subprocess.run([sys.executable, "-m", "builder.cli", "build", str(data), "-o", str(site),
                            "--site-url", origin], check=True, cwd=work)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        reports = Path(args.keep) if args.keep else work / "reports"
        reports.mkdir(parents=True, exist_ok=True)
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.platform()}")
        described = f"demo --servers {args.servers} --tools {args.tools}" if args.servers else str(args.site or data)
        print(f"corpus: {described}" + (f", {args.broken} captures broken" if args.broken else ""))
        header = f"{'page':<22} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4} {'FCP ms':>7} {'LCP ms':>7} {'TBT ms':>7} {'CLS':>5}"
        print(header)
        print("-" * len(header))
        for name, path in pages(site).items():
            if args.only and args.only not in name:
                continue
            slug = name.replace(" ", "-").replace(",", "").replace("(", "").replace(")", "")
            r = lighthouse(args.lighthouse, f"{origin}/{path}", reports / f"{slug}.json")
            print(f"{name:<22} {r['performance']:>4} {r['accessibility']:>4} {r['best-practices']:>4} {r['seo']:>4} "
                  f"{r['first-contentful-paint']:>7.0f} {r['largest-contentful-paint']:>7.0f} "
                  f"{r['total-blocking-time']:>7.0f} {r['cumulative-layout-shift']:>5.3f}"
                  + (f"  failing: {', '.join(r['failed'])}" if r["failed"] else ""), flush=True)
        server.shutdown()
        server.server_close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
