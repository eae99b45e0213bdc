"""The screen's building blocks: a label that fits its box (Slot), the clock's
digits (ClockSlot), the menu's rows (MenuRows), and the colours.

How a text is fitted (scale, wrap, cut at whole items): docs/box.md, "The screen".
"""

import displayio
import terminalio
from adafruit_display_text.label import Label

try:
    import vectorio
except ImportError:  # a port without vectorio: no bars, the labels still work
    vectorio = None

CW = 6  # terminalio.FONT cell width
CH = 12  # and height
INK = 8  # a digit's height in that cell (rows 2..9): what a reader sees

BLACK = 0x000000
WHITE = 0xFFFFFF
LIGHT = 0xD0D0D0
GREY = 0xA0A0A0
DIM = 0x3C3C3C
YELLOW = 0xFFE040
ORANGE = 0xFF9900
CYAN = 0x40D8FF
GREEN = 0x70FF70
AMBER = 0xFFB020
RED = 0xD00000
MAGENTA = 0xFF70FF
VERMILLION = 0xF07028
BAR = 0x70C8FF

LEFT = 0
RIGHT = 1
CENTRE = 2


def _fit(text, w, h, top, items=False):
    """(scale, text) for *text* in a box *w* x *h* px at scale <= *top*:
    the largest scale at which it fits, wrapped onto lines if the box is
    tall enough; cut at scale 1 when nothing fits (*items*: the text is a
    list joined by two spaces: as many whole items as fit, then "+N")."""
    n = len(text)
    s = top
    while s >= 1:
        cap = w // (CW * s)
        if n <= cap:
            return s, text
        rows = h // (CH * s)
        if rows > 1 and cap > 0:
            wrapped = _wrap(text, cap, rows)
            if wrapped is not None:
                return s, wrapped
        s -= 1
    cap = w // CW
    if items:
        return 1, _items(text, cap)
    return 1, text[:cap - 2] + ".." if cap > 2 else text[:cap]


def _items(text, cap):
    """The first items of *text* (joined by two spaces) that fit *cap*
    characters with " +N" (N: the items left out) after them."""
    parts = text.split("  ")
    out = ""
    for k in range(len(parts)):
        more = " +%d" % (len(parts) - k - 1) if k < len(parts) - 1 else ""
        line = out + ("  " if out else "") + parts[k]
        if len(line) + len(more) > cap:
            return (out + " +%d" % (len(parts) - k)) if out else text[:cap]
        out = line
    return out


def _wrap(text, cap, rows):
    """*text* broken at spaces into at most *rows* lines of *cap* chars,
    or None."""
    lines = []
    line = ""
    for word in text.split(" "):
        if not word:
            continue
        if len(word) > cap:
            return None
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= cap:
            line = line + " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if len(lines) > rows:
        return None
    return "\n".join(lines)


class Slot:
    """One label in a box of *w* x *h* px at (*x*, *y*), at most scale *top*.

    ``show(text, colour, background, w)`` changes the label only where
    something differs.  A right-aligned slot keeps its right edge when its
    width changes (rows shared by two slots, ``share``).
    """

    def __init__(self, group, x, y, w, h, top, colour, align=LEFT, background=None, pad=0):
        if pad:  # a tag (text on a colour): the colour reaches pad px past the text
            x += pad * top
            w -= 2 * pad * top
        self.x = x
        self.y = y
        self.w = w
        self.x2 = x + w
        self.h = h
        self.h0 = h  # the box's own height (a slot may borrow the row below: _want)
        self.top = top
        self.align = align
        self.text = ""
        self.colour = colour
        self.background = background
        self.scale = top
        self.top_align = False  # True: text at the top of the box, not centred
        self.items = False  # True: cut a list at whole items ("+N"), not ".."
        # what update() wants shown (set, then shown, on every update)
        self.want = ""
        self.want_c = colour
        self.want_b = None
        self.want_w = 0
        anchor = (0.0, 0.0)
        if align == RIGHT:
            anchor = (1.0, 0.0)
        elif align == CENTRE:
            anchor = (0.5, 0.0)
        self.label = Label(terminalio.FONT, text="", color=colour, scale=top,
                           background_color=background, line_spacing=1.0,
                           padding_left=pad, padding_right=pad,
                           anchor_point=anchor, anchored_position=(x, y))
        group.append(self.label)

    def _place(self, shown):
        """Anchor the label in its box, centred vertically."""
        lines = 1
        for c in shown:
            if c == "\n":
                lines += 1
        dy = 0 if self.top_align else (self.h - lines * CH * self.scale) // 2
        if dy < 0:
            dy = 0
        if self.align == RIGHT:
            x = self.x + self.w
        elif self.align == CENTRE:
            x = self.x + self.w // 2
        else:
            x = self.x
        self.label.anchored_position = (x, self.y + dy)

    def show(self, text, colour=None, background=None, w=0):
        """1 if the label changed, else 0 (and nothing is allocated).
        *w*: a new box width (0: keep it)."""
        changed = 0
        if colour is not None and colour != self.colour:
            self.colour = colour
            self.label.color = colour
            changed = 1
        if background != self.background:
            self.background = background
            self.label.background_color = background
            changed = 1
        if text != self.text and self.text is not None and (not w or w == self.w) \
                and len(text) == len(self.text) \
                and " " not in text and "\n" not in text and self.label.text == self.text:
            # the same width, one word shown whole (the clock's next second): the
            # same scale and place, so only the text changes (issue #20: fitting
            # and placing it again allocated 64 B a second)
            self.text = text
            self.label.text = text
            return 1
        if text != self.text and self.text is not None and (not w or w == self.w) \
                and self.align == LEFT and self.scale == self.top \
                and len(text) * CW * self.top <= self.w and "\n" not in text \
                and self.label.text == self.text:
            # one line at the largest scale, left-aligned, and it still fits
            # (a called clock's next second, "CLOCK 9"): _fit would give the
            # same scale and _place the same place (issue #20: their tuples
            # took 64 B a second)
            self.text = text
            self.label.text = text
            return 1
        if text != self.text or (w and w != self.w):
            if w and w != self.w:
                self.w = w
                if self.align == RIGHT:
                    self.x = self.x2 - w
            self.text = text
            s, shown = _fit(text, self.w, self.h, self.top, self.items)
            if s != self.scale:
                self.scale = s
                self.label.scale = s
            self.label.text = shown
            self._place(shown)
            changed = 1
        return changed

    def move(self, y):
        """Put the box at *y* (the menu's counter follows the highlight)."""
        if y != self.y:
            self.y = y
            self._place(self.label.text)

    def natural(self, text):
        """The width of *text* at the slot's largest scale."""
        return len(text) * CW * self.top


# The clock's texts, picked, never built, for a new second (issue #20: building
# "12:05" with its format tuple allocated 96 B every second shown).  Lists, not
# tuples: a list of literals holds interned strings (qstrs), where a literal
# tuple in a .mpy is loaded as string objects: 1.8 KB for the pair against
# 8.9 KB (64-bit unix port).  0 B a second.
SECONDS = [
    "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13",
    "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27",
    "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41",
    "42", "43", "44", "45", "46", "47", "48", "49", "50", "51", "52", "53", "54", "55",
    "56", "57", "58", "59",
]
MINUTES = [  # the minutes with their colon; an hour or more is formatted (ClockSlot)
    "0:", "1:", "2:", "3:", "4:", "5:", "6:", "7:", "8:", "9:", "10:", "11:", "12:", "13:",
    "14:", "15:", "16:", "17:", "18:", "19:", "20:", "21:", "22:", "23:", "24:", "25:",
    "26:", "27:", "28:", "29:", "30:", "31:", "32:", "33:", "34:", "35:", "36:", "37:",
    "38:", "39:", "40:", "41:", "42:", "43:", "44:", "45:", "46:", "47:", "48:", "49:",
    "50:", "51:", "52:", "53:", "54:", "55:", "56:", "57:", "58:", "59:",
]


class ClockSlot:
    """The clock's digits (field ``time``: seconds left, an int) as two
    labels side by side: the minutes with their colon ("12:") and the
    seconds ("05"), each picked from SECONDS / MINUTES, so a new second
    sets one label's text to a string that already exists and allocates
    nothing.  Placed where one label showing "12:05" would put its glyphs
    (the font is monospaced): the same pixels.  From an hour up the
    minutes label is formatted ("1:02:"), once a minute.

    ``label`` is the minutes' label and ``tail`` the seconds' (a Slot each,
    for the bench and the tests); ``text`` is what the two show together.
    """

    def __init__(self, group, x, y, w, h, top, colour, align=LEFT):
        self.head = Slot(group, x, y, w, h, top, colour)
        self.tail = Slot(group, x, y, w, h, top, colour)
        self.label = self.head.label
        self.x = x
        self.y = y
        self.w = w
        self.h = self.h0 = h
        self.top = top
        self.align = align
        self.scale = top
        self.colour = colour
        self.background = None
        self.items = False
        self.minutes = -1  # the minutes shown (-1: none yet)
        self.n = 0  # characters shown
        self.want = 0
        self.want_c = colour
        self.want_b = None
        self.want_w = 0

    @property
    def text(self):
        """"12:05": what the two labels show (for the tests; allocates)."""
        return self.head.text + self.tail.text

    @text.setter
    def text(self, value):  # Screen._want's "fit it again": the next show places
        self.n = 0
        self.minutes = -1

    def natural(self, text):
        return len(text) * CW * self.top

    def show(self, seconds, colour=None, background=None, w=0):
        """Show *seconds* (left, an int); the number of labels changed."""
        s = seconds if seconds > 0 else 0
        m = s // 60  # not divmod: its tuple is 32 B every second (issue #20)
        s -= 60 * m
        changed = 0
        if colour is not None and colour != self.colour:
            self.colour = colour
            self.head.label.color = colour
            self.tail.label.color = colour
            changed = 2
        if m != self.minutes:
            self.minutes = m
            head = MINUTES[m] if m < 60 else "%d:%02d:" % (m // 60, m % 60)
            if head != self.head.text:
                self.head.text = head
                self.head.label.text = head
                changed += 1
            if len(head) + 2 != self.n:
                self.n = len(head) + 2
                self._place()
        tail = SECONDS[s]
        if tail is not self.tail.text:
            self.tail.text = tail
            self.tail.label.text = tail
            changed += 1
        return 2 if changed > 2 else changed

    def _place(self):
        """The largest scale at which the text fits (as _fit), centred
        vertically; the seconds right after the minutes."""
        sc = self.top
        while sc > 1 and self.n * CW * sc > self.w:
            sc -= 1
        self.scale = sc
        self.head.scale = self.tail.scale = sc
        self.head.label.scale = sc
        self.tail.label.scale = sc
        dy = (self.h - CH * sc) // 2
        if dy < 0:
            dy = 0
        x = self.x
        if self.align == CENTRE:
            x = self.x + self.w // 2 - self.n * CW * sc // 2
        y = self.y + dy
        self.head.label.anchored_position = (x, y)
        self.tail.label.anchored_position = (x + (self.n - 2) * CW * sc, y)

def share(left, right, total, gap):
    """Split a row of *total* px between two slots by what they show now:
    one alone gets it all; both get their full size when that fits; else
    the shorter keeps its full size if it needs at most half, and the other
    makes do with the rest (it shrinks to fit)."""
    lt = left.want
    rt = right.want
    if not rt:
        left.want_w = total
        right.want_w = 0
    elif not lt:
        left.want_w = 0
        right.want_w = total
    else:
        nl = left.natural(lt)
        nr = right.natural(rt)
        half = (total - gap) // 2
        if nl + nr + gap <= total or nr <= half:
            left.want_w = total - nr - gap
        elif nl <= half:
            left.want_w = nl
        else:
            left.want_w = half
        right.want_w = total - gap - left.want_w


def menu_top(top, n, i, rows):
    """The first option shown of *n* with option *i* highlighted, *rows*
    lines, *top* shown before: the list scrolls only as far as it must."""
    if n <= rows:
        return 0
    if i < top:
        top = i
    elif i >= top + rows:
        top = i - rows + 1
    if top > n - rows:
        top = n - rows
    return top


class MenuRows:
    """The options, *rows* lines; the highlighted one on a bar, with its
    number ("3/7") at the bar's right end when the list scrolls."""

    def __init__(self, group, x, y, w, rows, scale):
        self.rows = rows
        self.top_i = 0
        self.y = y
        self.line_h = CH * scale
        self.hi = -1
        self.ci = -1
        self.cn = -1
        self.bar = None
        if vectorio is not None:
            pal = displayio.Palette(1)
            pal[0] = BAR
            self.bar = vectorio.Rectangle(pixel_shader=pal, width=w, height=self.line_h,
                                          x=x, y=y)
            self.bar.hidden = True
            group.append(self.bar)
        cs = scale - 1 if scale > 1 else 1
        count_w = 6 * CW * cs
        pad = scale * CW // 2
        self.lines = []
        for r in range(rows):
            self.lines.append(Slot(group, x + pad, y + r * self.line_h,
                                    w - count_w - 2 * pad, self.line_h, scale, WHITE))
        self.count = Slot(group, x + w - count_w - pad, y, count_w, self.line_h, cs, BLACK,
                           RIGHT)

    def update(self, options, i):
        """Show *options* with option *i* highlighted; labels changed."""
        n = len(options)
        rows = self.rows
        top = menu_top(self.top_i, n, i, rows)
        self.top_i = top
        hi = i - top if 0 <= i < n else -1
        changed = 0
        for r in range(rows):
            k = top + r
            text = options[k] if k < n else ""
            changed += self.lines[r].show(text, BLACK if r == hi else WHITE)
        if hi != self.hi:
            self.hi = hi
            if self.bar is not None:
                if hi < 0:
                    self.bar.hidden = True
                else:
                    self.bar.y = self.y + hi * self.line_h
                    self.bar.hidden = False
            if hi >= 0:
                self.count.move(self.y + hi * self.line_h)
        if n <= rows or hi < 0:
            i = -1
            n = -1
        if i != self.ci or n != self.cn:  # formatted only when it changes
            self.ci = i
            self.cn = n
            changed += self.count.show("%d/%d" % (i + 1, n) if n > 0 else "")
        return changed


def scale_for(avail, chars, cap):
    """The largest scale <= *cap* at which *chars* characters fit *avail* px."""
    s = avail // (CW * chars)
    if s > cap:
        s = cap
    return s if s > 1 else 1
