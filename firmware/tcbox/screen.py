"""The box's display: the view's fields (tcbox/view.py) laid out for the
screen's size, one page per layout; ``update(fields)`` changes only the labels
that differ.  Layouts, colours and what shares a row: docs/box.md, "The
screen's layout".
"""

import displayio

from .widgets import (
    AMBER,
    BLACK,
    CENTRE,
    CH,
    CW,
    CYAN,
    DIM,
    GREEN,
    GREY,
    INK,
    LIGHT,
    MAGENTA,
    ORANGE,
    RED,
    RIGHT,
    VERMILLION,
    WHITE,
    YELLOW,
    ClockSlot,
    MenuRows,
    Slot,
    scale_for,
    share,
    vectorio,
)

BETWEEN = "Between hands"  # tcbox/view.py's action line between hands


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


def _want(screen, slot, key, f, players):
    """What *slot* of *screen* (showing field *key*) should show for fields
    *f*; *players*: on the players' view.  Nothing here allocates: an idle
    second calls it for every slot."""
    text = f.get(key) or ""
    colour = None
    bg = None
    items = False
    shot = f.get("shot")
    instr = f.get("instr")
    h = slot.h0
    if key == "time":
        text = f.get("time") or 0  # seconds left (ClockSlot)
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
    elif key == "banner" and shot and not screen.compact:
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
        if not screen.compact and f.get("action") == BETWEEN:
            h = 2 * screen.line  # between hands: the action's row too
    elif key == "action" and instr and not screen.compact and text == BETWEEN:
        text = ""  # the instruction's second line
    elif key == "hand":
        colour = LIGHT
    elif key == "action" and screen.compact and shot:
        text = f.get("act") or ""  # "Seat 3: CLOCK 9!" in the action's row
        colour = _shot_colour(f)
        bg = _shot_bg(f)
    elif key == "posts" and screen.compact and f.get("banner"):
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
        if screen._pot_long(f):
            text = ""  # the pot's second line
    elif key == "away":
        colour = VERMILLION
        if not players and screen._pot_long(f):
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
        items = screen.compact  # cut at whole items beside a banner
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
        T = scale_for(W * 2 // 5, 5, (H - fixed) // CH)
        rows = 3 + (H - fixed - T * CH) // line // 2  # tall screens: more options
        if rows > 6:
            rows = 6
        gap = 2 + (H - fixed - T * CH - (rows - 3) * line) // 4
        g = self._page()
        sl = []  # type: list  # (slot or clock, field)
        pairs = []
        y = 0
        tw = 5 * CW * T + m
        sl.append((ClockSlot(g, m, y, tw, T * CH, T, WHITE), "time"))
        sl.append((Slot(g, m + tw + m, y, W - tw - 3 * m, T * CH, T, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y += T * CH + gap
        third = (W - 2 * m) // 3
        sl.append((Slot(g, m, y, third, line, u, LIGHT), "level"))
        sl.append((Slot(g, m + third, y, third, line, u, LIGHT, CENTRE), "ante"))
        sl.append((Slot(g, m + 2 * third, y, W - 2 * m - 2 * third, line, u, GREY, RIGHT),
                   "next"))
        y += line + gap // 2
        self._rule(g, 0, y, W)
        y += gap - gap // 2
        half = (W - 2 * m) // 2
        left = Slot(g, m, y, half, line, u, BLACK, pad=1)
        right = Slot(g, m + half, y, W - 2 * m - half, line, u, GREY, RIGHT)
        sl.append((left, "banner"))
        sl.append((right, "info"))
        pairs.append((left, right, W - 2 * m, 2 * CW * u))
        y += line
        for k, c in (("hand", LIGHT), ("action", WHITE), ("pot", GREEN)):
            slot = Slot(g, m, y, W - 2 * m, line, u, c)
            slot.top_align = k == "hand"  # an instruction between hands: two lines
            sl.append((slot, k))
            y += line
        self.line = line
        left = Slot(g, m, y, W - 2 * m, line, u, GREY)
        right = Slot(g, m, y, W - 2 * m, line, u, VERMILLION, RIGHT)
        sl.append((left, "posts"))
        sl.append((right, "away"))
        pairs.append((left, right, W - 2 * m, 2 * CW * u))
        y += line + gap // 2
        self._rule(g, 0, y, W)
        y += gap - gap // 2
        menu = MenuRows(g, 0, y, W, rows, u)
        y += rows * line + gap
        sl.append((Slot(g, m, y, W - 2 * m, line, u, GREY, pad=1), "status"))
        self.pages.append((g, sl, menu, pairs))

    def _compact(self, W, H):
        m = 2
        # the dealer's page between hands: time and blinds R, level/ante/next 1,
        # banner and info 1, menu 2, status 2 lines, the instruction (or the
        # colour-up, or who won) 2 lines
        R = scale_for(W // 2, 5, (H - 8 * CH) // CH)
        spare = H - (R + 8) * CH
        gap = spare // 3 if spare > 0 else 0
        g = self._page()
        sl = []  # type: list  # (slot or clock, field)
        pairs = []
        tw = 5 * CW * R + m
        sl.append((ClockSlot(g, m, 0, tw, R * CH, R, WHITE), "time"))
        sl.append((Slot(g, tw + 2 * m, 0, W - tw - 3 * m, R * CH, R, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y = R * CH + gap
        third = (W - 2 * m) // 3
        sl.append((Slot(g, m, y, third, CH, 1, LIGHT), "level"))
        sl.append((Slot(g, m + third, y, third, CH, 1, LIGHT, CENTRE), "ante"))
        sl.append((Slot(g, m + 2 * third, y, W - 2 * m - 2 * third, CH, 1, GREY, RIGHT),
                   "next"))
        y += CH
        left = Slot(g, m, y, W - 2 * m, CH, 1, BLACK, pad=1)
        right = Slot(g, m, y, W - 2 * m, CH, 1, GREY, RIGHT)
        sl.append((left, "banner"))
        sl.append((right, "info"))
        pairs.append((left, right, W - 2 * m, CW * 2))
        y += CH + gap
        menu = MenuRows(g, 0, y, W, 1, 2)
        y += 2 * CH + gap
        status = Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREY, pad=1)
        status.top_align = True
        sl.append((status, "status"))
        y += 2 * CH
        extra = Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREY, pad=1)
        extra.top_align = True
        sl.append((extra, "extra"))
        self.pages.append((g, sl, menu, pairs))

        # hand page: time and blinds R, hand 1, action 2, pot 1, posts 1,
        # menu 2, status 1
        R = scale_for(W // 2, 5, (H - 8 * CH) // CH)
        spare = H - (R + 8) * CH
        gap = spare // 3 if spare > 0 else 0
        g = self._page()
        sl = []
        pairs = []
        tw = 5 * CW * R + m
        sl.append((ClockSlot(g, m, 0, tw, R * CH, R, WHITE), "time"))
        sl.append((Slot(g, tw + 2 * m, 0, W - tw - 3 * m, R * CH, R, YELLOW, RIGHT, pad=1),
                   "blinds"))
        y = R * CH + gap
        sl.append((Slot(g, m, y, W - 2 * m, CH, 1, LIGHT, pad=1), "hand"))
        y += CH
        sl.append((Slot(g, m, y, W - 2 * m, 2 * CH, 2, WHITE), "action"))
        y += 2 * CH
        pot = Slot(g, m, y, W - 2 * m, 2 * CH, 1, GREEN)  # two lines when the posts
        pot.top_align = True  # row is free for it (a long side-pot list)
        self.c_pot = pot
        sl.append((pot, "pot"))
        y += CH
        left = Slot(g, m, y, W - 2 * m, CH, 1, GREY, pad=1)
        right = Slot(g, m, y, W - 2 * m, CH, 1, VERMILLION, RIGHT)
        sl.append((left, "posts"))
        sl.append((right, "away"))
        pairs.append((left, right, W - 2 * m, CW * 2))
        y += CH + gap
        menu = MenuRows(g, 0, y, W, 1, 2)
        y += 2 * CH + gap
        sl.append((Slot(g, m, y, W - 2 * m, CH, 1, GREY, pad=1), "status"))
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
        sl.append((ClockSlot(g, 0, y - 2 * T, W, CH * T, T, WHITE, CENTRE), "time"))
        y += INK * T + gap
        sl.append((Slot(g, m, y - 2 * B, W - 2 * m, CH * B, B, YELLOW), "blinds"))
        y += INK * B + gap  # (the ante: on the line below between hands, view.act_line)
        sl.append((Slot(g, m, y - 2 * A, W - 2 * m, CH * A, A, WHITE, pad=1), "act"))
        y += INK * A + gap
        if I:
            left = Slot(g, m, y - 2 * I, W - 2 * m, CH * I, I, VERMILLION)
            right = Slot(g, m, y - 2 * I, W - 2 * m, CH * I, I, GREY, RIGHT)
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
            _want(self, slot, key, f, players)
        for left, right, total, gap in pairs:
            share(left, right, total, gap)
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
