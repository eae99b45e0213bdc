"""The box's main loop: keys, clock, screen, ring, buzzer, saving.

``App.step(now_ms)`` is one loop iteration; code.py calls it forever with
``supervisor.ticks_ms()`` and the simulator calls it with a virtual clock.
It never blocks.  While idle it only moves the clock and, once a second,
changes the time on screen: the full screen, the ring and the saved record
are rebuilt only after something happened (a press, a level change, the
shot clock).

Adapters are injected (composition, KMK style): ``screen.update(fields)``,
``keys.get()`` -> (key number, pressed, ticks) or None, ``ring.show(colours)``,
``buzzer.beep(name)`` and ``buzzer.update(now)``, ``saver.offer(table)``
(tableclock.record.Saver: writes when something changed);
any but screen and keys may be None.
"""

import gc

from .menu import Menu
from .presses import Presses, ticks_diff
from .ring import colours
from .view import fields, mmss


class App:
    """One table box.

    :param table: the tableclock Table.
    :param roles: the board's key roles, by key number.
    """

    def __init__(self, table, roles, screen, keys, ring=None, buzzer=None, saver=None,
                 seats_in_ring=0):
        self.table = table
        self.roles = roles
        self.screen = screen
        self.keys = keys
        self.ring = ring
        self.buzzer = buzzer
        self.saver = saver
        self.ring_n = seats_in_ring
        self.menu = Menu()
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
        self.muted = False
        self.presses_seen = 0
        self.save_failures = 0

    # -- one loop iteration --------------------------------------------
    def step(self, now):
        """Run one iteration at *now* (ticks ms, wrapping at 2**29)."""
        if self.last_ms is None:
            self.last_ms = now
        dt = ticks_diff(now, self.last_ms)
        if dt > 0:
            self.last_ms = now
            if self.table.advance(dt):
                self.dirty = True
        while True:
            ev = self.keys.get()
            if ev is None:
                break
            self.presses.feed(ev[0], ev[1], ev[2])
        while True:
            p = self.presses.poll(now)
            if p is None:
                break
            self.press(self.roles[p[0]], p[1])
        if self.buzzer is not None:
            self.buzzer.update(now)  # plays a pattern without blocking
        shot = self.table.shot.seconds()
        if shot is not None and shot != self.shown_shot:
            self.dirty = True  # a called clock counts down on screen, and beeps
        if self.dirty:
            self.redraw()
        else:
            s = self.table.clock.seconds_left()
            if s != self.shown_s:
                self.shown_s = s
                self.fields["time"] = mmss(s)
                self.screen.update(self.fields)
                if s == 60 and not self.table.clock.on_break():
                    self.beep("minute")

    def press(self, role, long):
        """A key press by role: the menu turns it into an event (or not)."""
        self.presses_seen += 1
        ev = self.menu.press(role, long, self.state or self.table.state())
        if ev is not None:
            self.table.handle(ev)
            if self.table.error is None:
                self.save()
        self.dirty = True  # every press is acknowledged on screen

    def redraw(self):
        """Rebuild everything shown from the table's state."""
        st = self.table.state()
        self.state = st
        self.menu.refresh(st)
        self.fields = fields(st, self.menu, self.info)
        self.shown_s = st["seconds_left"]
        self.shown_shot = st["shot_clock"]
        self.screen.update(self.fields)
        if self.ring is not None and self.ring_n:
            self.ring.show(colours(st, self.ring_n))
        key = (st["level"], st["on_break"])
        if self.level_key is not None and key != self.level_key:
            self.beep("level")
            self.save()  # the clock anchor moves on with the level
        self.level_key = key
        if st["clock_warning"] and not self.warned:
            self.beep("shot")
        self.warned = st["clock_warning"]
        self.dirty = False

    def save(self):
        """Write the power-loss record if something changed.  A save makes
        garbage and the nvm write wants an 8 KiB block: collect first; out
        of memory, the next change tries again (the table goes on)."""
        if self.saver is None:
            return
        gc.collect()
        try:
            self.saver.offer(self.table)
        except MemoryError:
            self.save_failures += 1

    def beep(self, name):
        if self.buzzer is not None and not self.muted:
            self.buzzer.beep(name)

