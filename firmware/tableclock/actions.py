"""The table's betting events: check, call, fold, bet, raise, all-in, an action
out of turn and the showdown's ranking.  A base class of tableclock.table.Table; the rules:
docs/rules.md, §6 "Betting" and §8 "Showdown order".
"""

from .fields import Refused, as_int
from .hand import SHOWDOWN
from .pots import award_into

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401


class BettingEvents:
    """The table's betting events: check, call, fold, bet, raise, all-in, an action
    out of turn and the showdown's ranking (a base class of table.Table, on its attributes)."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        _need_actor = None  # type: Any
        _need_hand = None  # type: Any
        btn = None  # type: Any
        chip_unit = None  # type: Any
        end_hand = None  # type: Any
        last = None  # type: Any
        n = None  # type: Any
        shot = None  # type: Any
        stacks = None  # type: Any
        undo_ok = None  # type: Any
        winners = None  # type: Any

    def _save_undo(self, hand):
        """The dealer's action that follows may be undone: mark it in the log
        with the shot clock it interrupts."""
        self.undo_ok = True
        hand.mark = self.shot.left_ms if self.shot.seat == hand.actor else -1

    def _ev_check(self, ev):
        hand = self._need_actor(ev)
        seat = hand.actor
        owe = hand.to_call(seat)
        if owe:
            raise Refused(21, seat, owe)  # Seat %d cannot check: call %d or fold
        self._save_undo(hand)
        hand.check(seat)
        self.last = "Seat %d checks" % seat
        hand.run(seat)

    def _ev_call(self, ev):
        hand = self._need_actor(ev)
        seat = hand.actor
        self._save_undo(hand)
        self._call(hand, seat)

    def _call(self, hand, seat):
        pay = hand.call_amount(seat)
        if pay == 0:  # "call" facing no bet is a check (TDA 49-A)
            hand.check(seat)
            self.last = "Seat %d checks" % seat
        else:
            hand.put(seat, hand.bet.bet_of(seat) + pay)
            self.last = "Seat %d calls %d%s" % (seat, pay, "" if self.stacks[seat] else " all-in")
        hand.run(seat)

    def _ev_fold(self, ev):
        hand = self._need_actor(ev)
        seat = hand.actor
        self._save_undo(hand)
        hand.fold(seat)
        self.last = "Seat %d folds" % seat
        hand.run(seat)

    def _ev_bet(self, ev):
        hand = self._need_actor(ev)
        seat = hand.actor
        to = as_int(ev.get("to"))
        if to is None:
            raise Refused(22)  # A bet or raise needs "to": the total for this street
        self._raise(hand, seat, to)

    def _ev_allin(self, ev):
        hand = self._need_actor(ev)
        seat = hand.actor
        total = hand.bet.bet_of(seat) + self.stacks[seat]
        if total <= hand.bet.highest or not hand.raise_callable(seat) or seat in hand.oot:
            self._save_undo(hand)
            self._call(hand, seat)  # all the chips do not beat the bet: a call
        else:
            self._raise(hand, seat, total)

    def _raise(self, hand, seat, to):
        bet = hand.bet
        total = bet.bet_of(seat) + self.stacks[seat]
        word = "raise" if bet.highest else "bet"
        if to <= bet.highest:
            # Seat %d: a raise must go above the bet of %d (to match it, call)
            raise Refused(23, seat, bet.highest)
        if to > total:
            # Seat %d has only %d: the most it can %s to is %d
            raise Refused(24, seat, self.stacks[seat], word, total)
        if not bet.reopened_for(seat):
            # Seat %d can only call or fold: the all-in was not a full raise
            raise Refused(25, seat)
        if seat in hand.oot:
            raise Refused(26, seat)  # Seat %d checked out of turn: now call or fold
        if not hand.raise_callable(seat):
            raise Refused(27, seat)  # Nobody left can call a raise: seat %d can call or fold
        least = bet.min_raise_to()
        if to < least and to != total:
            raise Refused(28, seat, word, least)  # Seat %d: the minimum %s is to %d
        self._save_undo(hand)
        hand.put(seat, to)
        self.last = "Seat %d %ss to %d%s" % (seat, word, to, "" if self.stacks[seat] else " all-in")
        hand.run(seat)

    def _ev_oot(self, ev):
        from . import outofturn  # loaded at the first one (hand.py run)

        outofturn.declare(self, ev)

    def _ev_showdown(self, ev):
        hand = self._need_hand()
        if hand.street != SHOWDOWN:
            raise Refused(29)  # Betting is not finished yet
        tiers = self._ranking(hand, ev.get("ranking"))
        won = self.winners  # refilled in place (issue #20: no dict per showdown)
        won.clear()
        award_into(won, hand.contrib, hand.live, tiers, self.btn, self.n, self.chip_unit())
        text = None  # one string per winner, in seat order: no sorted list (issue #20)
        for seat in range(1, self.n + 1):
            if won.get(seat):
                if text is None:
                    text = "Showdown: seat %d wins %d" % (seat, won[seat])
                else:
                    text = "%s, seat %d wins %d" % (text, seat, won[seat])
        self.last = text if text is not None else "Showdown:"
        self.end_hand(won, tiers)

    def _ranking(self, hand, raw):
        """The tiers of seats of the showdown's *raw* ranking, best first, checked.  A ranking
        of lists of seats is used as it is, not copied (issue #20: the copies were about
        300 B of every showdown, bench alloc_showdown_p99)."""
        if not isinstance(raw, list) or not raw:
            raise Refused(30)  # Showdown needs "ranking": tiers of seats, best first: [[3], [1, 5]]
        plain = True  # every tier a list of seats: used as it is
        for t in range(len(raw)):
            tier = raw[t]
            if isinstance(tier, list):
                if not tier:
                    plain = False
                for i in range(len(tier)):
                    if not _ranked(hand, raw, t, i, tier[i]):
                        plain = False
            else:
                plain = False
                _ranked(hand, raw, t, 0, tier)
        for seat in hand.live:
            if not _names(raw, len(raw), 0, seat):
                # The ranking must include every live hand: seat %d is missing
                raise Refused(31, seat)
        if plain:
            return raw
        tiers = []  # single seats or empty tiers: the tiers written out
        for tier in raw:
            if not isinstance(tier, list):
                tier = [tier]
            if tier:
                out = []
                for x in tier:
                    out.append(as_int(x))
                tiers.append(out)
        return tiers

    _ev_raise = _ev_bet


def _ranked(hand, raw, t, i, x):
    """Check *x*, the *i*-th seat of tier *t* of the showdown's ranking *raw*: live, named once.
    Returns whether it is an int (the ranking can be used as it is)."""
    seat = as_int(x)
    if seat is None or seat not in hand.live:
        raise Refused(32, x)  # The ranking names %r, which has no live cards
    if _names(raw, t, i, seat):
        raise Refused(33, seat)  # The ranking names seat %d twice
    return seat is x


def _names(raw, t, i, seat):
    """Does the ranking *raw* name *seat* before the *i*-th seat of tier *t*?"""
    for k in range(len(raw)):
        if k > t:
            break
        tier = raw[k]
        if isinstance(tier, list):
            for j in range(len(tier) if k < t else i):
                if as_int(tier[j]) == seat:
                    return True
        elif k < t and as_int(tier) == seat:
            return True
    return False
