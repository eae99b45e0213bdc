"""The box's main loop (``App.step(now_ms)``: keys, clock, screen, ring,
buzzer, saving), never blocking; idle, it only changes the clock's digits.
The host's instructions: tcbox/instructions/pending.py.  Injected adapters:
docs/box.md, "Firmware files".  Its parts (the host link) and the hooks the loop
calls on them (``HOOKS``): docs/box.md, "The App and its parts".
"""

from . import VERSION
from .instructions.book import Book
from .instructions.pending import HostInstructions
from .menu import MAIN, Menu
from .presses import Presses, ticks_diff
from .ring import colours
from .view import fields

SAVE_EVERY_S = 30  # a running clock is saved this often (seconds shown)
PLAYERS_MS = 4000  # the players' view this long after the last press (docs/box.md)
# a called clock's texts, one per second, are made when it is called, up to
# this many seconds (the profiles' clocks: 30 and 60 s); its seconds then
# allocate nothing (issue #20: formatting them took 192 B a second).  They
# are held while it runs: about 7 KB for 60 s on the 64-bit unix port, half
# that on a board; a longer clock's first seconds are formatted as they come.
SHOT_TEXTS_MAX = 60
# The part protocol (docs/box.md, "The App and its parts"; KMK's modules are the model): the
# hooks the App calls on each part that has them, parts in the order they were added.  A part
# reaches the App through its services only (instruct, use_book, take_table, changed, save,
# show_link).
HOOKS = (
    "added",  # added(app): the part joins the App (App.add)
    "on_state",  # on_state(app, st): each redraw's table state, at the redraw
    "on_save",  # on_save(app): before each save; returns its share of the record, or None
    "on_result",  # on_result(app, iid, result, reason, stack): what became of an instruction
    "seating",  # seating(app): (the host's names by seat, the table number) for an instruction
    "after_step",  # after_step(app, now): its share of each loop iteration, after the App's
)


class App(HostInstructions):
    """One table box.

    :param table: the tableclock Table.
    :param roles: the board's key roles, by key number.
    :param board: the board's name (the setup screen shows it).
    """

    def __init__(self, table, roles, screen, keys, ring=None, buzzer=None, saver=None,
                 seats_in_ring=0, board=""):
        self.table = table
        self.roles = roles
        self.screen = screen
        self.keys = keys
        self.ring = ring
        self.buzzer = buzzer
        self.saver = saver
        self.ring_n = seats_in_ring
        self.board = board
        self.menu = Menu(setup=True, roles=roles)
        self.presses = Presses(len(roles))
        self.info = {}
        self.last_ms = None
        self.dirty = True
        self.fields = None
        self.state = None
        self.shown_s = -1
        self.shown_shot = None
        self.level_key = None
        self.warned = False
        self.flash_off = False  # the shot clock's warning: in its dark half second
        self.act_head = None  # the players' line before a called clock's seconds
        self.shot_texts = None  # a called clock's "CLOCK n" by second (make_shot_texts)
        self.act_texts = None  # and its players' line, "Seat 5: CLOCK n"
        self.shot_head = None  # the act_head those were made for
        self.ring_lit = self.ring_dark = None  # the ring's colours, the action lit / dark
        self.muted = False
        self.book = Book()  # the host's instructions (the link's, once added: use_book)
        self.presses_seen = 0
        self.players = False  # the players' view is on screen
        self.pressed_ms = None  # ticks of the last press (None: since power-up)
        self.save_failures = 0
        self.save_due = False
        self.parts = []  # the parts added (the host link), in order
        self.hooked = {}  # hook name (HOOKS): the parts that have it, in order
        for name in HOOKS:
            self.hooked[name] = []

    # -- its parts (HOOKS) ------------------------------------------------
    def add(self, part):
        """Make *part* one of the App's parts: from now on the loop calls
        those of its hooks it has (HOOKS), after the parts added before it."""
        self.parts.append(part)
        for name in HOOKS:
            if getattr(part, name, None) is not None:
                self.hooked[name].append(part)
        if getattr(part, "added", None) is not None:
            part.added(self)
        return part

    def take_table(self, table):
        """A part's service: *table* (the host's set-up, built by the link)
        replaces the App's and is saved."""
        self.table = table
        self.state = None
        self.level_key = None
        self.dirty = True
        self.save()

    def changed(self):
        """A part's service: something on screen changed (the host's clock): redraw."""
        self.dirty = True

    def show_link(self, text, table_no):
        """A part's service: the link's line and the table number on the
        setup screen (tcbox/view.py); redrawn when either changed."""
        info = self.info
        if info.get("link") != text or info.get("table") != table_no:
            info["link"] = text
            info["table"] = table_no
            self.dirty = True

    # -- one loop iteration --------------------------------------------
    def step(self, now):
        """Run one iteration at *now* (ticks ms, wrapping at 2**29)."""
        if self.last_ms is None:
            self.last_ms = now
        dt = ticks_diff(now, self.last_ms)
        if dt > 0:
            self.last_ms = now
            if self.table.advance(dt):  # a level ended or a shot clock ran out
                self.dirty = True
                self.save_due = True
        while True:
            ev = self.keys.get()
            if ev is None:
                break
            self.presses.feed(ev[0], ev[1], ev[2])
        while True:
            press = self.presses.poll(now)
            if press is None:
                break
            self.pressed_ms = now
            self.players = False  # the dealer's detail comes back with the press
            self.press(self.roles[press[0]], press[1])
        if self.pressed_ms is None:
            self.pressed_ms = now
        if (not self.players and self.menu.mode == MAIN
                and ticks_diff(now, self.pressed_ms) >= PLAYERS_MS):
            self.players = True  # a few seconds without a press: the players' view
            self.dirty = True
        table = self.table
        if table.moves and table.hand is None:  # the hand is over: the TD's seat changes now
            self.settle()
        if self.buzzer is not None:
            self.buzzer.update(now)  # plays a pattern without blocking
        shot = self.table.shot.seconds()
        if shot is not None and self.shown_shot is None:
            self.dirty = True  # a clock called: shown at once
        if self.dirty:
            self.redraw()
        else:
            seconds = self.table.clock.seconds_left()
            if seconds != self.shown_s:
                self.second(seconds)
                self.fields["time"] = seconds  # an int: the screen picks its digits' strings
                self.screen.update(self.fields)
            if shot is not None and shot != self.shown_shot:
                self.shot_second(shot)  # a called clock counts down on screen, and beeps
            if self.fields["shot_kind"] and self.blink_off() != self.flash_off:
                self.flash()
        if self.save_due:
            self.save_due = False
            self.save()
        for part in self.hooked["after_step"]:
            part.after_step(self, now)  # a bounded slice of the link's work

    def blink_off(self):
        """In the dark half of a second of the shot clock's warning?  (The
        first half of each second shown is lit, the second half dark.)"""
        shot = self.table.shot
        return shot.warning() and (shot.left_ms - 1) % 1000 < 500

    def shot_second(self, shot):
        """The called clock shows *shot* seconds: its two texts change, and
        its warning starts with a beep; nothing else is built again (issue
        #20: a whole redraw each of its seconds allocated 9.6 KB)."""
        self.shown_shot = shot
        f = self.fields
        sc = self.table.shot
        warn = sc.warning()
        texts = self.shot_texts
        if texts is not None and shot < len(texts) and warn == (shot * 1000 <= sc.warn_ms):
            f["shot"] = texts[shot]  # made when it was called: nothing allocated now
            if self.act_head:
                f["act"] = self.act_texts[shot]
        else:  # a second beyond SHOT_TEXTS_MAX
            f["shot"] = ("CLOCK %d!" if warn else "CLOCK %d") % shot
            if self.act_head:
                f["act"] = self.act_head + f["shot"]  # tcbox/view.py act_line
        if warn and not self.warned:
            self.beep("shot")
            f["shot_kind"] = "flash" if self.flash_off else "warning"
        self.warned = warn
        self.screen.update(f)

    def make_shot_texts(self):
        """A called clock's texts for each of its seconds, up to
        SHOT_TEXTS_MAX: "CLOCK n" ("CLOCK n!" in its warning, as
        tcbox/view.py writes it) and the players' line "Seat 5: CLOCK n"."""
        sc = self.table.shot
        head = self.act_head
        n = sc.limit_ms // 1000
        if n > SHOT_TEXTS_MAX:
            n = SHOT_TEXTS_MAX
        # each list made at its length, not grown by append: growing it moved
        # it four times and the last move (512 B) was where the night ran out;
        # another seat's texts go first
        self.shot_texts = self.act_texts = None
        shot = self.shot_texts = [None] * (n + 1)
        act = self.act_texts = [None] * (n + 1)
        for k in range(n + 1):
            text = ("CLOCK %d!" if k * 1000 <= sc.warn_ms else "CLOCK %d") % k
            shot[k] = text
            if head:
                act[k] = head + text
        self.shot_head = head

    def flash(self):
        """The shot clock's warning flashes: its label and the ring's action
        pixel, nothing else (the ring's two colourings made at the redraw)."""
        off = self.blink_off()
        self.flash_off = off
        if self.fields["shot_kind"] in ("warning", "flash"):
            self.fields["shot_kind"] = "flash" if off else "warning"
        self.screen.update(self.fields)
        if self.ring is not None and self.ring_n:
            self.ring.show(self.ring_dark if off else self.ring_lit)

    def press(self, role, long):
        """A key press by role: the menu turns it into an event (or not)."""
        self.presses_seen += 1
        ev = self.menu.press(role, long, self.state or self.table.state())
        if ev is not None:
            if "box" in ev:
                self.box_event(ev)
            else:
                table = self.table
                table.handle(ev)
                if table.error is None:
                    if table.moves and table.hand is None:
                        self.settle()  # the hand is over: the TD's seat changes (saves)
                    else:
                        self.save()
        self.dirty = True  # every press is acknowledged on screen

    def box_event(self, ev):
        """The box's own events from the menu: Confirm, the mute toggle."""
        what = ev["box"]
        if what == "ack":
            self.ack()
        elif what == "mute":
            self.muted = not self.muted
            self.menu.note = "Buzzer muted" if self.muted else "Buzzer on"

    def facts(self):
        """The box's own facts for the setup screen (tcbox/view.py)."""
        return {"board": self.board, "seats": self.table.n, "fw": VERSION,
                "muted": self.muted, "buzzer": self.buzzer is not None,
                "hold": self.table.hold, "moves": self.table.moves}

    def redraw(self):
        """Rebuild everything shown from the table's state."""
        # what the new view replaces goes before it is built: the old state and
        # fields, and a finished called clock's texts (about 9 KB); held with
        # the new ones they set the night's smallest heap (issue #20,
        # bench/README.md "The heap")
        self.state = self.fields = None
        if self.table.shot.seconds() is None:
            self.shot_texts = self.act_texts = self.shot_head = None
        st = self.table.state()
        self.state = st
        for part in self.hooked["on_state"]:
            # the link sees this state now, not after the step (its after_step):
            # it lets go of the one its last save built before a called clock's
            # texts are made (issue #20: the night's heap, table build 301-303
            # -> 298 KiB at 1 KiB steps)
            part.on_state(self, st)
        box = self.facts()
        self.menu.refresh(st, self.info, box)
        off = self.blink_off()
        self.flash_off = off
        self.fields = fields(st, self.menu, self.info, box, off, self.players)
        self.second(st["seconds_left"])
        self.shown_shot = st["shot_clock"]
        self.act_head = None  # "Seat 5: " while a called clock counts down (shot_second)
        if st["shot_clock"] is not None and st["action"] is not None:
            self.act_head = "Seat %d: " % st["action"]
        if st["shot_clock"] is not None and (self.shot_texts is None
                                             or self.act_head != self.shot_head):
            self.make_shot_texts()
        self.screen.update(self.fields)
        if self.ring is not None and self.ring_n:
            self.ring_lit = colours(st, self.ring_n)
            self.ring_dark = self.ring_lit
            if st["shot_clock"] is not None:
                self.ring_dark = colours(st, self.ring_n, blink_off=True)
            self.ring.show(self.ring_dark if off else self.ring_lit)
        key = (st["level"], st["on_break"])
        if self.level_key is not None and key != self.level_key:
            self.beep("level")
            self.save()  # the clock anchor moves on with the level
        self.level_key = key
        if st["clock_warning"] and not self.warned:
            self.beep("shot")
        self.warned = st["clock_warning"]
        self.dirty = False

    def second(self, seconds):
        """The clock shows *seconds* now: the last-minute beep when it
        crosses 60, and a save every ``SAVE_EVERY_S`` of running clock so a
        power cut costs at most that much of it (the record's Saver writes
        only what changed)."""
        was = self.shown_s
        self.shown_s = seconds
        if was > 60 >= seconds and not self.table.clock.on_break():
            self.beep("minute")
        if was >= 0 and was // SAVE_EVERY_S != seconds // SAVE_EVERY_S:  # a 30 s mark passed
            self.save_due = True

    def save(self):
        """Write the power-loss record if something changed; out of memory,
        the next change tries again (the table goes on).  No collection
        first: the allocator runs one itself when a request does not fit,
        and one before every save was 0.65 ms of a key press's 1.55 ms
        (unix port, .mpy: bench press_step_mpy)."""
        if self.saver is None:
            return
        try:
            extra = None  # the record's extra: the link's share (its on_save)
            for part in self.hooked["on_save"]:
                extra = part.on_save(self)
            self.saver.offer(self.table, extra)
        except (MemoryError, ValueError):  # no memory now / a record too big for a slot
            self.save_failures += 1

    def beep(self, name):
        if self.buzzer is not None and not self.muted:
            self.buzzer.beep(name)
