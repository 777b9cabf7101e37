"""The one place that turns names into output paths and paths into links.

Output paths are POSIX paths relative to the site root (`servers/acme/tools/get_x/index.html`).
Links between pages are relative (`../../`), so a site built once works under any base path:
a GitHub project page (`/<repo>/`), a user page (`/`) or a folder opened through `scorecards
serve`. Absolute URLs are made only where a protocol demands them (canonical, OpenGraph,
sitemap, feeds), from the configured base URL.

Templates never compose a path: they call the functions below (builder.engine.render exposes those a
template needs as Jinja globals, `tool_page(server_slug, tool_slug)` …) and `url()` turns the
path into a link.

Names come from third parties, so a name is never used as a path as it is. `slug()` keeps the
readable part of a name and adds a short hash of the exact name whenever that readable part is
not the name itself: names that differ only by case, or that collapse to the same characters
(`a/b`, `a..b`, `a\\b`), get distinct paths, and the same name always gets the same path.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_KEEP = re.compile(r"[^a-z0-9_-]+")
_MAX_READABLE = 60
WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"{port}{number}" for port in ("com", "lpt") for number in "123456789¹²³"]
)
"""Names a Windows checkout cannot hold as a file or folder, in any case and with any extension
(`NUL`, `con.json`): a site or a data folder is cloned on Windows too."""


def portable_name(name: str) -> bool:
    """Whether `name` can name a file or folder on every system a repository is checked out on:
    not a name Windows reserves, and not ending in a dot or a space (which Windows drops)."""
    return name.split(".", 1)[0].lower() not in WINDOWS_RESERVED and not name.endswith((".", " "))


def slug(name: str) -> str:
    """A stable, safe path segment for `name`: `[a-z0-9_-]`, at most ~70 characters, never empty,
    never `.` or `..`, never a name Windows reserves (`nul`, `con`, `lpt9` …). Identical to `name`
    when `name` is already such a segment."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    readable = _KEEP.sub("-", folded).strip("-_")[:_MAX_READABLE].strip("-_")
    if readable == name and readable and readable not in WINDOWS_RESERVED:
        return readable
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else f"x-{digest}"


def distinct_slugs(names: Iterable[str]) -> dict[str, str]:
    """Slugs for sibling names (the server folders, a schema's tools …) that are distinct even where
    one name spells another's hashed slug: `a.b` gives `a-b-<hash>`, which is also a valid folder
    name. A name that is its own slug keeps it; every other name of a clash gets `-2`, `-3` … (in
    name order, never a slug another name has). The result depends only on the set of names, so
    the same data gives the same addresses whatever order a folder is listed in."""
    unique = sorted(set(names))
    natural = {name: slug(name) for name in unique}
    claimed = set(natural.values())
    groups: dict[str, list[str]] = {}
    for name in unique:
        groups.setdefault(natural[name], []).append(name)
    result: dict[str, str] = {}
    for base, members in groups.items():
        members.sort(key=lambda name: (name != base, name))
        result[members[0]] = base
        counter = 2
        for name in members[1:]:
            while f"{base}-{counter}" in claimed:
                counter += 1
            result[name] = f"{base}-{counter}"
            claimed.add(result[name])
    return result


def slug_clashes(slugs: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, the slug it was given, the name that has its natural slug) for each name that
    `distinct_slugs` had to number: a warning for the data problems page."""
    holder = {given: name for name, given in slugs.items()}
    return [(name, given, holder[slug(name)]) for name, given in sorted(slugs.items()) if given != slug(name)]


def clash_reason(name: str, given: str, holder: str) -> str:
    return (f"{name!r} and {holder!r} would have the same address ({slug(name)}); "
            f"the pages of {name!r} are at {given} instead")


def check_output_path(path: str) -> str:
    """Refuses any output path that could leave the site folder or is not in canonical form."""
    # String tests only (no split): this runs for each of a registry's half a million outputs.
    # Together they refuse an absolute path and an empty, `.` or `..` segment.
    if (
        not path or path[0] == "/" or path[-1] == "/" or "\\" in path or "\x00" in path or "//" in path
        or path in (".", "..") or path.startswith(("./", "../")) or path.endswith(("/.", "/.."))
        or "/./" in path or "/../" in path
    ):
        raise ValueError(f"unsafe output path: {path!r}")
    return path


def page_dir(path: str) -> str:
    """The folder a page lives in, as seen by a browser: `servers/x/index.html` → `servers/x`."""
    return posixpath.dirname(path)


def relative(from_page: str, to_path: str) -> str:
    """The link from the page at `from_page` to the output path `to_path`. A target ending in
    `index.html` is linked as its folder (`../x/`), as every static host serves it.

    Both are canonical output paths (see `check_output_path`), so this is plain string work on
    their segments; it runs for every link of every page."""
    folder = to_path == "index.html" or to_path.endswith("/index.html")
    target = to_path[: -len("index.html")].rstrip("/") if folder else to_path
    here = from_page.split("/")[:-1]
    there = target.split("/") if target else []
    common = 0
    for a, b in zip(here, there, strict=False):
        if a != b:
            break
        common += 1
    # A file target in the page's own folder path is only "common" up to its parent folder.
    if not folder and common == len(there):
        common -= 1
    parts = [".."] * (len(here) - common) + there[common:]
    link = "/".join(parts)
    if folder:
        return link + "/" if link else "./"
    return link


# ---- the site's page paths, named for what they show ------------------------------------------

HOME = "index.html"
RUBRIC = "rubric/index.html"
SERVERS = "servers/index.html"
PROBLEMS = "problems/index.html"
SEARCH = "search/index.html"
STATS_API = "api/stats.json"
BUILD_REPORT = "build-report.json"
MANIFEST = "manifest.jsonl"
"""What the site was built from and what it holds (builder.publish.manifest), at a fixed path: the
top of the manifest, which lists its parts, each `manifest.jsonl` in a folder of the site."""
PART_FOLDERS = ("servers",)
"""Folders each of whose folders is a part of the manifest of its own (a server's): every other
folder at the top of the site is one part; the files at the top are listed in the top manifest."""


def manifest_part(path: str) -> str:
    """The folder of the manifest part that lists `path` (a file of the site or of the data
    folder): `servers/<id>/` for what is inside a folder of `servers/`, else its top-level folder
    (`api/`), else '' (the top manifest itself). Each folder is named by its `slug`, which is the
    site's own folder name (a server's folder is named so) and, for the data folder, the name of the
    site's folder for the same server, or at least a name every system can check out."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] in PART_FOLDERS:
        return f"{_slug(parts[0])}/{_slug(parts[1])}/"
    return _slug(parts[0]) + "/" if len(parts) >= 2 else ""


@lru_cache(maxsize=1 << 16)
def _slug(name: str) -> str:
    """`slug`, kept for the folder names a manifest's hundreds of thousands of paths repeat."""
    return slug(name)


def manifest_part_file(folder: str) -> str:
    """Where the manifest part of `folder` (`manifest_part`) is published: inside it."""
    return folder + MANIFEST
NOT_FOUND = "404.html"


_SEARCH_SHARD = re.compile(r"pagefind-[0-9]+")


def weight_kind(path: str) -> str:
    """What the output at `path` counts as when the site is weighed (builder.engine.weight): the
    tool pages (`servers/*/tools/`, each with its badge endpoint) apart from the rest of
    `servers/` (server pages, feeds, badge endpoints, cards); the search index (`pagefind/`, its shards
    `pagefind-<k>/` with it); every other folder by its name (`api/`, `downloads/`, `static/` …);
    a top-level file by its own (`index.html`, `sitemap.xml` …)."""
    first, slash, rest = path.partition("/")
    if not slash:
        return first
    if first == "servers" and rest.split("/", 2)[1:2] == ["tools"]:
        return "servers/*/tools/"
    if _SEARCH_SHARD.fullmatch(first):
        return "pagefind/"
    return first + "/"


def problems_page(number: int) -> str:
    """Page `number` of the data problems (builder.pages.problems); page 1 is PROBLEMS."""
    return PROBLEMS if number == 1 else f"problems/{number}/index.html"


PROBLEM_FILES = "problems/files/"


def problem_anchor(file: str) -> str:
    """The id of an input file's problems on the data problems pages: the same for the same file
    in every build, wherever the pages put it."""
    return "f-" + slug(file)


def problem_file_page(file: str) -> str:
    """The stable address of an input file's problems: a page that sends the visitor on to the
    page and anchor that hold them in this build (builder.pages.problems). A server's page links
    here: it is rendered only when the server changes, and the other files' problems move the
    file from page to page."""
    return f"{PROBLEM_FILES}{slug(file)}/index.html"


CHANGES = "changes/index.html"


def changes_page(number: int) -> str:
    """Page `number` of the changes, newest first (builder.tdqs.pages.changes); page 1 is CHANGES."""
    return CHANGES if number == 1 else f"changes/{number}/index.html"


def server_list_page(view: str, number: int) -> str:
    """Page `number` of the servers list in one of its views (an order, or a tier's rows). Page 1
    of the default view is `servers/index.html`; the rest are under `servers-by/`, outside
    `servers/`, so no server's slug can clash with one of them."""
    if view == "score" and number == 1:
        return SERVERS
    return f"servers-by/{view}/index.html" if number == 1 else f"servers-by/{view}/{number}/index.html"


CATEGORIES = "categories/index.html"


def category_page(category_slug: str, number: int = 1) -> str:
    """Page `number` of a category's servers, best first (builder.tdqs.pages.categories)."""
    return f"categories/{category_slug}/index.html" if number == 1 else f"categories/{category_slug}/{number}/index.html"


def server_page(server_slug: str) -> str:
    return f"servers/{server_slug}/index.html"


def server_api(server_slug: str) -> str:
    return f"api/servers/{server_slug}.json"


COMPARE = "compare/index.html"
"""The comparison a visitor chooses: `compare/?s=<slug>&s=<slug>` (builder.tdqs.pages.compare)."""


def compare_page(server_slug: str) -> str:
    """A scored server's static comparison with its nearest neighbours."""
    return f"compare/{server_slug}/index.html"


def tool_page(server_slug: str, tool_slug: str) -> str:
    return f"servers/{server_slug}/tools/{tool_slug}/index.html"


DOWNLOADS_FOLDER = "downloads"


def download_file(dataset: str, extension: str) -> str:
    """A bulk download: `download_file("tools", "csv.gz")` → `downloads/tools.csv.gz`."""
    return f"{DOWNLOADS_FOLDER}/{dataset}.{extension}"


def badge_endpoint(page: str) -> str:
    """The shields.io endpoint JSON of a scorecard: `badge.json` beside its page."""
    return page_dir(page) + "/badge.json"


def card_file(page: str) -> str:
    """The embeddable card of a scorecard (builder.publish.cards): `card.svg` beside its page, at an
    address that stays the same across rescores, so a README that shows it follows the current grade."""
    return page_dir(page) + "/card.svg"


def absolute(base_url: str, path: str) -> str:
    """An absolute URL for protocols that need one; `base_url` ends with `/`."""
    if path == "index.html" or path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return base_url + path


# ---- CLEO agent sessions ----------------------------------------------------------------------

CLEO_SESSIONS = "sessions/index.html"
CLEO_SESSIONS_API = "api/sessions.json"


def cleo_session_page(session_slug: str) -> str:
    return f"sessions/{session_slug}/index.html"


def cleo_run_page(session_slug: str, run_slug: str) -> str:
    return f"sessions/{session_slug}/runs/{run_slug}/index.html"


# ---- FlowMCP: Grading-Spec trees and Scoring Protocol v1 reports ------------------------------

FLOWMCP = "flowmcp/index.html"
FLOWMCP_API = "api/flowmcp/index.json"


def flowmcp_provider_page(namespace_slug: str) -> str:
    return f"providers/{namespace_slug}/index.html"


def flowmcp_provider_api(namespace_slug: str) -> str:
    return f"api/flowmcp/providers/{namespace_slug}.json"


def flowmcp_selection_page(selection_slug: str) -> str:
    return f"selections/{selection_slug}/index.html"


def flowmcp_selection_api(selection_slug: str) -> str:
    return f"api/flowmcp/selections/{selection_slug}.json"


def flowmcp_grading_page(node_folder: str, entry_slug: str) -> str:
    """`node_folder` mirrors the tree below the site root (`providers/<ns>/<schema>/tools/<tool>`)."""
    return f"{node_folder}/_gradings/{entry_slug}/index.html"


def flowmcp_grading_api(node_folder: str, entry_slug: str) -> str:
    return f"api/flowmcp/{node_folder}/_gradings/{entry_slug}.json"


def flowmcp_report_page(report_slug: str) -> str:
    return f"scoring-reports/{report_slug}/index.html"


def flowmcp_report_api(report_slug: str) -> str:
    return f"api/flowmcp/scoring-reports/{report_slug}.json"


def flowmcp_report_version_page(report_slug: str, file_slug: str) -> str:
    return f"scoring-reports/{report_slug}/{file_slug}/index.html"


def flowmcp_report_version_api(report_slug: str, file_slug: str) -> str:
    return f"api/flowmcp/scoring-reports/{report_slug}/{file_slug}.json"
