"""Headless Chromium for the web tests (Debian's /usr/bin/chromium driven by Playwright's
sync API; no browser download) and helpers to serve a Live and wait on pages.

    from browser import served, open_page, wait_text      # tests/web is on sys.path

    def test_something(browser):                          # fixture from tests/web/conftest.py
        with served(live) as web:                         # live: the Live contract
            page = open_page(browser, web.url + "/")
            wait_text(page, "#blinds", "150 / 300")

Without chromium the ``browser`` fixture skips with the reason (CI installs it:
``apt-get install -y chromium``).  Waits are bounded (WAIT_MS) and return as soon as the
page shows the text; nothing here measures time.
"""

import contextlib
import re

from tdhost.web.chromium import chromium_missing, launch_chromium
from tdhost.web.server import run_in_thread

TOKEN = "test-td-token-0123"
# the most any wait here lasts (a bound, not an expectation; a load average about 10 on 2
# cores is seen beside the 300-table drill); a wait ends as soon as the page shows what it
# waits for.  (Stop 30 raised it from 5 s for a leaderboard that never came: a snapshot
# that came before leaderboard.js ran, fixed with TC.snapshot since.)
WAIT_MS = 10000


@contextlib.contextmanager
def chromium():
    """A headless Chromium browser for the block; raises RuntimeError without chromium."""
    why = chromium_missing()
    if why:
        raise RuntimeError(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch_chromium(pw)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def served(live, token=TOKEN, lock=None, listen="127.0.0.1"):
    """``live`` served on *listen* (0.0.0.0: phones could reach it, so the QR code shows)
    at a free port for the block: yields the Handle (``url``, ``console_url``, ``lock``)."""
    web = run_in_thread(live, listen, 0, token, lock)
    try:
        yield web
    finally:
        web.stop()


def open_page(browser, url, width=1280, height=720):
    """A new page (own cookies) at ``url`` with a width x height viewport (CSS px)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.js_errors = errors  # see js_errors()
    page.goto(url)
    return page


def js_errors(page):
    """The uncaught JavaScript errors of a page opened by open_page, so far."""
    return list(page.js_errors)


def open_console(browser, web, width=1440, height=900):
    """The TD console, signed in with the token link; waits for the first snapshot."""
    page = open_page(browser, web.console_url, width, height)
    wait_text(page, "#conn", "live")
    return page


def wait_text(page, selector, text, timeout_ms=WAIT_MS):
    """Waits until the element's text contains ``text`` (a str, or a compiled regex to
    search); AssertionError with what the page showed instead."""
    pattern = text if isinstance(text, re.Pattern) else re.compile(re.escape(text))
    try:
        page.wait_for_function(
            "([sel, src, flags]) => { const e = document.querySelector(sel);"
            " return !!e && new RegExp(src, flags).test(e.textContent); }",
            arg=[selector, pattern.pattern, "i" if pattern.flags & re.IGNORECASE else ""],
            timeout=timeout_ms)
    except Exception as err:
        shown = page.evaluate("(s) => { const e = document.querySelector(s);"
                              " return e ? e.textContent : null; }", selector)
        raise AssertionError("%s never showed %r (shows %r): %s" % (
            selector, text if isinstance(text, str) else pattern.pattern, shown,
            str(err).splitlines()[0]))


def wait_visible(page, selector, visible=True, timeout_ms=WAIT_MS):
    """Waits until the element is shown (or hidden when ``visible`` is False)."""
    page.wait_for_selector(selector, state="visible" if visible else "hidden",
                           timeout=timeout_ms)


def text(page, selector):
    """The element's text now (stripped)."""
    return page.inner_text(selector).strip()
