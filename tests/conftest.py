from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fork_guard

# Before anything imports the builder: fork hooks run in the reverse of the order they were
# registered, so the count is taken after the builder's own hooks (builder.tdqs.bulk ends its
# background thread in one) have run, as the fork itself sees the process.
fork_guard.install()

import pytest  # noqa: E402
from shared_sites import build_scorecards_site  # noqa: E402


@pytest.fixture(autouse=True)
def forks_only_where_safe() -> Iterator[None]:
    """Fails a test during which (its fixtures' setup included) this process forked while a thread
    was alive that the test process did not start with (tests/fork_guard.py)."""
    yield
    if found := fork_guard.taken():
        pytest.fail(f"{len(found)} unsafe fork(s):\n" + "\n".join(found), pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """An unsafe fork after the last test's check (a fixture's teardown) fails the run too."""
    if found := fork_guard.taken():
        print(f"\n{len(found)} unsafe fork(s) after the last test:\n" + "\n".join(found), file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def scorecards_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/ built once under /scorecards/ (with search) for the modules that only read it:
    test_browser.py and test_crawl.py."""
    return build_scorecards_site(tmp_path_factory.mktemp("scorecards") / "site")
