"""The box's display: the view's text fields laid out for the screen's size.

Runs on CircuitPython (displayio) and on a PC under Blinka displayio (the
simulator, host_tools/tcsim).  Only displayio, terminalio, vectorio and
adafruit_display_text are used; every label is terminalio.FONT (a 6x12
pixel cell) at an integer ``scale``.

``Screen(display, width, height)`` builds the layout once; ``update(fields)``
(fields from tcbox/view.py) changes only the labels whose text or colour
changed and returns how many it changed: an idle second changes the time
label and nothing else, and an unchanged screen allocates nothing.

Each label sits in a box (x, y, w, h) with a largest scale; a longer text
is drawn at the largest scale at which it fits the box, wrapped onto more
lines when the box is tall enough, and cut (ending "..") only when it does
not fit even at scale 1; a list (the posts, the colour-up per seat) is cut
at whole items instead, ending "+N" (N items not shown).  Scales and
positions come from the width and height, so other sizes work too (320x240,
320x170, 800x480 were checked).

Large screens (height >= 200; the table build's 480x320): one page.
``u`` = the text scale (2 on 480x320), ``T`` = the clock's (6)::

    +--------------------------------------------------+
    | 12:34                               100/200      |  time (T)   blinds (up to T)
    | Level 3            Ante 25        Next 150/300   |  (u)
    |--------------------------------------------------|
    | [BREAK]             47 left  avg 3,063  Wi-Fi    |  banner tag; info
    | Hand 12  BTN 4  SB 1  BB 2  Deal 4               |  (u)
    | Seat 3 to act: call 50, min raise 100            |  (u)
    | Pot 150  preflop                                 |  pot, or who won (u)
    | SB 1: 25  BB 2: 50                   Away: 6     |  posts, or between hands the
    |--------------------------------------------------|  colour-up per seat; away (u)
    |#Call 50#####################################1/7#|  menu: 3 lines (more on taller
    |  Raise 100                                       |  screens), the highlight on a
    |  All-in 3,000                                    |  bar, scrolled to stay visible
    | Seat 3 raises to 100                             |  status (u)
    +--------------------------------------------------+

Small screens (height < 200; the compact box's 240x135) have two pages.
The clock page shows between hands::

    +------------------------+
    | 12:34        Level 3   |  time (4)   level (2)
    |                Ante 25 |             ante, next (1)
    |           Next 150/300 |
    | 100/200       [PAUSED] |  blinds (3)   banner tag (2, or 1 wrapped)
    |#New hand###########1/2#|  menu: the highlighted option only (2)
    | Clock running          |  status (1; two lines for a long sentence)
    | Won: seat 4 575        |  colour-up per seat, else who won, else info (1)
    +------------------------+

The hand page while a hand runs (``fields["pot"]`` starts with "Pot", or
``fields["in_hand"]`` when the caller sets it)::

    +------------------------+
    | 12:34          100/200 |  time, blinds (3)
    | Hand 12 BTN 4 SB 1 ... |  hand (1)
    | Seat 3 to act: call 50 |  action (2, or 1, on two lines if need be)
    | Pot 150  preflop       |  pot (1; two lines for a long side-pot list,
    | SB 1: 25  BB 2: 50 A 6 |  then no posts), banner if any, else posts (1);
                                "Away: 6" at the right end of that row
    |#Raise 100##########2/7#|  menu (2)
    | Seat 3 raises to 100   |  status (1)
    +------------------------+

A called shot clock takes the blinds' place while it runs, at their size
("CLOCK 25"; in its warning white on red, flashing at 1 Hz to red on black
with ``fields["shot_kind"] == "flash"``): it is what the table must see
then.  A pending instruction from the host takes the blinds' place too
(black on yellow, wrapped onto up to three lines) until the dealer confirms
it; the shot clock comes first, the instruction then moves to the info row
(large screens).  Rows shared by two fields (blinds and banner, banner and
info, posts and away) give each the width it needs while the other is
empty.

The setup screen (``fields["in_hand"]`` set) uses the hand rows for its
lines: table, seats and profile; board; link; firmware.

Colours (on black): time white (orange while paused, cyan on a break),
blinds yellow, pot green, shot clock amber, instruction black on yellow,
away seats vermillion, colour-up per seat magenta, menu highlight black on
light blue, banner tags black on orange (PAUSED), cyan (BREAK) or magenta
(colour-up); the status line is grey for what happened, amber for the
menu's own prompt (``fields["status_kind"] == "note"``) and white on red
for a refusal (``"error"``): the caller sets ``status_kind``.
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
BETWEEN = "Between hands"  # tcbox/view.py's action line between hands

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


class _Slot:
    """One label in a box of *w* x *h* px at (*x*, *y*), at most scale *top*.

    ``show(text, colour, background, w)`` changes the label only where
    something differs.  A right-aligned slot keeps its right edge when its
    width changes (rows shared by two slots, ``_share``).
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
MINUTES = [  # the minutes with their colon; an hour or more is formatted (_Clock)
    "0:", "1:", "2:", "3:", "4:", "5:", "6:", "7:", "8:", "9:", "10:", "11:", "12:", "13:",
    "14:", "15:", "16:", "17:", "18:", "19:", "20:", "21:", "22:", "23:", "24:", "25:",
    "26:", "27:", "28:", "29:", "30:", "31:", "32:", "33:", "34:", "35:", "36:", "37:",
    "38:", "39:", "40:", "41:", "42:", "43:", "44:", "45:", "46:", "47:", "48:", "49:",
    "50:", "51:", "52:", "53:", "54:", "55:", "56:", "57:", "58:", "59:",
]


class _Clock:
    """The clock's digits (field ``time``: seconds left, an int) as two
    labels side by side: the minutes with their colon ("12:") and the
    seconds ("05"), each picked from SECONDS / MINUTES, so a new second
    sets one label's text to a string that already exists and allocates
    nothing.  Placed where one label showing "12:05" would put its glyphs
    (the font is monospaced): the same pixels.  From an hour up the
    minutes label is formatted ("1:02:"), once a minute.

    ``label`` is the minutes' label and ``tail`` the seconds' (a _Slot each,
    for the bench and the tests); ``text`` is what the two show together.
    """

    def __init__(self, group, x, y, w, h, top, colour, align=LEFT):
        self.head = _Slot(group, x, y, w, h, top, colour)
        self.tail = _Slot(group, x, y, w, h, top, colour)
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

def _share(left, right, total, gap):
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


class _Menu:
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
            self.lines.append(_Slot(group, x + pad, y + r * self.line_h,
                                    w - count_w - 2 * pad, self.line_h, scale, WHITE))
        self.count = _Slot(group, x + w - count_w - pad, y, count_w, self.line_h, cs, BLACK,
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


def _scale_for(avail, chars, cap):
    """The largest scale <= *cap* at which *chars* characters fit *avail* px."""
    s = avail // (CW * chars)
    if s > cap:
        s = cap
    return s if s > 1 else 1


def _shot_kind(f):
    kind = f.get("shot_kind")
    if not kind:
        kind = "warning" if (f.get("shot") or "").endswith("!") else "running"
    return kind


def _shot_colour(f):
    """A called clock's colour: amber while it runs; in its warning the
    digits invert, black on white (``_shot_bg``), and blink to white on
    black at 1 Hz: seen without colour (red-weak eyes too)."""
    kind = _shot_kind(f)
    if kind == "warning":
        return BLACK
    if kind == "flash":  # the warning's dark half second
        return WHITE
    return AMBER


def _shot_bg(f):
    return WHITE if _shot_kind(f) == "warning" else None


def _tag(text):
    """The background of a banner: orange PAUSED, cyan BREAK, else magenta."""
    if text == "PAUSED":
        return ORANGE
    if text == "BREAK":
        return CYAN
    return MAGENTA


class Screen:
    """The display's layout; ``update(fields)`` shows a view.fields() dict.

    :param display: a displayio display (board.DISPLAY, a BusDisplay...),
        or None to build the groups only (``root``).
    :param width: its width in pixels.
    :param height: its height in pixels.
    """

    def __init__(self, display, width, height):
        self.width = width
        self.height = height
        self.root = displayio.Group()
        self.pages = []  # (group, [(slot, field)], menu, [(left, right, width, gap)])
        self.page = -1
        self.compact = height < 200
        if self.compact:
            self._compact(width, height)
        else:
            self._large(width, height)
        self._players(width, height)
        if display is not None:
            display.root_group = self.root

    # -- layouts ---------------------------------------------------------
    def _page(self):
        g = displayio.Group()
        g.hidden = True
        self.root.append(g)
        return g

    def _rule(self, g, x, y, w):
        if vectorio is not None:
            pal = displayio.Palette(1)
            pal[0] = DIM
            g.append(vectorio.Rectangle(pixel_shader=pal, width=w, height=1, x=x, y=y))

    def _large(self, W, H):
        m = W // 80  # margin: 6 px on 480
        u = min(W // 240, H // 160)
        if u < 1:
            u = 1
        line = CH * u
        # rows: time T; level, alert, hand, action, pot, posts, 3 menu, status
        # (u); four gaps of at least 2 px, two of them with a rule
        fixed = line * 10 + 8
        T = _scale_for(W * 2 // 5, 5, (H - fixed) // CH)
        rows = 3 + (H - fixed - T * CH) // line // 2  # tall screens: more options
        if rows > 6:
            rows = 6
        gap = 2 + (H - fixed - T * CH - (rows - 3) * line) // 4
        g = self._page()
        sl = []  # type: list  # (slot or clock, field)
        pairs = []
        y = 0
        tw = 5 * CW * T + m
        sl.append((_Clock(g, m, y, tw, T * CH, T, WHITE), "time"))
        sl.append((_Slot(g, m + tw + m, y, W - tw - 3 * m, T * CH, T, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y += T * CH + gap
        third = (W - 2 * m) // 3
        sl.append((_Slot(g, m, y, third, line, u, LIGHT), "level"))
        sl.append((_Slot(g, m + third, y, third, line, u, LIGHT, CENTRE), "ante"))
        sl.append((_Slot(g, m + 2 * third, y, W - 2 * m - 2 * third, line, u, GREY, RIGHT),
                   "next"))
        y += line + gap // 2
        self._rule(g, 0, y, W)
        y += gap - gap // 2
        half = (W - 2 * m) // 2
        left = _Slot(g, m, y, half, line, u, BLACK, pad=1)
        right = _Slot(g, m + half, y, W - 2 * m - half, line, u, GREY, RIGHT)
        sl.append((left, "banner"))
        sl.append((right, "info"))
        pairs.append((left, right, W - 2 * m, 2 * CW * u))
        y += line
        for k, c in (("hand", LIGHT), ("action", WHITE), ("pot", GREEN)):
            slot = _Slot(g, m, y, W - 2 * m, line, u, c)
            slot.top_align = k == "hand"  # an instruction between hands: two lines
            sl.append((slot, k))
            y += line
        self.line = line
        left = _Slot(g, m, y, W - 2 * m, line, u, GREY)
        right = _Slot(g, m, y, W - 2 * m, line, u, VERMILLION, RIGHT)
        sl.append((left, "posts"))
        sl.append((right, "away"))
        pairs.append((left, right, W - 2 * m, 2 * CW * u))
        y += line + gap // 2
        self._rule(g, 0, y, W)
        y += gap - gap // 2
        menu = _Menu(g, 0, y, W, rows, u)
        y += rows * line + gap
        sl.append((_Slot(g, m, y, W - 2 * m, line, u, GREY, pad=1), "status"))
        self.pages.append((g, sl, menu, pairs))

    def _compact(self, W, H):
        m = 2
        # the dealer's page between hands: time and blinds R, level/ante/next 1,
        # banner and info 1, menu 2, status 2 lines, the instruction (or the
        # colour-up, or who won) 2 lines
        R = _scale_for(W // 2, 5, (H - 8 * CH) // CH)
        spare = H - (R + 8) * CH
        gap = spare // 3 if spare > 0 else 0
        g = self._page()
        sl = []  # type: list  # (slot or clock, field)
        pairs = []
        tw = 5 * CW * R + m
        sl.append((_Clock(g, m, 0, tw, R * CH, R, WHITE), "time"))
        sl.append((_Slot(g, tw + 2 * m, 0, W - tw - 3 * m, R * CH, R, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y = R * CH + gap
        third = (W - 2 * m) // 3
        sl.append((_Slot(g, m, y, third, CH, 1, LIGHT), "level"))
        sl.append((_Slot(g, m + third, y, third, CH, 1, LIGHT, CENTRE), "ante"))
        sl.append((_Slot(g, m + 2 * third, y, W - 2 * m - 2 * third, CH, 1, GREY, RIGHT),
                   "next"))
        y += CH
        left = _Slot(g, m, y, W - 2 * m, CH, 1, BLACK, pad=1)
        right = _Slot(g, m, y, W - 2 * m, CH, 1, GREY, RIGHT)
        sl.append((left, "banner"))
        sl.append((right, "info"))
        pairs.append((left, right, W - 2 * m, CW * 2))
        y += CH + gap
        menu = _Menu(g, 0, y, W, 1, 2)
        y += 2 * CH + gap
        status = _Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREY, pad=1)
        status.top_align = True
        sl.append((status, "status"))
        y += 2 * CH
        extra = _Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREY, pad=1)
        extra.top_align = True
        sl.append((extra, "extra"))
        self.pages.append((g, sl, menu, pairs))

        # hand page: time and blinds R, hand 1, action 2, pot 1, posts 1,
        # menu 2, status 1
        R = _scale_for(W // 2, 5, (H - 8 * CH) // CH)
        spare = H - (R + 8) * CH
        gap = spare // 3 if spare > 0 else 0
        g = self._page()
        sl = []
        pairs = []
        tw = 5 * CW * R + m
        sl.append((_Clock(g, m, 0, tw, R * CH, R, WHITE), "time"))
        sl.append((_Slot(g, tw + 2 * m, 0, W - tw - 3 * m, R * CH, R, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y = R * CH + gap
        sl.append((_Slot(g, m, y, W - 2 * m, CH, 1, LIGHT, pad=1), "hand"))
        y += CH
        sl.append((_Slot(g, m, y, W - 2 * m, 2 * CH, 2, WHITE), "action"))
        y += 2 * CH
        pot = _Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREEN)  # two lines when the posts
        pot.top_align = True  # row is free for it (a long side-pot list)
        self.c_pot = pot
        sl.append((pot, "pot"))
        y += CH
        left = _Slot(g, m, y, W - 2 * m, CH, 1, GREY, pad=1)
        right = _Slot(g, m, y, W - 2 * m, CH, 1, VERMILLION, RIGHT)
        sl.append((left, "posts"))
        sl.append((right, "away"))
        pairs.append((left, right, W - 2 * m, CW * 2))
        y += CH + gap
        menu = _Menu(g, 0, y, W, 1, 2)
        y += 2 * CH + gap
        sl.append((_Slot(g, m, y, W - 2 * m, CH, 1, GREY, pad=1), "status"))
        self.pages.append((g, sl, menu, pairs))

    def _players(self, W, H):
        """The players' view: the clock and the blinds as large as the
        screen allows, each on a row of its own, the seat to act and what
        it costs one size below the blinds; on large screens one more row
        (away seats, info).
        Rows are placed by their ink (a digit is 8 of the font's 12 rows,
        rows 2..9), so the big labels' empty rows overlap."""
        m = W // 80
        T = W // (5 * CW)  # "12:34" across the width...
        cap = H * 45 // 100 // INK  # ...its digits at most 45 % of the height
        if T > cap:
            T = cap
        B = T * 4 // 7 if self.compact else T * 9 // 16
        A = B // 2 if B > 1 else 1
        I = A // 2 if not self.compact and A > 1 else 0
        rows = 3 if I == 0 else 4
        gap = (H - INK * (T + B + A + I)) // (rows + 1)
        g = self._page()
        sl = []  # type: list  # (slot or clock, field)
        pairs = []
        y = gap
        sl.append((_Clock(g, 0, y - 2 * T, W, CH * T, T, WHITE, CENTRE), "time"))
        y += INK * T + gap
        sl.append((_Slot(g, m, y - 2 * B, W - 2 * m, CH * B, B, YELLOW), "blinds"))
        y += INK * B + gap  # (the ante: on the line below between hands, view.act_line)
        sl.append((_Slot(g, m, y - 2 * A, W - 2 * m, CH * A, A, WHITE, pad=1), "act"))
        y += INK * A + gap
        if I:
            left = _Slot(g, m, y - 2 * I, W - 2 * m, CH * I, I, VERMILLION)
            right = _Slot(g, m, y - 2 * I, W - 2 * m, CH * I, I, GREY, RIGHT)
            sl.append((left, "away"))
            sl.append((right, "info"))
            pairs.append((left, right, W - 2 * m, 2 * CW * I))
        self.pages.append((g, sl, None, pairs))
        self.big = T  # the clock's scale in the players' view (bench/box_bench.py)

    # -- showing ---------------------------------------------------------
    def _which(self, f):
        if f.get("players"):
            return len(self.pages) - 1  # the players' view, always the last page
        if len(self.pages) == 2:
            return 0
        hand = f.get("in_hand")
        if hand is None:
            hand = (f.get("pot") or "").startswith("Pot")
        return 1 if hand else 0

    def _want(self, slot, key, f, players):
        """What *slot* (showing field *key*) should show for fields *f*;
        *players*: on the players' view.  Nothing here allocates: an idle
        second calls it for every slot."""
        text = f.get(key) or ""
        colour = None
        bg = None
        items = False
        shot = f.get("shot")
        instr = f.get("instr")
        h = slot.h0
        if key == "time":
            text = f.get("time") or 0  # seconds left (_Clock)
            banner = f.get("banner")
            colour = ORANGE if banner == "PAUSED" else (CYAN if banner == "BREAK" else WHITE)
        elif key == "blinds":
            colour = YELLOW  # nothing takes the blinds' place
        elif key == "act":  # the players' line
            if shot and f.get("action"):
                colour = _shot_colour(f)
                bg = _shot_bg(f)
            elif text and text == instr:
                colour = BLACK
                bg = YELLOW
            else:
                colour = WHITE
        elif key == "banner" and shot and not self.compact:
            text = shot  # a called clock: at the head of the table's detail
            colour = _shot_colour(f)
            bg = _shot_bg(f)
        elif key == "banner":
            colour = BLACK
            bg = _tag(text) if text else None
        elif key == "hand" and instr and not f.get("in_hand"):
            text = instr  # the dealer's detail: the instruction in the hand's row
            colour = BLACK
            bg = YELLOW
            if not self.compact and f.get("action") == BETWEEN:
                h = 2 * self.line  # between hands: the action's row too
        elif key == "action" and instr and not self.compact and text == BETWEEN:
            text = ""  # the instruction's second line
        elif key == "hand":
            colour = LIGHT
        elif key == "action" and self.compact and shot:
            text = f.get("act") or ""  # "Seat 3: CLOCK 9!" in the action's row
            colour = _shot_colour(f)
            bg = _shot_bg(f)
        elif key == "posts" and self.compact and f.get("banner"):
            text = f.get("banner")  # compact: the banner replaces the posts
            colour = BLACK
            bg = _tag(text)
        elif key == "posts" and f.get("colour"):
            text = f.get("colour")  # between hands: the colour-up per seat
            colour = MAGENTA
            items = True
        elif key == "posts":
            colour = GREY
            items = True
            if self._pot_long(f):
                text = ""  # the pot's second line
        elif key == "away":
            colour = VERMILLION
            if not players and self._pot_long(f):
                text = ""
        elif key == "status":
            kind = f.get("status_kind")
            if kind == "error":
                colour = WHITE
                bg = RED
            elif kind == "note":
                colour = AMBER
            else:
                colour = GREY
        elif key == "info":
            colour = GREY
            items = self.compact  # cut at whole items beside a banner
        elif key == "extra":  # compact, between hands: instruction, colour-up, who won
            if instr:
                text = instr
                colour = BLACK
                bg = YELLOW
            elif f.get("colour"):
                text = f.get("colour")
                colour = MAGENTA
                items = True
            else:
                text = f.get("pot") or ""
                colour = GREEN
        if h != slot.h:
            slot.h = h
            slot.text = None  # fit it again
        if items != slot.items:
            slot.items = items
            slot.text = None  # fit it again
        slot.want = text
        slot.want_c = colour
        slot.want_b = bg
        slot.want_w = 0

    def _pot_long(self, f):
        """Compact hand page: does the pot need the posts row too?"""
        return self.compact and self.c_pot.natural(f.get("pot") or "") > self.c_pot.w

    def update(self, f):
        """Show fields *f*; returns the number of labels changed."""
        n = self._which(f)
        if n != self.page:
            if self.page >= 0:
                self.pages[self.page][0].hidden = True
            self.pages[n][0].hidden = False
            self.page = n
        g, slots, menu, pairs = self.pages[n]
        players = n == len(self.pages) - 1
        for slot, key in slots:
            self._want(slot, key, f, players)
        for left, right, total, gap in pairs:
            _share(left, right, total, gap)
        changed = 0
        for slot, _key in slots:
            changed += slot.show(slot.want, slot.want_c, slot.want_b, slot.want_w)
        if menu is not None:
            changed += menu.update(f.get("menu") or (), f.get("menu_i") or 0)
        return changed

    def texts(self):
        """The non-empty label texts of the page on screen, top to bottom."""
        if self.page < 0:
            return []
        out = []
        g, slots, menu, pairs = self.pages[self.page]
        for slot, _key in slots:
            if slot.text:
                out.append((slot.y, slot.x, slot.text))
        if menu is not None:
            for s in menu.lines:
                if s.text:
                    out.append((s.y, s.x, s.text))
            if menu.count.text:
                out.append((menu.count.y, menu.count.x, menu.count.text))
        out.sort()
        return [t[2] for t in out]
