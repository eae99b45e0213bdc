"""The table's betting events: check, call, fold, bet, raise, all-in, an action
out of turn and the showdown's ranking.  A base class of tableclock.table.Table; the rules:
docs/rules.md, §6 "Betting" and §8 "Showdown order".
"""

from . import outofturn
from .fields import Refused, as_int
from .hand import SHOWDOWN
from .pots import award, side_pots

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

    _ev_raise = _ev_bet
