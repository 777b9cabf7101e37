"""A repository `scorecards new` made installs from its requirements file before the package index has
this version: in a fresh virtual environment that sees only the package index (no pip configuration, no
find-links, nothing of this checkout), `pip install -r requirements.txt` installs the carried wheel and
its dependencies, and the installed `scorecards` builds the repository's data. A carried wheel with one
byte changed is refused before anything is installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REACH = ("PIP_CERT", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "HTTPS_PROXY", "https_proxy",
         "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy")
"""How this machine reaches the index (its certificate authorities and proxy), kept; not where packages come from."""


def _pip_config(work: Path) -> Path:
    """A pip configuration holding only how this machine reaches the index (its certificate authorities,
    where pip's own configuration names them): none of its find-links, extra indexes or constraints."""
    config = work / "pip.conf"
    cert = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.cert"], capture_output=True,
                          text=True, check=False).stdout.strip()
    config.write_text(f"[global]\ncert = {cert}\n" if cert else "", encoding="utf-8")
    return config


def _environment(work: Path) -> dict[str, str]:
    """Only the package index: no pip configuration of this machine (find-links, extra indexes, constraints),
    no checkout on the path."""
    return {**{key: os.environ[key] for key in REACH if key in os.environ},
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work / "home"),
            "PIP_CONFIG_FILE": str(_pip_config(work)), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip")),
            "LANG": "C.UTF-8"}


def _new(parent: Path, *args: str) -> Path:
    made = subprocess.run([sys.executable, "-m", "builder.cli", "new", "operator", *args], cwd=parent,
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    return parent / "operator"


def _venv(work: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True, capture_output=True)
    return work / "venv" / "bin"


def test_the_new_repository_installs_from_its_requirements_with_only_the_index(tmp_path: Path) -> None:
    repo = _new(tmp_path, "--demo")
    env = _environment(tmp_path)
    python = _venv(tmp_path)
    installed = subprocess.run([python / "pip", "install", "-r", "requirements.txt"], cwd=repo, env=env,
                               capture_output=True, text=True, check=False, timeout=900)
    if installed.returncode != 0 and any(reason in installed.stdout + installed.stderr for reason in (
            "Failed to establish a new connection", "Temporary failure in name resolution", "Network is unreachable")):
        pytest.skip("the package index cannot be reached from here")
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    assert "Successfully installed" in installed.stdout and "mcp-scorecard-site-" in installed.stdout
    # The installed command runs from the virtual environment and builds the repository's data.
    where = subprocess.run([python / "python", "-c", "import builder; print(builder.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(tmp_path / "venv")), where
    built = subprocess.run([python / "scorecards", "build", "data", "-o", str(tmp_path / "site")], cwd=repo,
                           env=env, capture_output=True, text=True, check=False, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "servers").is_dir()


def test_a_carried_wheel_that_is_not_the_pinned_bytes_is_refused(tmp_path: Path) -> None:
    repo = _new(tmp_path)
    wheel = next((repo / "vendor").glob("*.whl"))
    data = bytearray(wheel.read_bytes())
    data[len(data) // 2] ^= 0x01
    wheel.write_bytes(bytes(data))
    python = _venv(tmp_path)
    refused = subprocess.run([python / "pip", "install", "--no-deps", "-r", "requirements.txt"], cwd=repo,
                             env=_environment(tmp_path), capture_output=True, text=True, check=False, timeout=300)
    assert refused.returncode != 0
    assert "THESE PACKAGES DO NOT MATCH THE HASHES" in refused.stderr, refused.stderr
    listed = subprocess.run([python / "pip", "list", "--format=freeze"], env=_environment(tmp_path),
                            capture_output=True, text=True, check=True).stdout
    assert "mcp-scorecard-site" not in listed
