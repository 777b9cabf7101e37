"""scorecards.toml: the flags' settings in a file, a flag overriding it, a bad key named in one line."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from corpus import definition, report, scores, tool_score, write_capture

from builder.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def scorecards(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "builder.cli", *args], capture_output=True, text=True, cwd=cwd,
                          check=False, env={**os.environ, "HOME": str(cwd)})


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_capture(tmp_path / "data", "srv", report("srv", [tool_score(definition("t"), scores(4, 4, 4, 4, 4, 4))]))
    return tmp_path


def title(site: Path) -> str:
    text = (site / "index.html").read_text(encoding="utf-8")
    return text.split("<title>", 1)[1].split("</title>", 1)[0]


def test_the_file_beside_the_data_folder_sets_the_build_and_a_flag_overrides_it(project: Path) -> None:
    (project / "scorecards.toml").write_text(
        'title = "Acme registry"\nbase_url = "/acme/"\nsearch = false\ndispute_url = "https://example.org/issues"\n'
    )
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    built = scorecards("build", str(project / "data"), "-o", str(project / "site"), cwd=elsewhere)
    assert built.returncode == 0, built.stderr
    assert title(project / "site").endswith("· Acme registry")
    assert not (project / "site" / "pagefind").exists()
    assert "https://example.org/issues" in (project / "site" / "servers" / "srv" / "index.html").read_text()
    flagged = scorecards("build", "data", "-o", "site", "--title", "From the flag", "--search", cwd=project)
    assert flagged.returncode == 0, flagged.stderr
    assert title(project / "site").endswith("· From the flag")
    assert (project / "site" / "pagefind").is_dir()


def test_strict_in_the_file_turns_warnings_into_exit_1(project: Path) -> None:
    (project / "data" / "servers" / "broken").mkdir()
    (project / "data" / "servers" / "broken" / "2026-01-01T00-00-00Z.score.json").write_text("{")
    (project / "scorecards.toml").write_text("strict = true\nsearch = false\n")
    assert scorecards("build", "data", "-o", "site", cwd=project).returncode == 1
    assert scorecards("build", "data", "-o", "site", "--no-strict", cwd=project).returncode == 0


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('colour = "red"\n', "scorecards.toml: colour: unknown key (known keys: title, base_url"),
        ("strict = 1\n", "scorecards.toml: strict: Input should be a valid boolean"),
        ('[cleo_grades]\na = "0.9"\n', "scorecards.toml: cleo_grades.a: Input should be a valid number"),
        ("[cleo_grades]\ne = 0.3\n", "scorecards.toml: cleo_grades.e: unknown key (known keys: a, b, c, d)"),
        ("title = \n", "scorecards.toml: not valid TOML"),
        ('titel = "x"\n', "scorecards.toml: titel: unknown key (did you mean title?)"),
        ('base-url = "/x/"\n', "scorecards.toml: base-url: unknown key (did you mean base_url?)"),
        ('dispute_ulr = "https://x.org"\n', "scorecards.toml: dispute_ulr: unknown key (did you mean dispute_url?)"),
        ("[cleo_grades]\nbb = 0.3\n", "scorecards.toml: cleo_grades.bb: unknown key (did you mean b?)"),
    ],
)
def test_a_bad_key_is_one_line_naming_it(project: Path, text: str, line: str) -> None:
    (project / "scorecards.toml").write_text(text)
    for command in (("build", "data", "-o", "site"), ("check", "data")):
        result = scorecards(*command, cwd=project)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and line in lines[0], lines
    assert not (project / "site").exists()


def test_every_setting_is_documented_and_a_flag() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    help_text = scorecards("build", "--help", cwd=ROOT).stdout
    for key in Settings.model_fields:
        assert f"`{key}`" in readme, key
        if key not in ("cleo_grades", "budgets"):  # tables: no flag
            assert f"--{key.replace('_', '-')}" in help_text, key


def test_version_is_the_packages(tmp_path: Path) -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = scorecards("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == f"scorecards {declared}"


NESTED = "x = " + "[" * 5000 + "]" * 5000 + "\n"


@pytest.mark.parametrize(
    ("text", "flags", "line"),
    [
        ('site_url = "javascript:alert(1)"\n', [],
         "site_url: 'javascript:alert(1)' is not an http(s) URL with a host (e.g. https://owner.github.io)"),
        ("", ["--site-url", "javascript:alert(1)//x"],
         "--site-url: 'javascript:alert(1)//x' is not an http(s) URL with a host (e.g. https://owner.github.io)"),
        ('base_url = "javascript://x/"\n', [],
         "base_url: 'javascript://x/' is not an http(s) URL with a host (e.g. https://owner.github.io)"),
        ('base_url = "//evil.example/"\n', [], "base_url: '//evil.example/' is neither a path (/<repo>/) nor an http(s) URL"),
        ("", ["--base-url", "/repo/\nDisallow: /"], "--base-url: a path cannot hold white space or control characters"),
        ('site_url = "https://example.org\\nSitemap: https://evil.example/x.xml"\n', [],
         "site_url: a URL cannot hold white space or control characters"),
        ('dispute_url = "mailto:owner@example.org"\n', [],
         "dispute_url: 'mailto:owner@example.org' is not an http(s) URL with a host (e.g. https://owner.github.io)"),
        ("[cleo_grades]\na = nan\n", [], "cleo_grades.a: Input should be a finite number"),
        ("[cleo_grades]\na = 2.0\n", [], "cleo_grades.a: Input should be less than or equal to 1"),
        ("[cleo_grades]\nb = -1.0\n", [], "cleo_grades.b: Input should be greater than or equal to 0"),
        ("[cleo_grades]\nd = 0.7\n", [],
         "cleo_grades: the grades must fall from a to d (a > b > c > d); got a = 0.9, b = 0.75, c = 0.6, d = 0.7"),
        ("cleo_grades = nan\n", [], "cleo_grades: Input should be a valid dictionary or instance of CleoGradeScale"),
        (NESTED, [], "not usable TOML: nested too deeply"),
    ],
    ids=["javascript-site", "javascript-flag", "javascript-base", "protocol-relative", "newline-flag", "newline-site",
         "mailto-dispute", "nan", "above-1", "below-0", "out-of-order", "nan-table", "nested"],
)
def test_a_bad_value_is_one_line_naming_it(project: Path, text: str, flags: list[str], line: str, capsys) -> None:
    """Through the real command, in this process: exit 2, one line naming the file or the flag, no site."""
    from builder.cli import main

    settings = project / "scorecards.toml"
    if text:
        settings.write_text(text)
    code = main(["build", str(project / "data"), "-o", str(project / "site"), *flags])
    err = capsys.readouterr().err
    assert (code, err) == (2, f"scorecards: {settings}: {line}\n" if text else f"scorecards: {line}\n")
    assert not (project / "site").exists()
