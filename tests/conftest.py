from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest
from shared_sites import build_scorecards_site


@pytest.fixture(scope="session")
def scorecards_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/ built once under /scorecards/ (with search) for the modules that only read it:
    test_browser.py and test_crawl.py."""
    return build_scorecards_site(tmp_path_factory.mktemp("scorecards") / "site")
