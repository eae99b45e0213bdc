"""pytest set-up shared by every test directory.

firmware/ goes at the END of sys.path, not the front (pyproject's
``pythonpath``): it holds CircuitPython's ``code.py`` and ``boot.py``, and
``code`` would otherwise shadow the standard library module pdb imports.
"""

import os
import sys

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)

import pytest  # noqa: E402

import crashpoints  # noqa: E402 -- tests/tools
import leaguecheck  # noqa: E402 -- tests/tools

# The live host keeps its league in memory between writes (tdhost.league.cache) and loads it
# from the league file's checkpoints (tdhost.league.checkpoint); in the tests each of those is
# compared with a full replay of the log (a mismatch is an error), and a checkpoint is taken
# every 5 events instead of 500, so that the tests' short nights load from them too.
leaguecheck.install()
# Every SQLite connection counts its writes, for the crash tests (a hook kills there).
crashpoints.install()


@pytest.fixture
def unchecked_league():
    """No comparison with a full replay in this test (it writes a long log on purpose)."""
    leaguecheck.ON[0] = False
    yield
    leaguecheck.ON[0] = True

# Tests that need Debian's mosquitto, chromium or postgresql skip without them on a developer's
# machine; .ci/run installs them and sets TC_REQUIRE_SYSTEM=1, and then such a skip is a failure.
SYSTEM_PACKAGES = ("mosquitto", "chromium", "postgresql")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or os.environ.get("TC_REQUIRE_SYSTEM") != "1":
        return
    reason = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr)
    if any(p in reason.lower() for p in SYSTEM_PACKAGES):
        report.outcome = "failed"
        report.longrepr = "TC_REQUIRE_SYSTEM=1 but skipped: " + reason


def pytest_collection_modifyitems(session, config, items):
    """The files with a long simulated session (marked ``slow``) first: `make test-py` hands
    whole files to its workers in this order, so the longest start at once instead of
    leaving one worker busy at the end while the others wait."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: each file's order kept
