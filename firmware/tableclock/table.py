"""One poker table: seats, the level clock and the hand in play.

The replay contract's engine (docs/replay.md): ``Table(setup)``, then
``apply(event)`` per event, each returning the state dict (``handle`` does
the same without building the state).  A refused event changes nothing and
sets ``error`` to a sentence a dealer understands: every handler checks
before it changes anything.

Two attributes belong to the host's instructions (tcbox/orders.py sets
them; the record keeps them): ``hold``, why no new hand may start (hand for
hand, a broken table), and ``moves``, seat changes and chip removals
waiting for the hand's end.  ``hand`` refuses while either stands in the
way.

The rules live in the modules this one calls: clock (levels), button (dead
button, heads-up, waiting seats), betting (who may bet what), hand (the
course of a hand), pots (side pots, odd chips), away (absent players'
blinds), shotclock.  docs/rules.md maps each to the sentence it comes from.
"""

from . import config, floor, outofturn
from .away import AwayBook
from .button import first_positions, must_wait, next_positions
from .clock import ClockError
from .fields import MAX_CHIPS, Refused, SetupError, as_int, check_whole, ms_of, seconds
from .hand import SHOWDOWN, Hand
from .pots import award, coloured, side_pots
from .state import state

__all__ = ["Table", "Refused", "SetupError"]

# why no new hand may start (``Table.hold``; the host's instructions set it,
# tcbox/orders.py): hand for hand waiting for the TD, hand for hand with one
# hand allowed, the table broken, the final table's new seats awaited
HFH = "hfh"
HFH_ONE = "hfh1"
BROKEN = "broken"
REDRAW = "redraw"

# events after which the dealer's undo still takes back the last action: the
# actions themselves (each saves a new undo point) and what leaves a hand alone
_ACTIONS = ("check", "call", "fold", "bet", "raise", "allin")
_KEEPS_UNDO = _ACTIONS + ("tick", "pause", "resume", "adjust", "jump", "clock", "warn", "oot")


class Table:
    """A table of ``seats`` seats running one tournament's clock and hands.

    :param setup: the replay contract's setup dict (docs/replay.md).
    :raises SetupError: when the setup makes no sense.
    """

    def __init__(self, setup):
        if not isinstance(setup, dict):
            raise SetupError("The setup must be a JSON object")
        p = config.profile_of(setup)
        self.setup = setup  # kept for the power-loss record (record.py)
        self.profile = p
        self.profile_name = setup.get("profile")
        self.n = config.setup_int(setup, "seats", 2, 10)
        self.stacks = config.seats_of(setup, self.n)
        self.first_button = config.setup_int(setup, "button", 1, self.n)
        self.chip = config.chip_of(setup)
        self.clock = config.clock_of(setup, p)
        self.shot = config.shot_clock_of(setup, p)
        self.away = AwayBook(p["away_rounds"] if p["away"] == "lppl" else 0)
        for s in config.absent_of(setup, self.stacks):
            self.away.leave(s, late=True)
        self.floor = floor.FloorBook()
        self.waiting = []  # newly seated players waiting for the button
        self.held = []  # waiting seats already held back once: not dealt on the button
        self.entering = []  # seats that post a dead big blind to enter
        self.seat_changes = 0  # sits, leaves and busts (a misdeal needs none)
        self.predeal = None  # what the deal changed, for a misdeal
        self.spare_predeal = None  # the last hand's predeal: its containers are refilled
        self.undo_ok = False  # the last event was an action the dealer may undo
        self.undo_text = None  # what that action was
        self.replaying = False  # an undo is playing the hand again
        self.undone = []  # what the dealer undid in this hand
        self.hands = 0
        self.hand = None
        self.last_hand = None  # shown between hands; its object is dealt into next (_deal)
        self.btn, self.sb_pos, self.bb_pos = first_positions(
            self.first_button, sorted(self.stacks), self.n)
        self.sb_seat = self.sb_pos
        self.dealer = self.btn if self.btn in self.stacks else self.sb_pos
        self.busted = []
        self.bust_ties = []
        self.winners = {}
        self.removed = 0  # chips that left play (busts, colour-up rounding, deductions)
        self.hold = None  # None, HFH, HFH_ONE or BROKEN (above)
        # the host's seat changes (and chip removals) waiting for the hand's end
        # (tcbox/orders.py): [instruction id, kind (0 out, 1 in, 2 deduct), seat,
        # to_table / stack / chips, to_seat / from_table / None]
        self.moves = []
        self.last = None
        self.error = None

    # ------------------------------------------------------------ events
    def apply(self, ev):
        """Apply one event dict; return the state.  Never raises."""
        self.handle(ev)
        return state(self)

    def state(self):
        return state(self)

    def handle(self, ev):
        """Apply one event dict without building the state (the box's path).

        Returns None when accepted, else the refusal sentence (kept in
        ``error`` too).
        """
        try:
            self._dispatch(ev)
            self.error = None
            if ev["do"] not in _KEEPS_UNDO:  # only the last action can be undone
                self.undo_ok = False
            elif ev["do"] in _ACTIONS:
                self.undo_text = self.last
        except (Refused, ClockError) as e:
            self.error = str(e)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            self.error = "Bad event: %s" % e
        return self.error

    def _dispatch(self, ev):
        if not isinstance(ev, dict):
            raise Refused('An event must be an object like {"do": "call"}')
        do = ev.get("do")
        if not isinstance(do, str):
            raise Refused('An event needs "do" naming what happened, e.g. "call"')
        check_whole(ev)  # chips and seats are whole numbers, never "200" or 2.0
        fn = getattr(self, "_ev_" + do, None) if do.replace("_", "a").isalpha() else None
        if fn is not None and do[:1] != "_":
            fn(ev)
            return
        fn = floor.EVENTS.get(do)
        if fn is None:
            raise Refused("Unknown event %r" % do[:20])
        fn(self, ev)

    def _seat(self, ev, occupied=True):
        s = as_int(ev.get("seat"))
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
        if self.hand is None:
            raise Refused("No hand is running: press New hand first")
        return self.hand

    def _need_actor(self, ev):
        h = self._need_hand()
        if h.actor is None:
            raise Refused("Betting is over: enter the showdown")
        if "seat" in ev and as_int(ev.get("seat")) != h.actor:
            raise Refused("It is seat %d's turn to act" % h.actor)
        return h, h.actor

    def _between_hands(self, what):
        if self.hand is not None:
            raise Refused("Finish the hand first, then %s" % what)

    # -- betting -------------------------------------------------------
    def _save_undo(self, h):
        """The dealer's action that follows may be undone: mark it in the log
        with the shot clock it interrupts."""
        self.undo_ok = True
        h.mark = self.shot.left_ms if self.shot.seat == h.actor else -1

    def _ev_check(self, ev):
        h, s = self._need_actor(ev)
        owe = h.to_call(s)
        if owe:
            raise Refused("Seat %d cannot check: call %d or fold" % (s, owe))
        self._save_undo(h)
        h.check(s)
        self.last = "Seat %d checks" % s
        h.run(s)

    def _ev_call(self, ev):
        h, s = self._need_actor(ev)
        self._save_undo(h)
        self._call(h, s)

    def _call(self, h, s):
        pay = h.call_amount(s)
        if pay == 0:  # "call" facing no bet is a check (TDA 49-A)
            h.check(s)
            self.last = "Seat %d checks" % s
        else:
            h.put(s, h.bet.bet_of(s) + pay)
            self.last = "Seat %d calls %d%s" % (s, pay, "" if self.stacks[s] else " all-in")
        h.run(s)

    def _ev_fold(self, ev):
        h, s = self._need_actor(ev)
        self._save_undo(h)
        h.fold(s)
        self.last = "Seat %d folds" % s
        h.run(s)

    def _ev_bet(self, ev):
        h, s = self._need_actor(ev)
        to = as_int(ev.get("to"))
        if to is None:
            raise Refused('A bet or raise needs "to": the total for this street')
        self._raise(h, s, to)

    _ev_raise = _ev_bet

    def _ev_allin(self, ev):
        h, s = self._need_actor(ev)
        total = h.bet.bet_of(s) + self.stacks[s]
        if total <= h.bet.highest or not h.raise_callable(s) or s in h.oot:
            self._save_undo(h)
            self._call(h, s)  # all the chips do not beat the bet: a call
        else:
            self._raise(h, s, total)

    def _raise(self, h, s, to):
        b = h.bet
        total = b.bet_of(s) + self.stacks[s]
        word = "raise" if b.highest else "bet"
        if to <= b.highest:
            raise Refused("Seat %d: a raise must go above the bet of %d (to match it, call)"
                          % (s, b.highest))
        if to > total:
            raise Refused("Seat %d has only %d: the most it can %s to is %d"
                          % (s, self.stacks[s], word, total))
        if not b.reopened_for(s):
            raise Refused("Seat %d can only call or fold: the all-in was not a full raise" % s)
        if s in h.oot:
            raise Refused("Seat %d checked out of turn: now call or fold" % s)
        if not h.raise_callable(s):
            raise Refused("Nobody left can call a raise: seat %d can call or fold" % s)
        least = b.min_raise_to()
        if to < least and to != total:
            raise Refused("Seat %d: the minimum %s is to %d" % (s, word, least))
        self._save_undo(h)
        h.put(s, to)
        self.last = "Seat %d %ss to %d%s" % (s, word, to, "" if self.stacks[s] else " all-in")
        h.run(s)

    def _ev_oot(self, ev):
        outofturn.declare(self, ev)

    def _ev_showdown(self, ev):
        h = self._need_hand()
        if h.street != SHOWDOWN:
            raise Refused("Betting is not finished yet")
        tiers = self._ranking(h, ev.get("ranking"))
        won = award(side_pots(h.contrib, h.live), tiers, self.btn, self.n, self.chip_unit())
        text = "Showdown:"  # one string per winner: no generator, no list of parts (issue #20)
        sep = " "
        for s in sorted(won):
            if won[s]:
                text = "%s%sseat %d wins %d" % (text, sep, s, won[s])
                sep = ", "
        self.last = text
        self.end_hand(won, tiers)

    def _ranking(self, h, raw):
        if not isinstance(raw, list) or not raw:
            raise Refused('Showdown needs "ranking": tiers of seats, best first: [[3], [1, 5]]')
        tiers = []
        seen = []
        for tier in raw:
            if not isinstance(tier, list):
                tier = [tier]
            out = []
            for x in tier:
                s = as_int(x)
                if s is None or s not in h.live:
                    raise Refused("The ranking names %r, which has no live cards" % (x,))
                if s in seen:
                    raise Refused("The ranking names seat %d twice" % s)
                seen.append(s)
                out.append(s)
            if out:
                tiers.append(out)
        for s in h.live:
            if s not in seen:
                raise Refused("The ranking must include every live hand: seat %d is missing" % s)
        return tiers

    # -- seats ---------------------------------------------------------
    def _ev_away(self, ev):
        s = self._seat(ev)
        if self.away.is_away(s):
            raise Refused("Seat %d is already away" % s)
        self.away.back(s)  # (from TD business)
        self.away.leave(s)
        self.last = "Seat %d is away" % s
        h = self.hand
        if h is not None and h.actor == s:
            self.undo_ok = False
            self.last = "Seat %d is away: %s" % (s, h.auto_act(s))
            h.run(s)

    def _ev_td_business(self, ev):
        """LPPL ¶6: "a TD's hand cannot be folded if the action is with him but
        he is away from his seat on TD business ... the other players on his
        table must wait until his return unless he clearly states he is
        folding"."""
        s = self._seat(ev)
        if s in self.away.td:
            raise Refused("Seat %d is already away on TD business" % s)
        self.away.back(s)
        self.away.td.append(s)
        self.last = "Seat %d is away on TD business: the table waits" % s

    def _ev_back(self, ev):
        s = self._seat(ev)
        if not self.away.is_away(s) and s not in self.away.td:
            raise Refused("Seat %d is not away" % s)
        self.away.back(s)
        self.last = "Seat %d is back" % s

    def _ev_sit(self, ev):
        s = self._seat(ev, occupied=False)
        c = as_int(ev.get("stack"))
        if c is None or c <= 0 or c > MAX_CHIPS:
            raise Refused('Sit needs "stack": the player\'s chips, a positive whole number')
        used = ev.get("away_used", False)
        if not isinstance(used, bool):
            raise Refused('"away_used" must be true or false')
        self.stacks[s] = c
        self.seat_changes += 1
        if used:  # LPPL ¶72 "only allowed once per player": used at another table
            self.away.reached_stage(s)
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
        self.seat_changes += 1
        self.away.forget(s)
        self.floor.forget(s)
        if s in self.waiting:
            self.waiting.remove(s)
        if s in self.held:
            self.held.remove(s)
        if s in self.entering:
            self.entering.remove(s)

    def _ev_colour_up(self, ev):
        """Colour the stacks up to the chip of the colour-up in force (or
        ``chip``), rounding per profile (LPPL nearest, TDA 21 up)."""
        self._between_hands("colour up")
        unit = ev.get("chip")
        if unit is None:
            cu = self.clock.colour_up()
            unit = cu.get("chip") if cu else None
        unit = as_int(unit)
        if not unit or unit < 1:
            raise Refused('No colour-up is due: give "chip", the smallest chip left in play')
        up = self.profile["colour_up_rounding"] == "up"
        for s in self.stacks:
            c = self.stacks[s]
            self.stacks[s] = coloured(c, unit, up)
            self.removed += c - self.stacks[s]
        if unit > self.chip:
            self.chip = unit
        self.last = "Colour-up: stacks rounded %s to %d" % ("up" if up else "to the nearest", unit)

    # -- clock ---------------------------------------------------------
    def _ev_tick(self, ev):
        self.advance(ms_of(seconds(ev, "s", 0, 864000), 1000))

    def advance(self, ms):
        """Let *ms* milliseconds pass (the box's loop calls this directly;
        nothing is allocated unless something happens).  Returns True when
        a level or break ended or the shot clock expired."""
        if self.clock.paused:
            return False
        ended = self.clock.advance(ms)
        if self.shot.advance(ms) < 0:
            return ended > 0
        h = self.hand
        s = h.actor
        rule = self.profile["clock_expiry"]
        if rule == "alert":  # US 4: "not to be used as a strict enforcement"
            self.shot.run_out()
            self.last = "Time: seat %d, %d s are up" % (s, self.shot.limit_ms // 1000)
            return True
        self.shot.stop()
        self.undo_ok = False
        if rule == "slow_play":  # LPPL ¶51: "1st time a warning, thereafter automatic fold"
            self.last = "Time is up. " + floor.slow_play(self, s)
            return True
        self.last = "Time: seat %d %s" % (s, h.timed_out(s))
        h.run(s)
        return True

    def _ev_pause(self, ev):
        self.clock.pause()
        self.last = "Clock paused"

    def _ev_resume(self, ev):
        self.clock.resume()
        self.last = "Clock running"

    def _ev_adjust(self, ev):
        v = seconds(ev, "s", -86400, 86400, whole=True)
        self.clock.adjust(v * 1000)
        self.last = "Clock %s%d s" % ("+" if v >= 0 else "-", abs(v))

    def _ev_jump(self, ev):
        n = as_int(ev.get("level"))
        if n is None:
            raise Refused('Jump needs "level": the level number')
        self.clock.jump(n)
        self.last = "Level %d starts" % n

    def _ev_clock(self, ev):
        h, s = self._need_actor(ev)
        if self.shot.seat == s:
            raise Refused("The clock is already running on seat %d" % s)
        if s in self.away.td:
            raise Refused("Seat %d is away on TD business: the table waits" % s)
        self.shot.call(s)
        self.last = "Clock called on seat %d" % s

    # ---------------------------------------------------------- the hand
    def _ev_hand(self, ev):
        if self.hand is not None:
            raise Refused("Finish the current hand first")
        if self.hold == BROKEN:
            raise Refused("This table is broken: no more hands here")
        if self.hold == HFH:
            raise Refused("Hand for hand: wait for the TD")
        if self.hold == REDRAW:
            raise Refused("Re-draw: wait for the TD")
        if self.moves:
            m = self.moves[0]
            raise Refused("First the TD's %s at seat %d" % (
                "chip removal" if m[1] == 2 else "take-out" if m[1] == 3 else "seat change",
                m[2]))
        if self.clock.on_break():
            raise Refused("No new hand during the break (%d s left)" % self.clock.seconds_left())
        if self.clock.paused:
            raise Refused("The clock is paused: resume it to deal")
        # loops, not comprehensions: each comprehension here built a
        # function object and closure cells (issue #20: 600 B a deal)
        cands = []
        for s in self.stacks:
            if self.stacks[s] > 0:
                cands.append(s)
        cands.sort()
        if len(cands) < 2:
            raise Refused("Need at least two players with chips to deal a hand")
        zone = self.profile["wait_zone"]
        dealt = cands
        pos = self._positions(cands)
        for _ in range(2):  # a waiting seat left out can change who is heads-up
            if not self.waiting:
                break  # nobody waits: every candidate is dealt in
            now = []
            for s in cands:
                if not (s in self.waiting and (
                        must_wait(s, pos[0], pos[1], zone, self.n)
                        or (s in self.held and s == pos[0]))):  # "until the button passes"
                    now.append(s)
            if now == dealt:
                break
            if len(now) < 2:
                raise Refused("Need at least two players who may be dealt in")
            dealt = now
            pos = self._positions(dealt)
        for s in self.entering:  # entering with a dead BB: dealt in at once
            if s not in dealt:
                dealt = sorted(dealt + [s])
        for s in dealt:  # a loop, not all() over a generator (issue #20)
            if not (self.away.is_away(s) or self.floor.on_penalty(s)):
                break  # (where away hands are dead at the deal, none would be live either)
        else:
            raise Refused("Nobody here to play: every player is away or on penalty")
        if self.hold == HFH_ONE:
            self.hold = HFH  # hand for hand: the one hand the TD allowed
        self.predeal = self._snapshot(dealt, pos)
        self._deal(dealt, pos, self.clock.blinds())

    def _snapshot(self, dealt, pos):
        """What the deal changes, for a misdeal (``predeal``, redeal)."""
        # the copies go into the containers of the last hand's snapshot,
        # emptied in place (issue #20: fresh copies were 750 B of a deal)
        old = self.spare_predeal
        self.spare_predeal = None
        if old is None:
            stacks = {}  # type: dict
            away = ({}, {}, [])  # type: tuple
            waiting = []  # type: list
            held = []  # type: list
            entering = []  # type: list
        else:
            stacks, away, waiting, held, entering = old[0], old[1], old[2], old[3], old[4]
        stacks.clear()
        stacks.update(self.stacks)
        self.away.record_into(away)
        waiting.clear()
        waiting.extend(self.waiting)
        held.clear()
        held.extend(self.held)
        entering.clear()
        entering.extend(self.entering)
        # None where the last hand stood: its object is dealt into (_deal)
        return (stacks, away, waiting, held, entering,
                (self.btn, self.sb_pos, self.bb_pos, self.sb_seat, self.dealer),
                self.hands, None, dealt, pos, self.seat_changes)

    def redeal(self, level, now_away=True):
        """Undo the deal and everything since, then deal the same hand again
        at *level* (misdeal: the same level; TDA 20 restart: the clock's).
        With *now_away* the players away now are away for the new deal;
        else the deal's own (the undo re-plays the hand).  Returns the seats
        away now."""
        (stacks, away, waiting, held, entering, posn, hands, _, dealt, pos,
         _) = self.predeal
        penalised = self.hand.penalised
        away_now = self.away.seats()
        self.stacks = dict(stacks)
        self.away.restore(away)
        if now_away:  # who is at the table now decides the re-deal
            self.set_away(away_now)
        self.waiting = list(waiting)
        self.held = list(held)
        self.entering = list(entering)
        self.btn, self.sb_pos, self.bb_pos, self.sb_seat, self.dealer = posn
        self.hands = hands
        self.last_hand = self.hand  # the hand thrown in: its object is dealt again (_deal)
        self.hand = None
        self._deal(dealt, pos, level, penalised)
        return away_now

    def set_away(self, seats):
        """Make exactly *seats* the away ones (keeping the books of those
        already away)."""
        for s in seats:
            if not self.away.is_away(s):
                self.away.leave(s)
        for s in self.away.seats():
            if s not in seats:
                self.away.back(s)

    def _positions(self, players):
        if self.hands == 0:
            return first_positions(self.first_button, players, self.n)
        return next_positions(self.bb_pos, self.sb_pos, players, self.n)

    def _deal(self, dealt, pos, level, penalised=None):
        self.hands += 1
        for s in dealt:  # in place: predeal keeps its own copies (issue #20)
            if s in self.waiting:
                self.waiting.remove(s)
        self.held.clear()
        self.held.extend(self.waiting)
        self.btn, self.sb_pos, self.bb_pos = pos
        self.sb_seat = self.sb_pos if self.sb_pos in dealt else None
        if penalised is None:  # a re-deal keeps the first deal's (TDA 61)
            penalised = []
            for s in dealt:
                if self.floor.on_penalty(s):
                    penalised.append(s)
        self.dealer = self._find_dealer(dealt, penalised)
        # a new empty container only where the old one is not empty (issue #20)
        if self.busted:
            self.busted = []
        if self.bust_ties:
            self.bust_ties = []
        if self.winners:
            self.winners = {}
        self.shot.stop()
        self.undo_ok = False
        if self.undone:
            self.undone = []
        # the finished hand is shown only between hands: its object becomes
        # this one, emptied in place (issue #20: a new Hand, its Street and
        # containers were 1.5 KB of a deal), and one Hand per table is kept
        h = self.last_hand
        self.last_hand = None
        if h is None:
            h = Hand(self, self.hands, level, dealt)
        else:
            h.reset(self.hands, level, dealt)
        self.hand = h
        self.last = "Hand %d: button %d, %s, BB seat %d" % (
            self.hands, self.btn,
            "SB seat %d" % self.sb_seat if self.sb_seat is not None else "dead SB", self.bb_pos)
        entering = self.entering
        if entering:
            self.entering = []
        h.deal(self.sb_seat, self.bb_pos, entering, penalised)

    def _find_dealer(self, dealt, penalised):
        """The button deals; for an absent or empty button the previous
        dealer deals (LPPL "the previous dealer will deal for them"; US 13
        "the player immediately to the right of the button deals")."""
        if self._present(self.btn, dealt, penalised):
            return self.btn
        if self._present(self.dealer, dealt, penalised):
            return self.dealer
        s = self.btn
        for _ in range(self.n):  # the nearest present player to the right
            s = (s - 2) % self.n + 1
            if self._present(s, dealt, penalised):
                return s
        return self.btn

    def _present(self, s, dealt, penalised):
        """Is seat *s* dealt in and its player at the table (_find_dealer)?
        Asked per seat: no list of the present ones (issue #20)."""
        return (s in dealt and not self.away.is_away(s) and s not in penalised
                and s not in self.away.td)

    def chip_unit(self):
        """The smallest chip in play: the setup's, raised by colour-ups."""
        c = self.chip
        for e in self.clock.colour_ups:
            n = as_int(e.get("chip"))
            if n and n > c and self.clock.passed_level(e.get("after_level")):
                c = n
        return c

    def end_hand(self, won, tiers):
        """Pay *won*, then take out the busted players in finishing order:
        fewer chips at the start of the hand finishes lower (LPPL, US 14);
        LPPL: with equal chips the better hand finishes higher; still equal
        -> listed by seat and flagged in ``bust_ties`` for the TD."""
        h = self.hand
        for s in won:
            if s in self.stacks:
                self.stacks[s] += won[s]
        self.winners = won
        self.floor.hands_dealt(h.penalised)  # missed one more hand each
        use_hand = tiers is not None and self.profile["bust_tiebreak_hand"]

        out = None  # built only when somebody busts (issue #20: 200 B a hand)
        for s in h.dealt:
            if self.stacks.get(s, 1) == 0:
                if out is None:
                    out = []
                out.append(s)
        if out is not None:
            self._bust_out(out, h, tiers if use_hand else None)
        self.shot.stop()
        self.last_hand = h
        self.hand = None
        self.undo_ok = False
        self.spare_predeal = self.predeal
        self.predeal = None

    def _bust_out(self, out, h, tiers):
        """Take out the seats of *out* in finishing order (end_hand); *tiers*
        when the showdown's hands break ties."""
        def rank(s):
            if tiers is not None:
                for i in range(len(tiers)):
                    if s in tiers[i]:
                        return (h.start[s], -i)
                return (h.start[s], -len(tiers))  # no hand at the showdown: lowest
            return (h.start[s], 0)

        out.sort(key=lambda s: (rank(s), s))
        ties = []
        i = 0
        while i < len(out):
            j = i
            while j + 1 < len(out) and rank(out[j + 1]) == rank(out[i]):
                j += 1
            if j > i:
                ties.append(out[i:j + 1])
            i = j + 1
        for s in out:
            self._empty(s)
        self.busted = self.busted + out  # after any taken out during the hand
        self.bust_ties = ties
