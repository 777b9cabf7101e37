"""`scorecards verify` through the real command: a site checked against the manifest it publishes,
and against a rebuild of its data; each kind of damage named on a line of its own, with its code."""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
import tarfile
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.cli import main
from builder.verify import CODES


def corpus(data: Path, description: str = "Does a thing.") -> Path:
    for server in ("alpha", "beta"):
        text = description if server == "alpha" else "Does another thing."
        tools = [tool_score(definition(f"{server}_t", text), scores(4, 4, 3, 4, 4, 4))]
        write_capture(data, server, report(server, tools), [definition(f"{server}_t", text)])
    return data


def build(data: Path, out: Path) -> Path:
    assert main(["build", str(data), "-o", str(out), "--no-search", "--workers", "1", "-q"]) == 0
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("verify")
    data = corpus(root / "data")
    return data, build(data, root / "site"), build(data, root / "site.tar")


def rows(path: Path) -> list[object]:
    """A manifest file's lines as JSON, read here, not by the builder."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_rows(path: Path, found: list[object]) -> None:
    path.write_text("".join(json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n" for row in found))


def hashed(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under `folder` but the top manifest: its SHA-256 and size, by path."""
    return {p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_size)
            for p in sorted(folder.rglob("*")) if p.is_file() and p.relative_to(folder).as_posix() != "manifest.jsonl"}


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["verify", *args])
    return code, capsys.readouterr().err.splitlines()


def copy(site: Path, tmp_path: Path) -> Path:
    target = tmp_path / site.name
    (shutil.copytree if site.is_dir() else shutil.copy)(site, target)
    return target


def test_a_folder_and_a_tar_verify(built: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    data, folder, tar = built
    for site in (folder, tar):
        code, lines = verify(capsys, str(site))
        assert (code, lines) == (0, [])
    # Two levels: the top lists each part by its SHA-256 and the files at the top; each part the files
    # of its folder (a server's folder, or a top-level folder) and the inputs of the data's folder of the
    # same name. Every file of the site but the top is listed once, with the SHA-256 of its bytes.
    files = hashed(folder)
    top = rows(folder / "manifest.jsonl")
    parts = {row[1]: (row[2], row[3]) for row in top if isinstance(row, list) and row[0] == "part"}
    folders = [f for f in folder.iterdir() if f.is_dir()]
    assert sorted(parts) == sorted(
        [f"{f.name}/manifest.jsonl" for f in folders]
        + [f"servers/{f.name}/manifest.jsonl" for f in (folder / "servers").iterdir() if f.is_dir()])
    assert {"servers/alpha/manifest.jsonl", "servers/beta/manifest.jsonl", "api/manifest.jsonl"} <= set(parts)
    at_top = sum(1 for f in folder.iterdir() if f.is_file() and f.name != "manifest.jsonl")
    assert top[0]["manifest"] == 2  # type: ignore[index]
    assert top[-1] == {"end": {"files": at_top, "inputs": 0, "parts": len(parts)}}
    listed: dict[str, tuple[str, int]] = dict(parts)
    listed.update((row[1], (row[2], row[3])) for row in top if isinstance(row, list) and row[0] == "file")
    inputs: dict[str, tuple[str, int]] = {}
    for part in parts:
        for row in rows(folder / part)[1:-1]:
            assert isinstance(row, list)
            (listed if row[0] == "file" else inputs)[row[1]] = (row[2], row[3])
    assert listed == files
    assert inputs == {p.relative_to(data).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_size)
                      for p in sorted(data.rglob("*")) if p.is_file()}
    alpha = rows(folder / "servers" / "alpha" / "manifest.jsonl")
    assert alpha[0] == {"manifest": 2, "part": "servers/alpha/"}
    assert {row[1] for row in alpha[1:-1]} == {  # type: ignore[index]
        *(p for p in files if p.startswith("servers/alpha/") and p != "servers/alpha/manifest.jsonl"),
        *(p for p in inputs if p.startswith("servers/alpha/"))}


def test_a_flipped_byte_a_removed_and_an_added_file_are_each_named(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    site = copy(built[1], tmp_path)
    page = site / "servers" / "alpha" / "index.html"
    data = bytearray(page.read_bytes())
    data[200] ^= 1
    page.write_bytes(bytes(data))
    assert verify(capsys, str(site)) == (CODES["differs"], [
        f"scorecards verify: {site}/servers/alpha/index.html: its bytes are not those the manifest lists"])
    page.write_bytes(bytes(data[:200] + bytes([data[200] ^ 1]) + data[201:]))
    (site / "404.html").unlink()
    assert verify(capsys, str(site)) == (CODES["missing"], [
        f"scorecards verify: {site}/404.html: listed in the manifest, missing"])
    shutil.copy(built[1] / "404.html", site / "404.html")
    (site / "servers" / "alpha" / "extra.html").write_text("<p>not ours</p>")
    assert verify(capsys, str(site)) == (CODES["extra"], [
        f"scorecards verify: {site}/servers/alpha/extra.html: not listed in the manifest"])


def test_a_flipped_byte_in_a_tar_is_named(built: tuple[Path, Path, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    tar = copy(built[2], tmp_path)
    with tarfile.open(tar) as archive:
        member = archive.getmember("servers/beta/index.html")
    with open(tar, "r+b") as file:
        file.seek(member.offset_data + 100)
        byte = file.read(1)
        file.seek(member.offset_data + 100)
        file.write(bytes([byte[0] ^ 1]))
    code, lines = verify(capsys, str(tar))
    assert (code, lines) == (CODES["differs"], [
        f"scorecards verify: {tar}/servers/beta/index.html: its bytes are not those the manifest lists"])


def test_a_tampered_part_is_named_and_a_part_gone_is_missing(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    site = copy(built[1], tmp_path)
    part = site / "servers" / "alpha" / "manifest.jsonl"
    text = part.read_text()
    line = next(li for li in text.splitlines() if '"servers/alpha/index.html"' in li)
    digest = json.loads(line)[2]
    forged = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    part.write_text(text.replace(digest, forged))  # claims other bytes for the page: the top says otherwise
    assert verify(capsys, str(site)) == (CODES["differs"], [
        f"scorecards verify: {site}/servers/alpha/manifest.jsonl: its bytes are not those the manifest lists"])
    part.unlink()
    assert verify(capsys, str(site)) == (CODES["missing"], [
        f"scorecards verify: {site}/servers/alpha/manifest.jsonl: listed in the manifest, missing"])


def test_a_part_the_top_does_not_list_is_named_with_each_file_of_its_folder(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    site = copy(built[1], tmp_path)
    top = rows(site / "manifest.jsonl")
    kept = [row for row in top if not (isinstance(row, list) and row[:2] == ["part", "servers/beta/manifest.jsonl"])]
    assert len(kept) == len(top) - 1
    kept[-1]["end"]["parts"] -= 1  # type: ignore[index]
    write_rows(site / "manifest.jsonl", kept)
    beta = sorted(p.relative_to(site).as_posix() for p in (site / "servers" / "beta").rglob("*") if p.is_file())
    assert "servers/beta/manifest.jsonl" in beta and "servers/beta/index.html" in beta
    code, lines = verify(capsys, str(site))
    assert code == CODES["extra"]
    assert lines == [f"scorecards verify: {site}/{path}: not listed in the manifest" for path in beta]


def test_a_part_that_is_the_one_listed_but_no_part_is_a_manifest_error(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    site = copy(built[1], tmp_path)
    part = site / "servers" / "alpha" / "manifest.jsonl"
    part.write_bytes(part.read_bytes().rsplit(b"\n", 2)[0] + b"\n")  # its end line gone
    listed = [hashlib.sha256(part.read_bytes()).hexdigest(), part.stat().st_size]
    write_rows(site / "manifest.jsonl", [  # and the top made to list it as it now is
        [*row[:2], *listed] if isinstance(row, list) and row[1] == "servers/alpha/manifest.jsonl" else row
        for row in rows(site / "manifest.jsonl")])
    code, lines = verify(capsys, str(site))
    assert code == CODES["manifest"] and len(lines) == 1
    assert lines[0] == f"scorecards verify: {site}/servers/alpha/manifest.jsonl: it is cut short (it has no end line)"


@pytest.mark.parametrize("name", ["site", "site.tar"])
def test_a_rebuild_lists_what_it_lent_with_the_sha256_of_its_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
) -> None:
    from builder.build import build as build_site
    from builder.config import SiteConfig

    # The manifest is made from what the writer recorded as it wrote each file (and, for a file lent by the
    # previous build, what the ledger recorded): a rebuild's lists the bytes on disk, hashed here.
    data, out = corpus(tmp_path / "data"), tmp_path / name
    build(data, out)
    tools = [tool_score(definition("beta_t", "Does it anew."), scores(5, 4, 4, 4, 5, 4))]
    write_capture(data, "beta", report("beta", tools, generated_at="2026-06-02T00:00:00.000Z"), name="newer")
    assert build_site(data, out, SiteConfig(), search=False, workers=1).timings["reused"] > 0
    assert verify(capsys, str(out)) == (0, [])
    if out.is_dir():
        listed: dict[str, tuple[str, int]] = {}
        for part in (row[1] for row in rows(out / "manifest.jsonl") if isinstance(row, list) and row[0] == "part"):
            listed[part] = (hashlib.sha256((out / part).read_bytes()).hexdigest(), (out / part).stat().st_size)
            listed.update((row[1], (row[2], row[3])) for row in rows(out / part)[1:-1]  # type: ignore[index]
                          if isinstance(row, list) and row[0] == "file")
        listed.update((row[1], (row[2], row[3])) for row in rows(out / "manifest.jsonl")  # type: ignore[index]
                      if isinstance(row, list) and row[0] == "file")
        assert listed == hashed(out)


@pytest.mark.parametrize("cut", [0, 1, 600, -1])
def test_a_manifest_cut_short_or_gone_is_one_line(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: int,
) -> None:
    site = copy(built[1], tmp_path)
    manifest = site / "manifest.jsonl"
    if cut == 0:
        manifest.unlink()
    else:
        text = manifest.read_bytes()
        # -1: whole lines, but the end line (and so the counts) lost
        manifest.write_bytes(text[:cut] if cut > 0 else text[: text.rindex(b"\n", 0, len(text) - 1) + 1])
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    code, lines = verify(capsys, str(site))
    assert code == CODES["manifest"] and len(lines) == 1 and "manifest.jsonl" in lines[0]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written


def test_a_rebuild_from_the_same_data_verifies(built: tuple[Path, Path, Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    data, folder, tar = built
    for site in (folder, tar):
        assert verify(capsys, str(site), "--data", str(data), "--workers", "1") == (0, [])


def test_a_rebuild_from_changed_data_names_exactly_the_changed_outputs(
    built: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    changed = corpus(tmp_path / "data", description="Does a thing, differently.")
    expected = hashed(build(changed, tmp_path / "other"))
    published = hashed(built[1])
    differ = sorted(p for p in {*published, *expected} if published.get(p) != expected.get(p))
    assert any(p.startswith("servers/alpha/") for p in differ)
    assert not any(p.startswith("servers/beta/") for p in differ)
    code, lines = verify(capsys, str(built[1]), "--data", str(changed), "--workers", "1")
    assert code == CODES["other-data"]
    inputs = [line for line in lines if "the manifest lists" in line and str(changed) in line]
    assert inputs and all("servers/alpha/" in line for line in inputs)
    rebuilt = [line.split(": ")[1].removeprefix(f"{built[1]}/") for line in lines if "the data builds" in line]
    assert rebuilt == differ
    # The manifest of the other data, put in the site's place: every file it does not describe is named.
    site = copy(built[1], tmp_path)
    shutil.copy(tmp_path / "other" / "manifest.jsonl", site / "manifest.jsonl")
    code, lines = verify(capsys, str(site))
    assert code == min(CODES["differs"], CODES["missing"], CODES["extra"])
    # Named: each file at the top and each part whose bytes are not those the top lists; the files of
    # a part that is not the top's are not checked against it.
    named = [p for p in differ if "/" not in p or p.endswith("/manifest.jsonl")]
    assert any(p.startswith("servers/alpha/") for p in named) and "servers/beta/manifest.jsonl" not in named
    assert [line.split(": ")[1].removeprefix(f"{site}/") for line in lines] == named


class Quiet(SimpleHTTPRequestHandler):
    asked: ClassVar[list[str]] = []
    """The path of each request, in order."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        Quiet.asked.append(self.path)
        super().do_GET()


@pytest.fixture
def served(built: tuple[Path, Path, Path], tmp_path: Path) -> Iterator[tuple[str, Path]]:
    site = copy(built[1], tmp_path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", site
    finally:
        server.shutdown()
        server.server_close()


def test_a_url_verifies_and_a_file_gone_from_it_is_named(
    served: tuple[str, Path], capsys: pytest.CaptureFixture[str],
) -> None:
    url, site = served
    assert verify(capsys, url) == (0, [])
    (site / "servers" / "beta" / "index.html").unlink()
    assert verify(capsys, url) == (CODES["missing"], [
        f"scorecards verify: {url}servers/beta/index.html: listed in the manifest, missing"])


def test_one_server_is_checked_from_the_top_its_part_and_its_files_alone(
    served: tuple[str, Path], capsys: pytest.CaptureFixture[str],
) -> None:
    url, site = served
    page = site / "servers" / "beta" / "index.html"
    page.write_bytes(page.read_bytes().replace(b"</main>", b"<p>edited</p></main>"))
    Quiet.asked.clear()
    assert verify(capsys, url, "--only", "servers/alpha") == (0, [])
    alpha = sorted(p.relative_to(site).as_posix() for p in (site / "servers" / "alpha").rglob("*") if p.is_file())
    assert sorted(Quiet.asked) == sorted(["/manifest.jsonl", *(f"/{path}" for path in alpha)])
    assert verify(capsys, url, "--only", "servers/beta/") == (CODES["differs"], [
        f"scorecards verify: {url}servers/beta/index.html: its bytes are not those the manifest lists"])
    code, lines = verify(capsys, url, "--only", "servers/gamma/")
    assert code == CODES["manifest"] and lines == [
        f"scorecards verify: {url}manifest.jsonl: it lists no part for servers/gamma/ (a folder of the site: "
        "servers/<id>/, api/ …)"]
    assert main(["verify", url, "--only", "servers/alpha/", "--data", str(site)]) == 2


def test_a_url_that_does_not_answer_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, lines = verify(capsys, f"http://127.0.0.1:{port}/")
    assert code == CODES["unreachable"] and len(lines) == 1
    assert lines[0].startswith(f"scorecards verify: http://127.0.0.1:{port}/manifest.jsonl: did not answer")


def test_a_site_that_is_not_there_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nope")]) == 2
    assert "site not found" in capsys.readouterr().err


def test_old_inputs_are_named_by_age_from_the_data_not_the_clock_and_fail_under_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    data = corpus(tmp_path / "data")
    tools = [tool_score(definition("beta_t"), scores(4, 4, 4, 4, 4, 4))]
    write_capture(data, "beta", report("beta", tools, generated_at="2026-03-03T00:00:00.000Z"), name="old")
    (data / "servers" / "beta" / "2026-06-01T00-00-00Z.score.json").unlink()
    (data / "servers" / "beta" / "2026-06-01T00-00-00Z.tools.json").unlink()
    settings = tmp_path / "scorecards.toml"
    settings.write_text("max_input_age_days = 60\n")
    args = ["build", str(data), "-o", str(tmp_path / "site"), "--no-search", "--workers", "1", "-q"]
    assert main(args) == 0
    warning = (f"scorecards: warning: {data}/servers/beta: its newest input, old.score.json, is 90 days older than "
               "the data (max_input_age_days = 60)")
    assert capsys.readouterr().err.splitlines() == [warning]
    assert main([*args, "--strict"]) == 1
    assert warning in capsys.readouterr().err
    assert rows(tmp_path / "site" / "manifest.jsonl")[0]["dataAsOf"].startswith("2026-06-01")  # type: ignore[index]
    part = (tmp_path / "site" / "servers" / "beta" / "manifest.jsonl").read_text()
    line = next(li for li in part.splitlines() if "old.score" in li)
    assert line.endswith('"2026-03-03T00:00:00.000Z",90]')
    settings.write_text("max_input_age_days = 90\n")
    assert main(args) == 0 and capsys.readouterr().err == ""
