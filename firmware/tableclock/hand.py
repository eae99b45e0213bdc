"""The course of one hand: posting, whose action, closing streets, showdown;
what a seat faces is betting.py's SeatBetting.  The rules and their sources:
docs/rules.md (§3, §6, §8, §10).
"""

from .betting import SeatBetting, Street
from .button import first_positions, must_wait, next_positions
from .fields import Refused

# why no new hand may start (``Table.hold``; the host's instructions set it,
# tcbox/instructions/at_table.py): hand for hand waiting for the TD, hand for hand with one
# hand allowed, the table broken, the final table's new seats awaited
HFH = "hfh"
HFH_ONE = "hfh1"
BROKEN = "broken"
REDRAW = "redraw"

STREETS = ("preflop", "flop", "turn", "river", "showdown")
SHOWDOWN = 4
NOBODY = []  # type: list  # an empty seat list shared by every deal: never appended to


class Hand(SeatBetting):
    """One hand at *table*, created by the dealer's New hand press: *level* is
    ``(level, sb, bb, ante)``, fixed for the whole hand; *dealt* the seats dealt in (ascending)."""

    def __init__(self, table, number, level, dealt):
        # type: (Any, int, Sequence[int], List[int]) -> None
        self.t = table
        self.start = {}  # type: Dict[int, int]  # {seat: chips at the start of the hand}
        # {seat: chips put in this hand, dead money included}
        self.contrib = {}  # type: Dict[int, int]
        self.live = []  # type: List[int]  # seats with live cards, ascending
        self.posts = []  # type: List[List[Any]]  # [seat, amount, kind]
        # rows of an earlier hand's posts, to be filled again
        self.spare_posts = []  # type: List[List[Any]]
        self.show_order = []  # type: List[int]
        # seats killed at the deal for a penalty (deal() sets it)
        self.penalised = []  # type: List[int]
        # seat -> [act, to, highest bet, street]: declared out of turn
        self.oot = {}  # type: Dict[int, List[Any]]
        # what happened in turn, for the dealer's undo: (op, seat, amount, mark)
        # op 0 put, 1 check, 2 fold, 3 kill; mark None for what the table did
        # by itself, the declaration for what it did for one made out of turn
        # (a list), else the shot clock's ms left on the seat (-1: none)
        self.log = []  # type: List[Tuple[int, int, int, Any]]
        self.bet = Street(level[2], table.profile["min_raise"], level[2])
        self.reset(number, level, dealt)

    def reset(self, number, level, dealt):  # type: (int, Sequence[int], List[int]) -> None
        """Make this object a new hand: the table deals into the last hand's object (deal_hand)
        and its dicts and lists are emptied in place (issue #20: a new Hand, its Street and its
        containers were about 1.5 KB of each New hand press; its posts' rows 1 KB more)."""
        table = self.t
        self.number = number
        self.level = level
        self.dealt = dealt
        self.start.clear()
        self.contrib.clear()
        for seat in dealt:
            self.start[seat] = table.stacks[seat]
            self.contrib[seat] = 0
        self.live.clear()
        spare = self.spare_posts
        while self.posts:
            spare.append(self.posts.pop())
        self.street = 0  # index into STREETS
        self.bet.reset(level[2], level[2])
        self.actor = None  # type: Optional[int]
        self.show_order.clear()
        self.oot.clear()
        self.log.clear()
        self.mark = None  # type: Any  # the mark of the next action: set by the table
        self.actions = 0  # actions in turn, and those that put chips in (TDA 30)
        self.paid = 0

    def substantial(self):  # type: () -> bool
        """Substantial action (TDA 30): two actions in turn of which one put
        chips in, or any three; posted blinds do not count."""
        return self.actions >= 3 or (self.actions >= 2 and self.paid >= 1)

    # -- posting -----------------------------------------------------
    def deal(self, sb_seat, bb_seat, entering, penalised=None):
        # type: (Optional[int], int, Iterable[int], Optional[List[int]]) -> None
        """Post antes and blinds (away seats per profile; *entering* seats post a dead big blind to
        enter), then find the first player to act. Seats on penalty are dealt in, post, and are
        killed at the deal (TDA 64-C)."""
        table = self.t
        _, sb, bb, ante = self.level
        dead_deal = table.profile["away"] == "dead_deal"
        if penalised is None:  # a re-deal keeps the first deal's (TDA 61)
            penalised = [seat for seat in self.dealt if table.floor.on_penalty(seat)]
        self.penalised = penalised
        for seat in self.dealt:  # filled in place (reset)
            if not ((dead_deal and table.away.is_away(seat)) or seat in penalised):
                self.live.append(seat)
        every = NOBODY  # a list of its own only when somebody posts every hand (issue #20)
        for seat in self.dealt:
            if table.away.every_hand(seat):
                if not every:
                    every = []
                every.append(seat)
        if ante:
            for seat in self.dealt:
                self.post(seat, ante, "ante", False)
        if sb_seat is not None:
            self.post(sb_seat, sb, "sb", True)
            if sb_seat in every:  # a BB every hand: the SB part is live
                self.post(sb_seat, bb - sb, "dead", False)
        self.post(bb_seat, bb, "bb", True)
        for seat in every:
            if seat != sb_seat and seat != bb_seat:
                self.post(seat, bb, "dead_bb", False)
            table.away.reached_stage(seat)
        if sb_seat is not None and sb_seat not in every:  # (no tuple of the two)
            table.away.blind_in_turn(sb_seat)
        if bb_seat is not None and bb_seat not in every:
            table.away.blind_in_turn(bb_seat)
        for seat in entering:  # LPPL: "post a dead big blind to enter"
            if seat in self.contrib:
                self.post(seat, bb, "dead_bb", False)
        self.run(bb_seat)

    def post(self, seat, amount, kind, live):  # type: (int, int, str, bool) -> None
        stacks = self.t.stacks
        amt = amount if amount < stacks[seat] else stacks[seat]
        if amt <= 0:
            return
        stacks[seat] -= amt
        self.contrib[seat] += amt
        if live:
            self.bet.post(seat, amt)
        spare = self.spare_posts
        if spare:  # a row of an earlier hand, filled in place (reset)
            row = spare.pop()
            row[0] = seat
            row[1] = amt
            row[2] = kind
        else:
            row = [seat, amt, kind]
        self.posts.append(row)

    # -- actions (legality checked by the table) ----------------------
    def _log(self, op, seat, amount):
        if seat in self.oot:  # a declaration waiting for this seat is spent (a check's limit)
            del self.oot[seat]
        if not self.t.replaying:
            self.log.append((op, seat, amount, self.mark))
        self.mark = None

    def put(self, seat, total):  # type: (int, int) -> None
        self._log(0, seat, total)
        add = total - self.bet.bet_of(seat)
        self.t.stacks[seat] -= add
        self.contrib[seat] += add
        self.bet.put(seat, total)
        self.t.shot.stop()
        self.actions += 1
        self.paid += 1

    def check(self, seat):  # type: (int) -> None
        self._log(1, seat, 0)
        self.bet.check(seat)
        self.t.shot.stop()
        self.actions += 1

    def fold(self, seat):  # type: (int) -> None
        self._log(2, seat, 0)
        self.live.remove(seat)
        self.t.shot.stop()
        self.actions += 1

    # -- moving on ---------------------------------------------------
    def needs_action(self, seat):  # type: (int) -> bool
        bet = self.bet
        if seat not in self.live or self.t.stacks[seat] == 0 or bet.done(seat):
            return False
        if not self.others_can_call(seat) and not self.to_call(seat):
            return False  # nobody left to bet against, nothing to call
        return True

    def run(self, frm):  # type: (int) -> None
        """Move on from seat *frm* until a present player must act, the
        betting is over (showdown) or one player is left (hand over)."""
        table = self.t
        n = table.n
        self.actor = None
        while True:
            if len(self.live) == 1:
                won = table.winners  # refilled in place (issue #20: no dict per hand)
                won.clear()
                won[self.live[0]] = self.pot()
                table.end_hand(won, None)
                return
            seat = frm
            nxt = None
            for _ in range(n):
                seat = seat % n + 1
                if self.needs_action(seat):
                    nxt = seat
                    break
            if nxt is None:
                if not self.close_street():
                    return
                frm = table.btn
                continue
            if table.away.is_away(nxt) and not table.replaying:
                self.auto_act(nxt)
                frm = nxt
                continue
            if nxt in self.oot and not table.replaying:
                # loaded at the first declaration out of turn (issue #20: not held by a
                # table that never sees one)
                from . import outofturn

                said = outofturn.take(self, nxt)
                if said is not None:
                    table.last = "%s; seat %d %s" % (table.last, nxt, said)
                    frm = nxt
                    continue
            self.actor = nxt
            return

    def close_street(self):  # type: () -> bool
        """Return an uncalled bet, then deal the next street or stop for the
        showdown.  Returns True when betting goes on."""
        bet = self.bet
        stacks = self.t.stacks
        top = None
        high = second = 0
        for seat in bet.bets:
            v = bet.bets[seat]
            if v > high:
                second, high, top = high, v, seat
            elif v > second:
                second = v
        if top is not None and high > second and top in self.live:
            back = high - second
            stacks[top] += back
            self.contrib[top] -= back
            bet.bets[top] = second
        if len(self.live) == 1:
            return True  # run() ends the hand
        with_chips = 0
        for seat in self.live:
            if stacks[seat] > 0:
                with_chips += 1
        if with_chips <= 1 or self.street == 3:
            self.street = SHOWDOWN
            showdown_order(self)
            return False
        self.street += 1
        self.bet.reset(self.level[2], 0)  # the same object, emptied (betting.py)
        return True

    def pot(self):  # type: () -> int
        total = 0
        for seat in self.contrib:
            total += self.contrib[seat]
        return total

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any, Collection, Dict, Iterable, List, Optional, Sequence, Tuple  # noqa: F401

    from .table import Table  # noqa: F401


def showdown_order(hand):  # type: (Hand) -> List[int]
    """Who shows first at *hand*'s showdown: the last aggressor, else the first live seat
    left of the button, then clockwise; with the profile's ``allins_show_first`` the
    all-in hands first, least chips first.  Written into ``show_order`` in place, no
    comprehensions, concatenations or sort keys (issue #20: about 600 B of the action that
    closed the betting).  A function, not a method: ``Hand`` stays under 300 lines."""
    table = hand.t
    n = table.n
    order = hand.show_order
    order.clear()
    begin = hand.bet.aggressor if hand.bet.aggressor in hand.live else table.btn % n + 1
    for k in range(n):  # clockwise from begin
        seat = (begin - 1 + k) % n + 1
        if seat in hand.live:
            order.append(seat)
    if table.profile["allins_show_first"]:
        m = 0  # the all-in hands moved to the front so far, least chips first
        for i in range(len(order)):
            seat = order[i]
            if table.stacks[seat] == 0:
                j = i
                while j > m:  # the others keep their order behind them
                    order[j] = order[j - 1]
                    j -= 1
                while j > 0 and hand.contrib[order[j - 1]] > hand.contrib[seat]:
                    order[j] = order[j - 1]  # ties keep table order
                    j -= 1
                order[j] = seat
                m += 1
    return order


# -- the table's New hand: who is dealt in, the button and blinds, hand for hand and held
# tables, a re-deal (functions of the table, ``new_hand`` registered in table.EVENTS)


def new_hand(table, ev):  # type: (Table, Dict[str, Any]) -> None
    if table.hand is not None:
        raise Refused(11)  # Finish the current hand first
    if table.hold == BROKEN:
        raise Refused(12)  # This table is broken: no more hands here
    if table.hold == HFH:
        raise Refused(13)  # Hand for hand: wait for the TD
    if table.hold == REDRAW:
        raise Refused(14)  # Re-draw: wait for the TD
    if table.moves:
        m = table.moves[0]
        # First the TD's %s at seat %d
        raise Refused(15, "chip removal" if m[1] == 2 else "take-out" if m[1] == 3
                      else "seat change", m[2])
    if table.clock.on_break():
        raise Refused(16, table.clock.seconds_left())  # No new hand during the break (%d s left)
    if table.clock.paused:
        raise Refused(17)  # The clock is paused: resume it to deal
    # loops, not comprehensions: each comprehension here built a
    # function object and closure cells (issue #20: 600 B a deal)
    # the last hand's list of seats dealt in, refilled: it is not shown between hands
    # (issue #20: 160 B of a nine-handed deal, bench alloc_hand_p99)
    cands = table.last_hand.dealt if table.last_hand is not None else []
    cands.clear()
    for seat in table.stacks:
        if table.stacks[seat] > 0:
            cands.append(seat)
    cands.sort()
    if len(cands) < 2:
        raise Refused(18)  # Need at least two players with chips to deal a hand
    zone = table.profile["wait_zone"]
    dealt = cands
    pos = _positions(table, cands)
    for _ in range(2):  # a waiting seat left out can change who is heads-up
        if not table.waiting:
            break  # nobody waits: every candidate is dealt in
        now = []
        for seat in cands:
            if not (seat in table.waiting and (
                    must_wait(seat, pos[0], pos[1], zone, table.n)
                    or (seat in table.held and seat == pos[0]))):  # "until the button passes"
                now.append(seat)
        if now == dealt:
            break
        if len(now) < 2:
            raise Refused(19)  # Need at least two players who may be dealt in
        dealt = now
        pos = _positions(table, dealt)
    for seat in table.entering:  # entering with a dead BB: dealt in at once
        if seat not in dealt:
            dealt = sorted(dealt + [seat])
    for seat in dealt:  # a loop, not all() over a generator (issue #20)
        if not (table.away.is_away(seat) or table.floor.on_penalty(seat)):
            break  # (where away hands are dead at the deal, none would be live either)
    else:
        raise Refused(20)  # Nobody here to play: every player is away or on penalty
    if table.hold == HFH_ONE:
        table.hold = HFH  # hand for hand: the one hand the TD allowed
    table.predeal = _snapshot(table, dealt, pos)
    # before the deal: a deal that ends the hand at once records its end after it
    table.fact("hand_started", table.hands + 1, pos[0])
    deal_hand(table, dealt, pos, table.clock.blinds())


def _snapshot(table, dealt, pos):
    """What the deal changes, for a misdeal (``predeal``, procedures._redeal)."""
    # the copies go into the containers of the last hand's snapshot,
    # emptied in place (issue #20: fresh copies were 750 B of a deal)
    old = table.spare_predeal
    table.spare_predeal = None
    if old is None:
        stacks = {}  # type: dict
        away = ({}, {}, [])  # type: tuple
        waiting = []  # type: list
        held = []  # type: list
        entering = []  # type: list
    else:
        stacks, away, waiting, held, entering = old[0], old[1], old[2], old[3], old[4]
    stacks.clear()
    stacks.update(table.stacks)
    table.away.record_into(away)
    waiting.clear()
    waiting.extend(table.waiting)
    held.clear()
    held.extend(table.held)
    entering.clear()
    entering.extend(table.entering)
    # None where the last hand stood: its object is dealt into (deal_hand)
    return (stacks, away, waiting, held, entering,
            (table.btn, table.sb_pos, table.bb_pos, table.sb_seat, table.dealer),
            table.hands, None, dealt, pos, table.seat_changes)


def _positions(table, players):
    if table.hands == 0:
        return first_positions(table.first_button, players, table.n)
    return next_positions(table.bb_pos, table.sb_pos, players, table.n)


def deal_hand(table, dealt, pos, level, penalised=None):
    # type: (Table, List[int], Any, Sequence[int], Optional[List[int]]) -> None
    table.hands += 1
    for seat in dealt:  # in place: predeal keeps its own copies (issue #20)
        if seat in table.waiting:
            table.waiting.remove(seat)
    table.held.clear()
    table.held.extend(table.waiting)
    table.btn, table.sb_pos, table.bb_pos = pos
    table.sb_seat = table.sb_pos if table.sb_pos in dealt else None
    if penalised is None:  # a re-deal keeps the first deal's (TDA 61)
        penalised = NOBODY  # a list of its own only when somebody is (issue #20: 64 B)
        for seat in dealt:
            if table.floor.on_penalty(seat):
                if not penalised:
                    penalised = []
                penalised.append(seat)
    table.dealer = _find_dealer(table, dealt, penalised)
    # a new empty container only where the old one is not empty (issue #20)
    table.busted.clear()  # in place: the state copies it (issue #20)
    if table.bust_ties:
        table.bust_ties = []
    table.winners.clear()  # in place: the next hand's are written into it
    table.shot.stop()
    table.undo_ok = False
    if table.undone:
        table.undone = []
    # the finished hand is shown only between hands: its object becomes
    # this one, emptied in place (issue #20: a new Hand, its Street and
    # containers were 1.5 KB of a deal), and one Hand per table is kept
    hand = table.last_hand
    table.last_hand = None
    if hand is None:
        hand = Hand(table, table.hands, level, dealt)
    else:
        hand.reset(table.hands, level, dealt)
    table.hand = hand
    if table.sb_seat is not None:  # one string, no part formatted apart (issue #20: 64 B)
        table.last = "Hand %d: button %d, SB seat %d, BB seat %d" % (
            table.hands, table.btn, table.sb_seat, table.bb_pos)
    else:
        table.last = "Hand %d: button %d, dead SB, BB seat %d" % (
            table.hands, table.btn, table.bb_pos)
    entering = table.entering
    if entering:
        table.entering = []
    hand.deal(table.sb_seat, table.bb_pos, entering, penalised)


def _find_dealer(table, dealt, penalised):
    """The button deals; for an absent or empty button the previous
    dealer deals (LPPL "the previous dealer will deal for them"; US 13
    "the player immediately to the right of the button deals")."""
    if _present(table, table.btn, dealt, penalised):
        return table.btn
    if _present(table, table.dealer, dealt, penalised):
        return table.dealer
    seat = table.btn
    for _ in range(table.n):  # the nearest present player to the right
        seat = (seat - 2) % table.n + 1
        if _present(table, seat, dealt, penalised):
            return seat
    return table.btn


def _present(table, seat, dealt, penalised):
    """Is *seat* dealt in and its player at the table (_find_dealer)?
    Asked per seat: no list of the present ones (issue #20)."""
    return (seat in dealt and not table.away.is_away(seat) and seat not in penalised
            and seat not in table.away.td)
