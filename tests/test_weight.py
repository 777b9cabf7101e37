"""What a build weighs (builder.engine.weight, issue 45), through the real command: the `size`
section of build-report.json and the last line agree with the files counted another way (the
folder walked, the tar opened with `tarfile`, each file compressed with `gzip`), the kinds add up
to the whole, and a site over `size_warning_bytes` is warned about in words an operator can act
on, without failing a strict build; with the default limit, a small site is not."""

from __future__ import annotations

import gzip
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.cli import main
from builder.engine.weight import SiteWeight, size_text, size_warning
from builder.publish.manifest import is_part
from builder.urls import weight_kind


def corpus(data: Path, servers: int = 6) -> None:
    for s in range(servers):
        tools = [tool_score(definition(f"tool_{t}", f"Tool {t} of server {s}, which does thing {t}."),
                            scores(4, 3, 3 + t % 2, 3, 4, 3)) for t in range(5)]
        write_capture(data, f"server-{s}", report(f"server-{s}", tools, generated_at=f"2026-05-0{s + 1}T00:00:00.000Z"))


def folder_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def tar_files(archive: Path) -> dict[str, bytes]:
    with tarfile.open(archive) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]


def check_size(size: dict[str, Any], files: dict[str, bytes]) -> None:
    """`size` (build-report.json's) against the site's files but the report and the manifest written after
    it (its top and its parts, which list the files the report weighs), counted here."""
    assert "build-report.json" not in files
    files = {path: data for path, data in files.items() if path != "manifest.jsonl" and not is_part(path)}
    assert size["bytes"] == sum(len(data) for data in files.values())
    assert size["files"] == len(files)
    kinds = size["kinds"]
    assert sum(k["bytes"] for k in kinds) == size["bytes"]
    assert sum(k["files"] for k in kinds) == size["files"]
    assert sum(k["gzipBytes"] for k in kinds) == size["gzipBytes"]
    assert [k["bytes"] for k in kinds] == sorted((k["bytes"] for k in kinds), reverse=True)
    assert all(k["share"] == round(k["bytes"] / size["bytes"], 4) for k in kinds)
    counted: dict[str, list[int]] = {}
    for path, data in files.items():
        kind = counted.setdefault(weight_kind(path), [0, 0, 0])
        kind[0] += len(data)
        kind[1] += 1
        kind[2] += len(gzip.compress(data, 6, mtime=0))
    assert {k["kind"]: [k["bytes"], k["files"]] for k in kinds} == {name: c[:2] for name, c in counted.items()}
    assert {"servers/*/tools/", "servers/", "api/", "static/", "index.html"} <= set(counted)
    # The gzip size is exact for the kinds whose files are all at the top or in a top-level folder,
    # and an estimate from a sample for the rest: close to the exact sum.
    near = {name for name in counted if all(p.count("/") <= 1 for p in files if weight_kind(p) == name)}
    assert {"static/", "downloads/", "index.html"} <= near
    assert all(k["gzipBytes"] == counted[k["kind"]][2] for k in kinds if k["kind"] in near)
    exact = sum(c[2] for c in counted.values())
    assert abs(size["gzipBytes"] - exact) <= 0.1 * exact, (size["gzipBytes"], exact)


def last_line(out: str) -> str:
    return out.strip().splitlines()[-1]


def test_a_site_over_its_size_limit_is_weighed_and_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    data, site = tmp_path / "data", tmp_path / "site"
    corpus(data)
    assert main(["index", str(data), "-q"]) == 0  # no problem in the input, so strict fails only on problems
    # scorecards.toml beside the data folder: a limit of 10 kB, and strict builds.
    (tmp_path / "scorecards.toml").write_text("size_warning_bytes = 10_000\nstrict = true\n", encoding="utf-8")
    code = main(["build", str(data), "-o", str(site)])
    out, err = capsys.readouterr()
    assert code == 0  # a warning, not an error: a strict build is not failed by it

    files = folder_files(site)
    size = json.loads(files.pop("build-report.json"))["size"]
    check_size(size, files)
    assert "pagefind/" in {k["kind"] for k in size["kinds"]}  # the search index Pagefind wrote apart counts too
    heaviest = size["kinds"][0]
    words = (f"the site is {size_text(size['bytes'])} (the heaviest part: {heaviest['kind']}, "
             f"{size_text(heaviest['bytes'])}): above size_warning_bytes = 10,000 in scorecards.toml "
             "(GitHub Pages supports up to 1 GB); keep an eye on its growth, or raise size_warning_bytes")
    assert size["warnings"] == [words]
    assert f"scorecards: warning: {words}\n" in err
    assert last_line(out).startswith(
        f"built {size['files']:,} files, build-report.json and manifest.jsonl (0 reused from the previous build) into {site} (tdqs): "
        f"{size_text(size['bytes'])}, {size_text(size['gzipBytes'])} gzipped; 0 errors, 0 warnings in the input"
    )


def test_the_artifact_is_weighed_as_the_folder_and_a_small_site_is_not_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, archive = tmp_path / "data", tmp_path / "site.tar"
    corpus(data)
    assert main(["build", str(data), "-o", str(archive), "-q"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "warning" not in err  # -q prints nothing, and the default limit is 1 GB
    files = tar_files(archive)
    size = json.loads(files.pop("build-report.json"))["size"]
    check_size(size, files)
    assert size["warnings"] == []

    # Built again, with the output's previous tar lending every unchanged member and its weight.
    assert main(["build", str(data), "-o", str(archive)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(tar_files(archive)["build-report.json"])["size"] == size
    assert f"gzipped, a {size_text(archive.stat().st_size)} tar; " in last_line(out)
    assert "warning" not in err

    # The same data built into a folder weighs the same.
    assert main(["build", str(data), "-o", str(tmp_path / "site"), "-q", "--size-warning-bytes", "1000000000"]) == 0
    assert json.loads((tmp_path / "site" / "build-report.json").read_bytes())["size"] == size


def _weighing(total: int) -> SiteWeight:
    weight = SiteWeight(weight_kind)
    weight.add("servers/a/tools/b/index.html", (total * 3 // 4, 0))
    weight.add("api/servers/a.json", (total - total * 3 // 4, 0))
    return weight


def test_over_github_pages_limits_the_warning_says_what_happens_and_what_to_do() -> None:
    assert size_warning(_weighing(999_999_999), 1_000_000_000) is None
    supported = size_warning(_weighing(3_530_000_000), 1_000_000_000)
    assert supported == (
        "the site is 3.53 GB (the heaviest part: servers/*/tools/, 2.65 GB): GitHub Pages supports published sites "
        "up to 1 GB; a larger one may fail to deploy (or time out after 10 minutes) and is not guaranteed to be "
        "served; publish the output folder to object storage behind a CDN instead (README, 'Beyond GitHub Pages'), "
        "or set size_warning_bytes in scorecards.toml above the site's size once it is published elsewhere"
    )
    refused = size_warning(_weighing(12_000_000_000), 1_000_000_000)
    assert refused is not None and refused.startswith(
        "the site is 12 GB (the heaviest part: servers/*/tools/, 9 GB): above the 10 GB a GitHub Pages artifact "
        "may hold, so actions/upload-pages-artifact will refuse it; GitHub Pages cannot publish it; publish the "
        "output folder to object storage behind a CDN instead"
    )
    # A limit raised for a site published elsewhere silences both.
    assert size_warning(_weighing(12_000_000_000), 20_000_000_000) is None
