"""One betting round (street): to-call, minimum bet and raise (per profile
``min_raise``), reopening; and what a seat faces in a hand (SeatBetting).
Amounts are integer chips.  The rules: docs/rules.md, §6 "Betting".
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Dict, Iterable, List, Optional, Sequence  # noqa: F401 (type comments)


class Street:
    """Betting state of one street.

    :param bb: the hand's big blind (minimum bet and first full raise).
    :param rule: the profile's ``min_raise`` value.
    :param opening: the bet everyone faces at the start (the big blind before
        the flop, 0 after).
    """

    def __init__(self, bb, rule, opening):  # type: (int, str, int) -> None
        self.bb = bb
        self.rule = rule
        self.bets = {}  # type: Dict[int, int]
        self.acted = {}  # type: Dict[int, int]  # seat -> min_raise_to in force when it last acted
        self.hist = []  # type: List[List[int]]  # [seat, total] per action in turn, -1 for a check
        self.reset(bb, opening)

    def reset(self, bb, opening):  # type: (int, int) -> None
        """A new street on this object: its dicts and list are emptied in
        place rather than built again (issue #20: a new Street per street
        cost about 500 B of the event that closed a street)."""
        self.bb = bb
        self.bets.clear()
        self.acted.clear()
        self.hist.clear()
        self.highest = opening
        # the last bet level that was a full bet/raise, and the size of the
        # last full raise (the big blind counts as the opening full bet)
        self.full_level = opening
        self.last_full = bb
        self.aggressor = None  # type: Optional[int]

    def bet_of(self, seat):  # type: (int) -> int
        return self.bets.get(seat, 0)

    def to_call(self, seat):  # type: (int) -> int
        return max(0, self.highest - self.bet_of(seat))

    def min_raise_to(self):  # type: () -> int
        """The smallest total a full bet or raise must reach on this street.

        With no full bet yet after the flop the big blind stands in for the
        last full raise: TDA an all-in bet of 86 at 50/100 is raised to at
        least 186; LPPL treats it as no bet (a bet of 100 completes it); US
        completes it to the big blind and doubles it (200).
        """
        if self.rule == "double":
            if self.full_level:
                return 2 * self.full_level
            return 2 * self.bb if self.highest else self.bb
        if self.rule == "complete":
            return self.full_level + self.last_full
        return self.highest + self.last_full

    def reopened_for(self, seat):  # type: (int) -> bool
        """May *seat* raise? Yes if it has not acted on this street, or if
        the bet has since reached the full raise it faced when it acted."""
        if seat not in self.acted:
            return True
        return self.highest >= self.acted[seat]

    def post(self, seat, amount):  # type: (int, int) -> None
        """A live blind: counts toward the seat's bet, is not an action."""
        self.bets[seat] = self.bet_of(seat) + amount

    def put(self, seat, total):  # type: (int, int) -> bool
        """*seat* brings its bet to *total* (caller checked legality).

        Returns True when the action was a full bet or raise.
        """
        full = False
        if total > self.highest:
            if total >= self.min_raise_to():
                full = True
                if self.rule == "complete" or self.rule == "double":
                    self.last_full = total - self.full_level
                else:
                    self.last_full = total - self.highest
                self.full_level = total
            self.highest = total
            self.aggressor = seat
        self.bets[seat] = total
        self.acted[seat] = self.min_raise_to()
        self.hist.append([seat, total])
        return full

    def check(self, seat):  # type: (int) -> None
        self.acted[seat] = self.min_raise_to()
        self.hist.append([seat, -1])

    def without(self, seat, opening, blinds):
        # type: (int, int, Iterable[Sequence[int]]) -> Street
        """This street again as if *seat* had never bet on it (its hand was
        killed: its chips are no live bet).  *blinds*: the live blinds
        ``[[seat, amount]]`` posted on it, *opening* the bet faced at its
        start."""
        st = Street(self.bb, self.rule, opening)
        for blind in blinds:
            if blind[0] != seat:
                st.post(blind[0], blind[1])
        for entry in self.hist:
            if entry[0] == seat:
                continue
            if entry[1] < 0:
                st.check(entry[0])
            else:
                st.put(entry[0], entry[1])
        return st

    def done(self, seat):  # type: (int) -> bool
        """Has *seat* nothing more to do this street (acted and matched)?"""
        return seat in self.acted and self.bet_of(seat) >= self.highest


TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401


class SeatBetting:
    """What *seat* faces in a hand: the call, whether it may raise, the
    table acting for it (a base class of hand.Hand, on its ``bet``, ``live``,
    ``oot`` and table ``t``)."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        bet = None  # type: Any
        live = None  # type: Any
        oot = None  # type: Any
        t = None  # type: Any

        def fold(self, seat):
            pass

        def check(self, seat):
            pass

    def to_call(self, seat):  # type: (int) -> int
        """What *seat* must add to stay in: the highest bet, except that the
        last player with chips faces only what the live all-ins put in (a
        short all-in big blind: LPPL ¶19 "action on whatever amount of chips
        he has remaining"); a killed hand's bet is no live bet (kill)."""
        bet = self.bet
        owe = bet.to_call(seat)
        if owe and not self.others_can_call(seat):
            need = 0
            for other in self.live:
                if other != seat and bet.bet_of(other) > need:
                    need = bet.bet_of(other)
            mine = bet.bet_of(seat)
            owe = need - mine if need > mine else 0
        return owe

    def call_amount(self, seat):  # type: (int) -> int
        owe = self.to_call(seat)
        stack = self.t.stacks[seat]
        return owe if owe < stack else stack

    def can_raise(self, seat):  # type: (int) -> bool
        """May *seat* bet or raise now (chips beyond the call, betting
        reopened for it, somebody left who could call)?"""
        return (self.t.stacks[seat] > self.to_call(seat) and self.bet.reopened_for(seat)
                and self.raise_callable(seat) and seat not in self.oot)

    def raise_callable(self, seat):  # type: (int) -> bool
        """Could anyone else put in more than the current highest bet?  If
        not, a raise by *seat* could never be called."""
        stacks = self.t.stacks
        bet = self.bet
        for other in self.live:
            if other != seat and bet.bet_of(other) + stacks[other] > bet.highest:
                return True
        return False

    def others_can_call(self, seat):  # type: (int) -> bool
        """Has any other live player chips behind?"""
        stacks = self.t.stacks
        for other in self.live:
            if other != seat and stacks[other] > 0:
                return True
        return False

    def timed_out(self, seat):  # type: (int) -> str
        """The shot clock expired on *seat* (TDA 25): dead facing a bet, else
        checked."""
        if self.to_call(seat):
            self.fold(seat)
            return "folds"
        self.check(seat)
        return "checks"

    def auto_act(self, seat):  # type: (int) -> str
        """The table acts for an absent player whose turn it is."""
        if self.t.profile["away_auto"] == "fold" or self.to_call(seat):
            self.fold(seat)
            return "folded"
        self.check(seat)
        return "checked"
