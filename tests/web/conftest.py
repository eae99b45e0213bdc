"""Fixtures of the web tests: ``browser`` (headless Debian chromium, one per module; skipped
with the reason when chromium is missing)."""

import pytest
from browser import chromium

from tdhost.web.chromium import chromium_missing


@pytest.fixture(scope="module")
def browser():
    why = chromium_missing()
    if why:
        pytest.skip(why)
    with chromium() as b:
        yield b
