"""The web pages in Debian's headless chromium driven by Playwright (no downloaded browser:
never ``playwright install``), for screenshots of the pages: the demo's
(tcsim.nightshow), tests/tools/web_shots.py's and the browser tests' (docs/web.md)."""

import os
from typing import Any

CHROMIUM = os.environ.get("TDHOST_CHROMIUM", "/usr/bin/chromium")


def chromium_missing() -> str | None:
    """None when CHROMIUM can run, else the sentence saying why not."""
    if not os.access(CHROMIUM, os.X_OK):
        return ("no chromium at %s (Debian: apt-get install -y chromium; or set "
                "TDHOST_CHROMIUM)" % CHROMIUM)
    return None


def launch_chromium(pw: Any) -> Any:
    """A headless Chromium browser from Playwright ``pw`` using the system's chromium;
    ``--no-sandbox`` when running as root (containers, CI)."""
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
