"""One poker table: seats, the level clock and the hand in play.

This is the replay contract's engine (docs/replay.md): ``Table(setup)``, then
``apply(event)`` for each event, each returning the state dict.  A rejected
event changes nothing and sets ``error`` to a sentence a dealer understands.

It ties together the rules modules -- clock (levels), button (dead button,
heads-up, waiting seats), betting (who may bet what), pots (side pots, odd
chips), away (blinds for absent players), shotclock -- and adds the hand's
course: posting, whose action, closing each street, showdown, busts.
Rules cited per module; docs/rules.md maps each one to its sentence.
"""

from . import profiles
from .away import AwayBook
from .betting import Street
from .button import clockwise_from, first_positions, must_wait, next_in, next_positions
from .clock import ClockError, LevelClock, parse_levels
from .pots import award, side_pots
from .shotclock import ShotClock

STREETS = ("preflop", "flop", "turn", "river", "showdown")
_MAX_CHIPS = 10**12


class SetupError(ValueError):
    """The setup makes no sense; the message says what is wrong."""


class Refused(Exception):
    """An event that cannot be applied; the message is shown to the dealer."""


def _as_int(v):
    """An int from an int or a string of digits, else None (bools refused)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.isdigit() and len(v) < 16:
        return int(v)
    return None


def _setup_int(setup, key, lo, hi, default=None):
    v = setup.get(key, default)
    n = _as_int(v)
    if n is None or n < lo or n > hi:
        raise SetupError("%s must be a whole number from %d to %d" % (key, lo, hi))
    return n


class Hand:
    """What one hand needs to remember (created at the dealer's hand press)."""

    def __init__(self, number, level, dealt, start):
        self.number = number
        self.level = level  # (level, sb, bb, ante) fixed when the hand starts
        self.dealt = dealt  # seats dealt in
        self.start = start  # {seat: chips at the start of the hand}
        self.live = []  # seats with live cards, ascending
        self.contrib = {}  # {seat: chips put in this hand, dead money included}
        self.posts = []  # [seat, amount, kind]
        self.street = 0  # index into STREETS
        self.bet = None  # Street
        self.actor = None
        self.show_order = []


class Table:
    """A table of *seats* seats running one tournament's clock and hands.

    :param setup: the replay contract's setup dict (see docs/replay.md).
    :raises SetupError: when the setup makes no sense.
    """

    def __init__(self, setup):
        if not isinstance(setup, dict):
            raise SetupError("The setup must be a JSON object")
        try:
            self.profile = profiles.get(setup.get("profile"))
        except ValueError as e:
            raise SetupError(str(e))
        p = self.profile
        self.n = _setup_int(setup, "seats", 2, 10)
        players = setup.get("players")
        if not isinstance(players, dict) or len(players) < 2:
            raise SetupError("players must map at least two seats to their chips")
        self.stacks = {}
        for k in players:
            s = _as_int(k)
            c = _as_int(players[k])
            if s is None or s < 1 or s > self.n:
                raise SetupError("players: %r is not a seat from 1 to %d" % (k, self.n))
            if c is None or c <= 0 or c > _MAX_CHIPS:
                raise SetupError("players: seat %d needs a positive whole number of chips" % s)
            if s in self.stacks:
                raise SetupError("players: seat %d is listed twice" % s)
            self.stacks[s] = c
        self.first_button = _setup_int(setup, "button", 1, self.n)
        self.chip = _setup_int(setup, "chip", 1, 10**9, 1)
        try:
            levels = parse_levels(setup.get("levels"))
        except ClockError as e:
            raise SetupError(str(e))
        colour_ups = setup.get("colour_ups", p["colour_ups"])
        if not isinstance(colour_ups, list) or not all(
            isinstance(c, dict) and _as_int(c.get("after_level")) is not None for c in colour_ups
        ):
            raise SetupError("colour_ups must be a list of {\"after_level\": n, ...}")
        late = setup.get("late_entry_until_level", p["late_entry_until_level"])
        if late is not None and _as_int(late) is None:
            raise SetupError("late_entry_until_level must be a level number")
        self.clock = LevelClock(levels, colour_ups, p["drop_levels_after"], late)
        shot = setup.get("shot_clock", {})
        if not isinstance(shot, dict):
            raise SetupError("shot_clock must be {\"seconds\": s, \"warning\": w}")
        limit = _as_int(shot.get("seconds", p["shot_clock"]))
        warn = _as_int(shot.get("warning", p["shot_warning"]))
        if limit is None or warn is None or limit < 1 or warn < 0 or warn >= limit:
            raise SetupError("shot_clock: seconds must be positive and the warning shorter")
        self.shot = ShotClock(limit, warn)
        self.away = AwayBook(p["away_rounds"] if p["away"] == "lppl" else 0)
        self.waiting = []  # newly seated players waiting for the button
        self.hands = 0
        self.hand = None
        self.btn, self.sb_pos, self.bb_pos = first_positions(
            self.first_button, sorted(self.stacks), self.n
        )
        self.sb_seat = self.sb_pos
        self.dealer = self.btn if self.btn in self.stacks else self.sb_pos
        self.busted = []
        self.bust_ties = []
        self.winners = {}
        self.removed = 0  # chips that left play with a bust or a disqualification
        self.last = None
        self.error = None

    # ------------------------------------------------------------ events
    def apply(self, ev):
        """Apply one event dict; return the state.  Never raises."""
        try:
            self._dispatch(ev)
            self.error = None
        except (Refused, ClockError) as e:
            self.error = str(e)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            # validation happens before any change, so state is intact
            self.error = "Bad event: %s" % e
        return self.state()

    def _dispatch(self, ev):
        if not isinstance(ev, dict):
            raise Refused('An event must be an object like {"do": "call"}')
        do = ev.get("do")
        if not isinstance(do, str):
            raise Refused('An event needs "do" naming what happened, e.g. "call"')
        fn = getattr(self, "_ev_" + do, None) if do.isalpha() else None
        if fn is None:
            raise Refused("Unknown event %r" % do[:20])
        fn(ev)

    # -- helpers for reading events
    def _seat(self, ev, occupied=True):
        s = _as_int(ev.get("seat"))
        if s is None:
            raise Refused('This event needs "seat": a seat number')
        if s < 1 or s > self.n:
            raise Refused("There is no seat %d at this %d-seat table" % (s, self.n))
        if occupied and s not in self.stacks:
            raise Refused("Seat %d is empty" % s)
        if not occupied and s in self.stacks:
            raise Refused("Seat %d is taken" % s)
        return s

    def _need_hand(self):
        h = self.hand
        if h is None:
            raise Refused("No hand is running: press New hand first")
        return h

    def _need_actor(self, ev):
        h = self._need_hand()
        if h.actor is None:
            raise Refused("Betting is over: enter the showdown")
        if "seat" in ev:
            s = _as_int(ev.get("seat"))
            if s != h.actor:
                raise Refused("It is seat %d's turn to act" % h.actor)
        return h, h.actor

    # -- betting
    def _ev_check(self, ev):
        h, s = self._need_actor(ev)
        owe = h.bet.to_call(s)
        if owe:
            raise Refused("Seat %d cannot check: call %d or fold" % (s, owe))
        self._check(s)
        self.last = "Seat %d checks" % s
        self._run(s)

    def _ev_call(self, ev):
        h, s = self._need_actor(ev)
        owe = h.bet.to_call(s)
        if owe == 0:  # "call" facing no bet is a check (TDA 49-A)
            self._check(s)
            self.last = "Seat %d checks" % s
        else:
            pay = min(owe, self.stacks[s])
            self._put(s, h.bet.bet_of(s) + pay)
            self.last = "Seat %d calls %d%s" % (s, pay, " all-in" if not self.stacks[s] else "")
        self._run(s)

    def _ev_fold(self, ev):
        h, s = self._need_actor(ev)
        self._fold(s)
        self.last = "Seat %d folds" % s
        self._run(s)

    def _ev_bet(self, ev):
        h, s = self._need_actor(ev)
        to = _as_int(ev.get("to"))
        if to is None:
            raise Refused('A bet or raise needs "to": the total for this street')
        self._raise(h, s, to)

    _ev_raise = _ev_bet

    def _ev_allin(self, ev):
        h, s = self._need_actor(ev)
        total = h.bet.bet_of(s) + self.stacks[s]
        if total <= h.bet.highest or not self._others_can_call(h, s):
            pay = min(self.stacks[s], h.bet.to_call(s))
            if pay == 0:
                self._check(s)
                self.last = "Seat %d checks" % s
            else:
                self._put(s, h.bet.bet_of(s) + pay)
                self.last = "Seat %d calls %d%s" % (
                    s, pay, " all-in" if not self.stacks[s] else "")
            self._run(s)
            return
        self._raise(h, s, total)

    def _raise(self, h, s, to):
        b = h.bet
        mine = b.bet_of(s)
        total = mine + self.stacks[s]
        word = "raise" if b.highest else "bet"
        if to <= b.highest:
            raise Refused(
                "Seat %d: a raise must go above the bet of %d (to match it, call)" % (s, b.highest))
        if to > total:
            raise Refused("Seat %d has only %d: the most it can %s to is %d" % (
                s, self.stacks[s], word, total))
        if not b.reopened_for(s):
            raise Refused("Seat %d can only call or fold: the all-in was not a full raise" % s)
        if not self._others_can_call(h, s):
            raise Refused("Nobody left can call a raise: seat %d can call or fold" % s)
        least = b.min_raise_to()
        if to < least and to != total:
            raise Refused("Seat %d: the minimum %s is to %d" % (s, word, least))
        self._put(s, to)
        allin = not self.stacks[s]
        self.last = "Seat %d %ss to %d%s" % (s, word, to, " all-in" if allin else "")
        self._run(s)

    def _ev_showdown(self, ev):
        h = self._need_hand()
        if STREETS[h.street] != "showdown":
            raise Refused("Betting is not finished yet")
        raw = ev.get("ranking")
        if not isinstance(raw, list) or not raw:
            raise Refused('Showdown needs "ranking": tiers of seats, best first, e.g. [[3], [1, 5]]')
        tiers = []
        seen = []
        for t in raw:
            tier = t if isinstance(t, list) else [t]
            out = []
            for x in tier:
                s = _as_int(x)
                if s is None or s not in h.live:
                    raise Refused("Ranking names %r, which has no live cards" % (x,))
                if s in seen:
                    raise Refused("Ranking names seat %d twice" % s)
                seen.append(s)
                out.append(s)
            if out:
                tiers.append(out)
        missing = [s for s in h.live if s not in seen]
        if missing:
            raise Refused("Ranking must include every live hand; missing seat %d" % missing[0])
        won = award(side_pots(h.contrib, h.live), tiers, self.btn, self.n, self._chip_unit())
        self.last = "Showdown: " + ", ".join(
            "seat %d wins %d" % (s, won[s]) for s in sorted(won) if won[s])
        self._end_hand(won)

    # -- seats
    def _ev_away(self, ev):
        s = self._seat(ev)
        if self.away.is_away(s):
            raise Refused("Seat %d is already away" % s)
        self.away.leave(s)
        self.last = "Seat %d is away" % s
        h = self.hand
        if h is not None and h.actor == s:
            self._run_auto()

    def _ev_back(self, ev):
        s = self._seat(ev)
        if not self.away.is_away(s):
            raise Refused("Seat %d is not away" % s)
        self.away.back(s)
        self.last = "Seat %d is back" % s

    def _ev_sit(self, ev):
        s = self._seat(ev, occupied=False)
        c = _as_int(ev.get("stack"))
        if c is None or c <= 0 or c > _MAX_CHIPS:
            raise Refused('Sit needs "stack": the player\'s chips, a positive whole number')
        self.stacks[s] = c
        if self.hands or self.hand is not None:
            self.waiting.append(s)
        self.last = "Seat %d sits down with %d" % (s, c)

    def _ev_leave(self, ev):
        s = self._seat(ev)
        if self.hand is not None and s in self.hand.live:
            raise Refused("Seat %d is still in this hand: finish the hand first" % s)
        self._empty(s)
        self.last = "Seat %d leaves the table" % s

    def _ev_bust(self, ev):
        s = self._seat(ev)
        if self.hand is not None and s in self.hand.live:
            raise Refused("Seat %d is still in this hand: finish the hand first" % s)
        self.removed += self.stacks[s]
        self._empty(s)
        self.busted.append(s)
        self.last = "Seat %d is out" % s

    def _empty(self, s):
        del self.stacks[s]
        self.away.forget(s)
        if s in self.waiting:
            self.waiting.remove(s)

    # -- clock
    def _ev_tick(self, ev):
        v = ev.get("s")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0 or v > 864000:
            raise Refused('Tick needs "s": seconds from 0 to 864000')
        ms = int(v * 1000 + 0.5)
        if self.clock.paused:
            return
        self.clock.advance(ms)
        if self.shot.advance(ms) >= 0:
            h = self.hand
            s = h.actor
            self.shot.stop()
            self.last = "Time: seat %d %s" % (s, "folds" if h.bet.to_call(s) else "checks")
            self._auto_act(h, s)
            self._run(s)

    def _ev_pause(self, ev):
        self.clock.pause()
        self.last = "Clock paused"

    def _ev_resume(self, ev):
        self.clock.resume()
        self.last = "Clock running"

    def _ev_adjust(self, ev):
        v = ev.get("s")
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 86400:
            raise Refused('Adjust needs "s": whole seconds to add (or remove, negative)')
        self.clock.adjust(v * 1000)
        self.last = "Clock %s %d s" % ("+" if v >= 0 else "-", abs(v))

    def _ev_jump(self, ev):
        n = _as_int(ev.get("level"))
        if n is None:
            raise Refused('Jump needs "level": the level number')
        self.clock.jump(n)
        self.last = "Level %d starts" % n

    def _ev_clock(self, ev):
        h, s = self._need_actor(ev)
        if self.shot.seat == s:
            raise Refused("The clock is already running on seat %d" % s)
        self.shot.call(s)
        self.last = "Clock called on seat %d" % s

    # ---------------------------------------------------------- the hand
    def _ev_hand(self, ev):
        if self.hand is not None:
            raise Refused("Finish the current hand first")
        if self.clock.on_break():
            raise Refused("No new hand during the break (%d s left)" % self.clock.seconds_left())
        if self.clock.paused:
            raise Refused("The clock is paused: resume it to deal")
        cands = sorted(s for s in self.stacks if self.stacks[s] > 0)
        if len(cands) < 2:
            raise Refused("Need at least two players with chips to deal a hand")
        wait = [s for s in self.waiting if s in cands]
        zone = self.profile["wait_zone"]
        dealt = cands
        pos = self._positions(cands)
        for _ in range(2):
            blocked = [s for s in wait if must_wait(s, pos[0], pos[1], zone, self.n)]
            now = [s for s in cands if s not in blocked]
            if now == dealt:
                break
            dealt = now
            if len(dealt) < 2:
                raise Refused("Need at least two players who may be dealt in")
            pos = self._positions(dealt)
        self._deal(dealt, pos)

    def _positions(self, players):
        if self.hands == 0:
            return first_positions(self.first_button, players, self.n)
        return next_positions(self.bb_pos, self.sb_pos, players, self.n)

    def _deal(self, dealt, pos):
        p = self.profile
        self.hands += 1
        self.waiting = [s for s in self.waiting if s not in dealt]
        self.btn, self.sb_pos, self.bb_pos = pos
        self.sb_seat = self.sb_pos if self.sb_pos in dealt else None
        self.dealer = self._find_dealer(dealt)
        level = self.clock.blinds()
        _, sb, bb, ante = level
        h = Hand(self.hands, level, dealt, {s: self.stacks[s] for s in dealt})
        self.hand = h
        self.busted = []
        self.bust_ties = []
        self.winners = {}
        self.shot.stop()
        h.contrib = {s: 0 for s in dealt}
        h.bet = Street(bb, p["min_raise"], bb)
        dead_deal = p["away"] == "dead_deal"
        h.live = [s for s in dealt if not (dead_deal and self.away.is_away(s))]
        every = [s for s in dealt if self.away.every_hand(s)]
        if ante:
            for s in dealt:
                self._post(h, s, ante, "ante", False)
        if self.sb_seat is not None:
            self._post(h, self.sb_seat, sb, "sb", True)
            if self.sb_seat in every:  # a BB every hand: the SB part is live
                self._post(h, self.sb_seat, bb - sb, "dead", False)
        self._post(h, self.bb_pos, bb, "bb", True)
        for s in every:
            if s != self.sb_seat and s != self.bb_pos:
                self._post(h, s, bb, "dead_bb", False)
            self.away.reached_stage(s)
        for s in (self.sb_seat, self.bb_pos):
            if s is not None and s not in every:
                self.away.blind_in_turn(s)
        self.last = "Hand %d: button %d, %s, BB seat %d" % (
            self.hands, self.btn,
            "SB seat %d" % self.sb_seat if self.sb_seat is not None else "dead SB", self.bb_pos)
        self._run(self.bb_pos)

    def _find_dealer(self, dealt):
        """The button deals; for an absent button the previous dealer deals
        (LPPL "the previous dealer will deal for them"; US 13)."""
        present = [s for s in dealt if not self.away.is_away(s)]
        if self.btn in present:
            return self.btn
        if self.dealer in present:
            return self.dealer
        right = [s for s in clockwise_from(self.btn, self.n, present)]
        return right[-1] if right else self.btn

    def _post(self, h, s, amount, kind, live):
        amt = min(amount, self.stacks[s])
        if amt <= 0:
            return
        self.stacks[s] -= amt
        h.contrib[s] += amt
        if live:
            h.bet.post(s, amt)
        h.posts.append([s, amt, kind])

    def _chip_unit(self):
        c = self.chip
        cu = self.clock.colour_ups
        for e in cu:
            n = _as_int(e.get("chip"))
            if n and n > c and self.clock.passed_level(e.get("after_level")):
                c = n
        return c

    def _put(self, s, total):
        h = self.hand
        add = total - h.bet.bet_of(s)
        self.stacks[s] -= add
        h.contrib[s] += add
        h.bet.put(s, total)
        if self.shot.seat == s:
            self.shot.stop()

    def _check(self, s):
        self.hand.bet.check(s)
        if self.shot.seat == s:
            self.shot.stop()

    def _fold(self, s):
        self.hand.live.remove(s)
        if self.shot.seat == s:
            self.shot.stop()

    def _others_can_call(self, h, s):
        for o in h.live:
            if o != s and self.stacks[o] > 0:
                return True
        return False

    def _needs_action(self, h, s):
        b = h.bet
        if s not in h.live or self.stacks[s] == 0 or b.done(s):
            return False
        if b.bet_of(s) >= b.highest and not self._others_can_call(h, s):
            return False
        return True

    def _auto(self, s):
        """Does the table act for seat *s* (away from the table)?"""
        return self.away.is_away(s)

    def _auto_act(self, h, s):
        if self.profile["away_auto"] == "fold" or h.bet.to_call(s):
            self._fold(s)
        else:
            self._check(s)

    def _run_auto(self):
        h = self.hand
        s = h.actor
        self.last = "Seat %d is away: %s" % (
            s, "folded" if self.profile["away_auto"] == "fold" or h.bet.to_call(s) else "checked")
        self._auto_act(h, s)
        self._run(s)

    def _run(self, frm):
        """Move the hand on from seat *frm* until a present player must act,
        the betting is over (showdown) or one player is left."""
        h = self.hand
        h.actor = None
        while True:
            if len(h.live) == 1:
                self._end_hand({h.live[0]: self._pot(h)})
                return
            s = frm
            nxt = None
            for _ in range(self.n):
                s = s % self.n + 1
                if self._needs_action(h, s):
                    nxt = s
                    break
            if nxt is None:
                if not self._close_street(h):
                    return
                frm = self.btn
                continue
            if self._auto(nxt):
                self._auto_act(h, nxt)
                frm = nxt
                continue
            h.actor = nxt
            return

    def _close_street(self, h):
        """End the street: return an uncalled bet, then deal on or stop for
        the showdown.  Returns True when a new betting street begins."""
        b = h.bet
        top = None
        high = second = 0
        for s in b.bets:
            v = b.bets[s]
            if v > high:
                second, high, top = high, v, s
            elif v > second:
                second = v
        if top is not None and high > second and top in h.live:
            back = high - second
            self.stacks[top] += back
            h.contrib[top] -= back
            b.bets[top] = second
        if len(h.live) == 1:
            return True  # _run ends the hand
        with_chips = [s for s in h.live if self.stacks[s] > 0]
        if len(with_chips) <= 1 or h.street == 3:
            h.street = 4
            h.show_order = self._show_order(h)
            return False
        h.street += 1
        h.bet = Street(h.level[2], self.profile["min_raise"], 0)
        return True

    def _show_order(self, h):
        """Who shows first: LPPL all-ins first, least chips first; then the
        last aggressor of the final street, else the first seat left of the
        button (TDA 14-A)."""
        start = h.bet.aggressor if h.bet.aggressor in h.live else None
        if start is None:
            order = clockwise_from(self.btn, self.n, h.live)
        else:
            order = [start] + [s for s in clockwise_from(start, self.n, h.live) if s != start]
        if self.profile["allins_show_first"]:
            allin = [s for s in order if self.stacks[s] == 0]
            # least chips first; ties keep table order (MicroPython's sort is not stable)
            allin.sort(key=lambda s: (h.contrib[s], order.index(s)))
            order = allin + [s for s in order if s not in allin]
        return order

    def _pot(self, h):
        t = 0
        for s in h.contrib:
            t += h.contrib[s]
        return t

    def _end_hand(self, won):
        h = self.hand
        for s in won:
            if s in self.stacks:
                self.stacks[s] += won[s]
        self.winners = won
        out = [s for s in h.dealt if self.stacks.get(s, 1) == 0]
        out.sort(key=lambda s: (h.start[s], s))  # a tie is listed by seat (and flagged)
        ties = []
        i = 0
        while i < len(out):
            j = i
            while j + 1 < len(out) and h.start[out[j + 1]] == h.start[out[i]]:
                j += 1
            if j > i:
                ties.append(out[i:j + 1])
            i = j + 1
        for s in out:
            self._empty(s)
        self.busted = out
        self.bust_ties = ties
        self.shot.stop()
        self.last_hand = h
        self.hand = None

    # ------------------------------------------------------------ state
    def state(self):
        """The replay contract's state: a fresh JSON-ready dict."""
        c = self.clock
        level, sb, bb, ante = c.blinds()
        h = self.hand
        st = {
            "profile": self.profile_name(),
            "level": level, "sb": sb, "bb": bb, "ante": ante,
            "next_level": None,
            "seconds_left": c.seconds_left(),
            "on_break": c.on_break(),
            "paused": c.paused,
            "hand": self.hands,
            "button": self.btn,
            "sb_seat": self.sb_seat,
            "bb_seat": self.bb_pos,
            "dealer": self.dealer,
            "street": None, "action": None, "to_call": None, "min_raise_to": None,
            "pot": 0, "in_hand": [], "bets": {}, "pots": [], "posts": [],
            "hand_level": None, "show_order": [],
            "stacks": {},
            "away": self.away.seats(),
            "waiting": sorted(self.waiting),
            "shot_clock": self.shot.seconds(),
            "clock_warning": self.shot.warning(),
            "busted": list(self.busted),
            "bust_ties": [list(t) for t in self.bust_ties],
            "winners": {},
            "colour_up": None,
            "late_entry_open": c.late_entry_open(),
            "last": self.last,
            "error": self.error,
        }
        nb = c.next_blinds()
        if nb:
            st["next_level"] = {"level": nb[0], "sb": nb[1], "bb": nb[2], "ante": nb[3]}
        cu = c.colour_up()
        if cu:
            st["colour_up"] = {"after_level": cu.get("after_level"), "remove": cu.get("remove"),
                               "chip": cu.get("chip"),
                               "rounding": self.profile["colour_up_rounding"]}
        for s in self.stacks:
            st["stacks"][str(s)] = self.stacks[s]
        for s in self.winners:
            st["winners"][str(s)] = self.winners[s]
        hh = h if h is not None else getattr(self, "last_hand", None)
        if hh is not None:
            st["posts"] = [{"seat": p[0], "amount": p[1], "kind": p[2]} for p in hh.posts]
            st["hand_level"] = {"level": hh.level[0], "sb": hh.level[1], "bb": hh.level[2],
                                "ante": hh.level[3]}
        if h is not None:
            st["street"] = STREETS[h.street]
            st["in_hand"] = list(h.live)
            st["pot"] = self._pot(h)
            b = h.bet
            for s in b.bets:
                if b.bets[s]:
                    st["bets"][str(s)] = b.bets[s]
            st["pots"] = [{"amount": a, "seats": e} for a, e in side_pots(h.contrib, h.live)]
            st["show_order"] = list(h.show_order)
            a = h.actor
            if a is not None:
                st["action"] = a
                owe = b.to_call(a)
                st["to_call"] = owe
                if self.stacks[a] > owe and b.reopened_for(a) and self._others_can_call(h, a):
                    st["min_raise_to"] = b.min_raise_to()
        return st

    def profile_name(self):
        for k in profiles.PROFILES:
            if profiles.PROFILES[k] is self.profile:
                return k
        return None
