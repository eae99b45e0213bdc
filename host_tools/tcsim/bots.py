"""Bots for long simulated sessions at one simulated box: :class:`SessionBot` plays a table
through the box's own keys (legal random betting, showdowns, players away, clocks called,
misclicks the box must refuse, checked on the spot), seeded; plus the helpers the tests use
(:func:`quiet`, :func:`slot`, :func:`chips_in_play`, :func:`clock_text`, :func:`shown_time`).
docs/simulator.md, "Long sessions and power cuts".
"""

import random
from typing import Any, Dict, List, Optional, Tuple

from tcbox.widgets import RED, WHITE

from .driver import Dealer, DriverError
from .sim import world

# what changes with time alone, or is only a refusal
CLOCKISH = ("seconds_left", "shot_clock", "clock_warning", "error")
# what the level clock changes when a level ends or the host sets the clock
LEVELISH = ("level", "sb", "bb", "ante", "next_level", "on_break", "colour_up",
            "colour_changes", "late_entry_open")
# the long press that calls the clock, by board (tcbox/menu.py)
CLOCK_KEY = ("right", "call")
REFILL = 3000


def quiet(st: Dict[str, Any]) -> Any:
    """State *st* without the running clocks' seconds and the refusal."""
    return {k: st[k] for k in st if k not in CLOCKISH}


def slot(screen: Any, key: str) -> Any:
    """The label slot showing field *key* on the page on screen, or None."""
    if screen.page < 0:
        return None
    for label_slot, k in screen.pages[screen.page][1]:
        if k == key:
            return label_slot
    return None


def chips_in_play(table: Any) -> Any:
    """Chips at the table: stacks, the pot of the hand running, and what
    left play (busts with chips, colour-up rounding)."""
    n = sum(table.stacks.values()) + table.removed
    if table.hand is not None:
        n += table.hand.pot()
    return n


def clock_text(seconds: float) -> Any:
    """What the clock should show for *seconds* left: 12:05, 1:02:05, 0:00
    (written here on its own, to check tcbox/widgets.py ClockSlot against)."""
    secs = max(seconds, 0)
    hours, minutes, secs = secs // 3600, secs // 60 % 60, secs % 60
    return "%d:%02d:%02d" % (hours, minutes, secs) if hours else "%d:%02d" % (minutes, secs)


def shown_time(screen: Any) -> Any:
    """The time label's text as displayed (the label itself, not the field)."""
    label_slot = slot(screen, "time")
    return None if label_slot is None else label_slot.text  # two labels: widgets.ClockSlot


class SessionBot:
    """A seeded dealer and players at a Sim (see the module's docstring).

    :param sim: a tcsim.sim.Sim (``Sim(board, setup)`` or ``Sim.boot(board)``).
    :param seed: the random seed.
    :param period: the loop's period in ms while nobody touches a key.
    :param host: also play the host's commands (refills, pauses).
    :param let_clock_run: let a called clock run out now and then.
    :param pace: think times are multiplied by this (1: a real table).
    """

    def __init__(self, sim: Any, seed: int = 1, period: int = 100, host: bool = True,
                 let_clock_run: bool = True, pace: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.period = period
        self.host = host
        self.let_clock_run = let_clock_run
        self.pace = pace
        self.limit: Optional[int] = None  # no idle runs past this virtual ms (play())
        self.paused_ms = 0
        self.pause_end = None  # virtual ms the current pause ends at
        self.pause_from = None
        self.hands = 0
        self.counts: Dict[str, int] = {}
        self.refusals: List[Tuple[str, str, Optional[str]]] = []  # (what, refusal, label)
        self.via_host: List[Dict[str, Any]] = []  # events the keys could not make (none)
        self.bind(sim)
        self.chips = chips_in_play(sim.table)

    def bind(self, sim: Any) -> None:
        """Play on *sim* from now on (the box after a power cut)."""
        self.sim = sim
        self.dealer = Dealer(sim)

    # -- helpers ---------------------------------------------------------
    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def idle(self, seconds: float) -> None:
        """Nobody touches a key for *seconds* (at most up to ``limit``)."""
        ms = int(seconds * 1000 * self.pace)
        if self.limit is not None:
            ms = min(ms, self.limit - world.now_ms)
        if ms > 0:
            self.sim.run_for(ms, period=self.period)

    def do(self, ev: Any) -> Any:
        """One event through the box's keys."""
        done = self.dealer.do(ev)
        self._count(ev["do"])
        if done["via"] != "keys":
            self.via_host.append(ev)
        return done

    def host_event(self, ev: Any) -> None:
        """A command of the host (not the keys)."""
        self.sim.host(ev)
        self._count("host " + ev["do"])
        err = self.sim.table.error
        assert err is None, (ev, err)

    def state(self) -> Any:
        return self.sim.state()

    # -- misclicks -------------------------------------------------------
    def misclick(self, what: str) -> None:
        """A press the box must refuse; checks the refusal on screen and
        that the table did not change."""
        sim = self.sim
        before = quiet(sim.state())
        if what == "new hand":
            self.dealer.do({"do": "hand"})
        else:  # "clock": the long press that calls the clock
            role = [key_role for key_role in sim.roles if key_role in CLOCK_KEY][0]
            sim.press(role, 700)
        self._count("misclick " + what)
        st = sim.state()
        err = st["error"]
        assert err, ("the box accepted a misclick", what, sim.board_name, st["last"])
        status = slot(sim.screen, "status")
        shown = status.label.text if status is not None else None
        assert status is not None and status.text == err, ("refusal not on the status line", err,
                                                 shown)
        assert (status.colour, status.background) == (WHITE, RED), ("a refusal's colours", err)
        flat = (shown or "").replace("\n", " ")  # a label wrapped onto lines
        assert flat == err, ("the refusal does not show in full", err, shown)
        after = quiet(st)
        if after["level"] != before["level"]:  # a level ended (or the host's clock came)
            for k in LEVELISH:                 # during the press: not the press's doing
                before.pop(k, None)
                after.pop(k, None)
        assert after == before, ("a refused press changed the table", what, err,
                                 {k: (before[k], after[k]) for k in before
                                  if before[k] != after.get(k)})
        self.refusals.append((what, err, shown))

    # -- one decision ----------------------------------------------------
    def turn(self) -> Any:
        """One thing happens at the table; returns what (a short word)."""
        if self.sim.box.awaiting():  # an instruction from the host: the dealer confirms it
            if self.sim.box.dirty:
                self.sim.step()  # on screen first (the presses are found on the menu shown)
            try:
                self.dealer.confirm()
            except DriverError:
                pass  # no Confirm from this screen (a showdown half ranked): the hand first
            else:
                self._count("confirm")
                return "confirm"
        st = self.state()
        rng = self.rng
        if st["paused"]:
            if self.pause_end is None:  # paused before (a restored box): resume
                self.pause_from = self.pause_end = world.now_ms
            if st["seconds_left"] > 5 and rng.random() < 0.5:
                self.misclick("new hand")
            left = self.pause_end - world.now_ms
            if left > 0:
                self.sim.run_for(left, period=self.period)
            self.host_event({"do": "resume"})
            self.paused_ms += world.now_ms - self.pause_from
            self.pause_end = self.pause_from = None
            return "resume"
        if st["street"] is None:
            return self._between_hands(st)
        if st["street"] == "showdown":
            return self._showdown(st)
        return self._act(st)

    def _between_hands(self, st: Dict[str, Any]) -> Any:
        rng = self.rng
        if st["on_break"]:
            if st["seconds_left"] > 5 and rng.random() < 0.3:
                self.misclick("new hand")
            # at least a second: the box shows 0 with under a second of the break left,
            # and a wait of 0 would let no virtual time pass (the night stood still)
            self.idle(max(1, min(60, st["seconds_left"])))
            return "break"
        if self.host:
            for seat in range(1, self.sim.table.n + 1):
                if str(seat) not in st["stacks"] and rng.random() < 0.3:
                    self.chips += REFILL  # before: a watch checks after the step
                    self.host_event({"do": "sit", "seat": seat, "stack": REFILL})
            st = self.state()
            room = self.limit is None or world.now_ms + 400000 < self.limit
            if room and rng.random() < 0.04 and st["seconds_left"] > 30:
                self.pause_from = world.now_ms
                self.pause_end = world.now_ms + rng.randint(30, 300) * 1000
                self.host_event({"do": "pause"})
                return "pause"
        if rng.random() < 0.15 and st["seconds_left"] > 5:
            self.misclick("clock")  # no hand running
        seats = sorted(int(seat) for seat in st["stacks"])
        for seat in st["away"]:
            if rng.random() < 0.4:
                self.do({"do": "back", "seat": seat})
                self.idle(rng.uniform(1, 4))
        st = self.state()
        if rng.random() < 0.12:
            here = [seat for seat in seats if seat not in st["away"]]
            if len(here) > 2:
                self.do({"do": "away", "seat": rng.choice(here)})
        self.idle(rng.uniform(15, 45))  # collect, shuffle
        st = self.state()
        if st["on_break"] or st["paused"] or st["street"] is not None:
            return "wait"
        if sum(1 for v in st["stacks"].values() if v > 0) < 2:
            return "short"  # the host refills; or the test starts afresh
        self.do({"do": "hand"})
        self.hands += 1
        return "hand"

    def _showdown(self, st: Dict[str, Any]) -> Any:
        rng = self.rng
        self.idle(rng.uniform(3, 12))  # the cards are turned over
        live = list(st["in_hand"])
        rng.shuffle(live)
        tiers = [[seat] for seat in live]
        if len(tiers) > 2 and rng.random() < 0.15:
            tiers[0].append(tiers.pop(1)[0])  # a split pot now and then
            tiers[0].sort()
        self.do({"do": "showdown", "ranking": tiers})
        return "showdown"

    def _act(self, st: Dict[str, Any]) -> Any:
        rng = self.rng
        seat = st["action"]
        if st["shot_clock"] is None and rng.random() < 0.04:
            self.idle(rng.uniform(20, 40))  # a slow player: the clock is called
            if self.state()["action"] != seat or self.state()["shot_clock"] is not None:
                return "wait"
            self.do({"do": "clock"})
            st = self.state()
            if st["shot_clock"] and st["shot_clock"] > 8 and rng.random() < 0.5:
                self.misclick("clock")  # it is already running
            if self.let_clock_run and rng.random() < 0.25:
                self.idle((self.state()["shot_clock"] or 0) + 2)  # time runs out
                if self.state()["action"] != seat:
                    return "timeout"
                # still to act (LPPL ¶51 a slow-play warning, US 4 the clock only alerts):
                # the player acts now
            else:
                self.idle(rng.uniform(1, max(1, (st["shot_clock"] or 10) - 8)))
        else:
            self.idle(rng.uniform(2, 15))  # thinking
        st = self.state()
        if st["street"] in (None, "showdown") or st["action"] != seat:
            return "wait"
        if st["paused"]:
            return "wait"
        if rng.random() < 0.02:  # away in the middle of a hand (not the actor)
            others = [other for other in st["in_hand"] if other != seat and other not in st["away"]]
            if others:
                self.do({"do": "away", "seat": rng.choice(others)})
                return "away"
        owe = st["to_call"]
        stack = st["stacks"][str(seat)]
        top = st["bets"].get(str(seat), 0) + stack
        lo = st["min_raise_to"]
        roll = rng.random()
        if lo is not None and roll < 0.14:
            to = lo + st["bb"] * rng.randint(0, 3)  # what the amount entry makes
            ev = {"do": "allin"} if to >= top else {"do": "raise", "to": to}
        elif roll < 0.17 and (lo is not None or stack <= owe):
            ev = {"do": "allin"}
        elif owe and roll < 0.55:
            ev = {"do": "fold"}
        else:
            ev = {"do": "call" if owe else "check"}
        self.do(ev)
        return ev["do"]

    # -- a whole session ---------------------------------------------------
    def play(self, until_ms: int, margin_ms: int = 90000) -> None:
        """Turns until *margin_ms* before virtual time *until_ms*, then the
        loop alone (a pause is ended first) up to exactly *until_ms*."""
        self.limit = until_ms - margin_ms
        while world.now_ms < self.limit:
            self.turn()
        if self.state()["paused"]:
            self.pause_end = world.now_ms
            self.turn()
        self.limit = None
        self.sim.run_for(until_ms - world.now_ms, period=self.period)

