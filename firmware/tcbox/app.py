"""The box's main loop: keys, clock, screen, ring, buzzer, saving.

``App.step(now_ms)`` is one loop iteration (code.py calls it forever with
``supervisor.ticks_ms()``, the simulator with a virtual clock); it never
blocks, and while idle it only moves the clock and changes the time on
screen once a second (the shot clock's warning also flashes its label and
the ring's action pixel).  ``PLAYERS_MS`` after the last press the screen
shows the players' view (docs/box.md "The players' view").

The link layer calls ``app.info`` (host data for the screen, tcbox/view.py),
``app.instruct(instruction)`` (shown until the dealer's Confirm, which
carries it out: tcbox/orders.py) and reads the results through
``app.on_result`` / ``app.on_ack`` or the link's ``instruction_done``
(tcbox/linkparts.py ``attach``); ``app.acks``, ``app.waiting``,
``app.withdrawn``, ``app.awaiting()``.  A ``withdraw`` acts when it arrives,
without a Confirm: docs/protocol.md "withdraw".

Adapters are injected: ``screen.update(fields)``, ``keys.get()``,
``ring.show(colours)``, ``buzzer.beep(name)`` / ``update(now)``,
``saver.offer(table)`` (tableclock.record.Saver); any but screen and keys
may be None.
"""

import gc

from . import VERSION, orders
from .menu import MAIN, Menu
from .presses import Presses, ticks_diff
from .ring import colours
from .view import called_off, done_text, fields, instruction_text, move_text

SAVE_EVERY_S = 30  # a running clock is saved this often (seconds shown)
ACKS_KEPT = 32  # confirmed instruction ids remembered (docs/protocol.md: the last 32)
PLAYERS_MS = 4000  # the players' view this long after the last press (docs/box.md)
# a called clock's texts, one per second, are made when it is called, up to
# this many seconds (the profiles' clocks: 30 and 60 s); its seconds then
# allocate nothing (issue #20: formatting them took 192 B a second).  They
# are held while it runs: about 7 KB for 60 s on the 64-bit unix port, half
# that on a board; a longer clock's first seconds are formatted as they come.
SHOT_TEXTS_MAX = 60


class App:
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
        self.acks = []  # confirmed instruction ids, oldest first
        self.on_ack = None  # the link's hook: on_ack(id) after each Confirm
        self.on_result = None  # on_result(id, result, reason, stack): what became of it
        self.withdrawn = []  # ids the host called off before they came, oldest first
        self.waiting = []  # instructions behind the one on screen
        self.presses_seen = 0
        self.players = False  # the players' view is on screen
        self.pressed_ms = None  # ticks of the last press (None: since power-up)
        self.save_failures = 0
        self.save_due = False
        self.link = None  # the host link (tcbox/linkparts.py attaches it), if any

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
            p = self.presses.poll(now)
            if p is None:
                break
            self.pressed_ms = now
            self.players = False  # the dealer's detail comes back with the press
            self.press(self.roles[p[0]], p[1])
        if self.pressed_ms is None:
            self.pressed_ms = now
        if (not self.players and self.menu.mode == MAIN
                and ticks_diff(now, self.pressed_ms) >= PLAYERS_MS):
            self.players = True  # a few seconds without a press: the players' view
            self.dirty = True
        t = self.table
        if t.moves and t.hand is None:  # the hand is over: the TD's seat changes now
            self.settle()
        if self.buzzer is not None:
            self.buzzer.update(now)  # plays a pattern without blocking
        shot = self.table.shot.seconds()
        if shot is not None and self.shown_shot is None:
            self.dirty = True  # a clock called: shown at once
        if self.dirty:
            self.redraw()
        else:
            s = self.table.clock.seconds_left()
            if s != self.shown_s:
                self.second(s)
                self.fields["time"] = s  # an int: the screen picks its digits' strings
                self.screen.update(self.fields)
            if shot is not None and shot != self.shown_shot:
                self.shot_second(shot)  # a called clock counts down on screen, and beeps
            if self.fields["shot_kind"] and self.blink_off() != self.flash_off:
                self.flash()
        if self.save_due:
            self.save_due = False
            self.save()

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
        self.shot_texts = []
        self.act_texts = []
        for k in range(n + 1):
            text = ("CLOCK %d!" if k * 1000 <= sc.warn_ms else "CLOCK %d") % k
            self.shot_texts.append(text)
            self.act_texts.append(head + text if head else None)
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
                t = self.table
                t.handle(ev)
                if t.error is None:
                    if t.moves and t.hand is None:
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

    # -- the host's instructions ---------------------------------------
    def instruct(self, ins):
        """Show instruction *ins* (tcbox/view.py: a dict with ``id`` and
        ``action``, or a plain message string) until the dealer confirms it."""
        iid = ins.get("id") if isinstance(ins, dict) else None
        if iid is not None:
            if iid in self.acks:  # the host did not get the confirmation: again
                if self.on_ack is not None:
                    self.on_ack(iid)
                return
            if iid in self.withdrawn:  # called off before it came: never shown
                self.report(iid, "refused", orders.WITHDRAWN)
                return
            shown = [self.info.get("instruction")] + self.waiting
            for n in range(len(shown)):
                if isinstance(shown[n], dict) and shown[n].get("id") == iid:
                    return  # a resend of one already here
        if isinstance(ins, dict) and ins.get("action") == "withdraw":
            self.withdraw(ins)  # at once: never on screen
            return
        if self.info.get("instruction"):
            self.waiting.append(ins)
        else:
            self.info["instruction"] = ins
        self.info["queued"] = len(self.waiting)
        self.dirty = True

    def withdraw(self, ins):
        """The host called off instruction ``ins["instr"]`` (a ``withdraw``,
        id ``ins["id"]``): at once, no Confirm (module notes)."""
        wid = ins.get("id")
        x = ins.get("instr")
        text = None
        if x is not None:
            shown = self.info.get("instruction")
            if isinstance(shown, dict) and shown.get("id") == x:
                text = instruction_text(shown)
                self.info["instruction"] = self.waiting.pop(0) if self.waiting else None
            else:
                for w in self.waiting:
                    if isinstance(w, dict) and w.get("id") == x:
                        text = instruction_text(w)
                        self.waiting.remove(w)
                        break
            if text is None:
                m = orders.withdraw(self.table, x)  # confirmed during the hand: waiting
                if m is not None:
                    text = move_text(m)
        result, reason = "done", None
        if text is not None:
            self.menu.note = called_off(text)
            self.report(x, "refused", orders.WITHDRAWN)
        elif x in self.acks:
            result, reason = "refused", orders.CARRIED_OUT
        if x is not None and result == "done":
            _keep(self.withdrawn, x)  # a resend, or the original arriving late: not shown
        _keep(self.acks, wid)
        self.info["queued"] = len(self.waiting)
        self.dirty = True
        self.report(wid, result, reason)
        self.save()

    def awaiting(self):
        """Is an instruction on screen waiting for the dealer's Confirm?"""
        return bool(self.info.get("instruction"))

    def ack(self):
        """The dealer confirmed the instruction on screen: carry it out
        (tcbox/orders.py), remember its id, tell the host what became of it,
        show the next one waiting, save."""
        ins = self.info.get("instruction")
        if not ins:
            return
        iid = ins.get("id") if isinstance(ins, dict) else None
        t = self.table
        t.error = None  # an older refusal is not this one's
        result, reason, stack = orders.carry_out(t, ins)
        _keep(self.acks, iid)
        self.info["instruction"] = self.waiting.pop(0) if self.waiting else None
        self.info["queued"] = len(self.waiting)
        if result == orders.LATER:
            self.menu.note = done_text(ins, later=True)
            result = "acknowledged"  # done once the hand is over
        elif result == orders.REFUSED:
            t.error = reason  # the status line shows why, white on red
            self.menu.note = ""
        else:
            self.menu.note = done_text(ins)  # what was done: "Seat 3 moved to ..."
        self.dirty = True
        self.report(iid, result, reason, stack, True)
        self.save()

    def settle(self):
        """No hand is running: carry out the seat changes confirmed during
        the hand (tcbox/orders.py), tell the host, save."""
        for iid, result, reason, stack in orders.settle(self.table):
            self.report(iid, result, reason, stack)
        self.dirty = True
        self.save()

    def report(self, iid, result, reason=None, stack=None, confirm=False):
        """What became of instruction *iid* (nothing for None): ``on_result``,
        else the link's ``instruction_done``; without either, ``on_ack(iid)``
        for the dealer's Confirm (*confirm*) only.  *stack*: the chips a
        player moved out with (a ``move_out`` done), else None."""
        if iid is None:
            return
        hook = self.on_result
        if hook is None and self.link is not None:
            hook = getattr(self.link, "instruction_done", None)
        if hook is not None:
            hook(iid, result, reason, stack)
        elif confirm and self.on_ack is not None:
            self.on_ack(iid)

    def facts(self):
        """The box's own facts for the setup screen (tcbox/view.py)."""
        return {"board": self.board, "seats": self.table.n, "fw": VERSION,
                "muted": self.muted, "buzzer": self.buzzer is not None,
                "hold": self.table.hold, "moves": self.table.moves}

    def redraw(self):
        """Rebuild everything shown from the table's state."""
        st = self.table.state()
        self.state = st
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
        if st["shot_clock"] is None:
            self.shot_texts = self.act_texts = self.shot_head = None  # freed
        elif self.shot_texts is None or self.act_head != self.shot_head:
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

    def second(self, s):
        """The clock shows *s* seconds now: the last-minute beep when it
        crosses 60, and a save every ``SAVE_EVERY_S`` of running clock so a
        power cut costs at most that much of it (the record's Saver writes
        only what changed)."""
        was = self.shown_s
        self.shown_s = s
        if was > 60 >= s and not self.table.clock.on_break():
            self.beep("minute")
        if was >= 0 and was // SAVE_EVERY_S != s // SAVE_EVERY_S:  # a 30 s mark passed
            self.save_due = True

    def save(self):
        """Write the power-loss record if something changed.  A save makes
        garbage and the nvm write wants an 8 KiB block: collect first; out
        of memory, the next change tries again (the table goes on)."""
        if self.saver is None:
            return
        gc.collect()
        try:
            self.saver.offer(self.table)
        except (MemoryError, ValueError):  # no memory now / a record too big for a slot
            self.save_failures += 1

    def beep(self, name):
        if self.buzzer is not None and not self.muted:
            self.buzzer.beep(name)


def _keep(ids, iid):
    """Append *iid* (not None) to the list *ids*, keeping the last ACKS_KEPT."""
    if iid is not None:
        ids.append(iid)
        if len(ids) > ACKS_KEPT:
            ids.pop(0)
