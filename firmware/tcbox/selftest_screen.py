"""The self-test's screen (tcbox/selftest.py): a test pattern and its lines.

A white frame on the outermost pixels and eight colour bars show a display
that is cut, shifted or has its colours swapped; below them the board and
its versions, the step's question in large letters with a smaller hint, and
the last results (OK green, FAIL red, skip grey).  Laid out from the width
and height like tcbox/screen.py, with terminalio.FONT only.
"""

import displayio
import terminalio
from adafruit_display_text.label import Label

try:
    import vectorio
except ImportError:  # no bars without vectorio; the labels still work
    vectorio = None

CW = 6  # terminalio.FONT cell
CH = 12

WHITE = 0xFFFFFF
GREY = 0xA0A0A0
YELLOW = 0xFFE040
AMBER = 0xFFB020
GREEN = 0x70FF70
RED = 0xFF5050
BARS = (0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000)
COLOUR = {"pass": GREEN, "fail": RED, "skip": GREY}
WORD = {"pass": "OK  ", "fail": "FAIL", "skip": "skip"}


def _rect(group, x, y, w, h, colour):
    if vectorio is None:
        return
    pal = displayio.Palette(1)
    pal[0] = colour
    group.append(vectorio.Rectangle(pixel_shader=pal, width=w, height=h, x=x, y=y))


class SelfTestScreen:
    """The self-test's layout on *display* (*width* x *height* px)."""

    def __init__(self, display, width, height):
        self.display = display
        self.width = width
        s = 1 if height < 200 else 2  # the text scale (the prompt's is one more)
        self.s = s
        root = displayio.Group()
        for x, y, w, h in ((0, 0, width, 1), (0, height - 1, width, 1), (0, 0, 1, height),
                           (width - 1, 0, 1, height)):
            _rect(root, x, y, w, h, WHITE)
        bw = (width - 4) // len(BARS)
        bh = 6 * s
        for i in range(len(BARS)):
            _rect(root, 2 + i * bw, 2, bw, bh, BARS[i])
        y = 2 + bh + 2
        self.title = self._label(root, y, s, YELLOW)
        y += CH * s
        self.info = [self._label(root, y, s, WHITE), self._label(root, y + CH * s, s, WHITE)]
        y += 2 * CH * s + 2
        self.prompt = self._label(root, y, s + 1, WHITE)
        y += CH * (s + 1)
        self.hint = self._label(root, y, s, AMBER)
        y += CH * s + 2
        self.rows = []
        while y + CH * s <= height - 2:
            self.rows.append(self._label(root, y, s, GREY))
            y += CH * s
        self.lines = []  # (result, text) of every result so far
        display.root_group = root
        self.root = root

    def _label(self, group, y, scale, colour):
        lb = Label(terminalio.FONT, text="", color=colour, scale=scale,
                   anchor_point=(0, 0), anchored_position=(4, y))
        group.append(lb)
        return lb

    def _fit(self, text, scale):
        cap = (self.width - 8) // (CW * scale)
        return text if len(text) <= cap else text[:cap - 2] + ".."

    def heading(self, title, lines):
        """The board's name and its versions (two lines)."""
        self.title.text = self._fit(title, self.s)
        for i in range(len(self.info)):
            self.info[i].text = self._fit(lines[i] if i < len(lines) else "", self.s)

    def ask(self, prompt, hint="", colour=WHITE):
        """The step's question in large letters, a hint below it."""
        self.prompt.color = colour
        self.prompt.text = self._fit(prompt, self.s + 1)
        self.hint.text = self._fit(hint, self.s)

    def add(self, result, text):
        """One more result line; the newest at the bottom."""
        self.lines.append((result, text))
        self._rows()

    def failures_first(self):
        """The summary: the failed steps at the top, then the others in order."""
        self.lines = ([t for t in self.lines if t[0] == "fail"]
                      + [t for t in self.lines if t[0] != "fail"])
        self._rows(top=True)

    def _rows(self, top=False):
        shown = self.lines[:len(self.rows)] if top else self.lines[-len(self.rows):]
        if not self.rows:
            return
        for i in range(len(self.rows)):
            lb = self.rows[i]
            if i < len(shown):
                r, t = shown[i]
                lb.color = COLOUR.get(r, GREY)
                lb.text = self._fit(WORD.get(r, r) + " " + t, self.s)
            else:
                lb.text = ""

    def refresh(self):
        """Show the screen now (before a step that blocks: the Wi-Fi scan)."""
        if not getattr(self.display, "auto_refresh", True):
            return
        try:
            self.display.refresh()
        except Exception:  # noqa: BLE001 -- a display that cannot refresh now: later
            pass
