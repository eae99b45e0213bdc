"""The table's betting events: check, call, fold, bet, raise, all-in, an action
out of turn and the showdown's ranking: each a function of the table and the event,
registered in ``table.EVENTS``.  The rules: docs/rules.md, §6 "Betting" and §8
"Showdown order".
"""

from .fields import Refused, as_int
from .hand import SHOWDOWN
from .pots import award_into

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict  # noqa: F401 (type comments)

    from .table import Table  # noqa: F401


def _save_undo(table, hand):
    """The dealer's action that follows may be undone: mark it in the log
    with the shot clock it interrupts."""
    table.undo_ok = True
    hand.mark = table.shot.left_ms if table.shot.seat == hand.actor else -1


def check(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    owe = hand.to_call(seat)
    if owe:
        raise Refused(21, seat, owe)  # Seat %d cannot check: call %d or fold
    _save_undo(table, hand)
    _call(table, hand, seat)  # nothing to call: _call checks


def call(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    _save_undo(table, hand)
    _call(table, hand, seat)


def _call(table, hand, seat):
    pay = hand.call_amount(seat)
    if pay == 0:  # "call" facing no bet is a check (TDA 49-A)
        hand.check(seat)
        table.last = "Seat %d checks" % seat
    else:
        hand.put(seat, hand.bet.bet_of(seat) + pay)
        table.last = "Seat %d calls %d%s" % (seat, pay, "" if table.stacks[seat] else " all-in")
    hand.run(seat)


def fold(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    _save_undo(table, hand)
    hand.fold(seat)
    table.last = "Seat %d folds" % seat
    hand.run(seat)


def bet(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    to = as_int(ev.get("to"))
    if to is None:
        raise Refused(22)  # A bet or raise needs "to": the total for this street
    _raise(table, hand, seat, to)


def allin(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    total = hand.bet.bet_of(seat) + table.stacks[seat]
    if total <= hand.bet.highest or not hand.raise_callable(seat) or seat in hand.oot:
        _save_undo(table, hand)
        _call(table, hand, seat)  # all the chips do not beat the bet: a call
    else:
        _raise(table, hand, seat, total)


def _raise(table, hand, seat, to):
    bet = hand.bet
    total = bet.bet_of(seat) + table.stacks[seat]
    word = "raise" if bet.highest else "bet"
    if to <= bet.highest:
        # Seat %d: a raise must go above the bet of %d (to match it, call)
        raise Refused(23, seat, bet.highest)
    if to > total:
        # Seat %d has only %d: the most it can %s to is %d
        raise Refused(24, seat, table.stacks[seat], word, total)
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
    _save_undo(table, hand)
    hand.put(seat, to)
    table.last = "Seat %d %ss to %d%s" % (seat, word, to, "" if table.stacks[seat] else " all-in")
    hand.run(seat)


def oot(table, ev):  # type: (Table, Dict[str, Any]) -> None
    from . import outofturn  # loaded at the first one (hand.py run)

    outofturn.declare(table, ev)


def showdown(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_hand()
    if hand.street != SHOWDOWN:
        raise Refused(29)  # Betting is not finished yet
    tiers = _ranking(hand, ev.get("ranking"))
    won = table.winners  # refilled in place (issue #20: no dict per showdown)
    won.clear()
    award_into(won, hand.contrib, hand.live, tiers, table.btn, table.n, table.chip_unit())
    text = None  # one string per winner, in seat order: no sorted list (issue #20)
    for seat in range(1, table.n + 1):
        if won.get(seat):
            if text is None:
                text = "Showdown: seat %d wins %d" % (seat, won[seat])
            else:
                text = "%s, seat %d wins %d" % (text, seat, won[seat])
    table.last = text if text is not None else "Showdown:"
    table.end_hand(won, tiers)


def _ranking(hand, raw):
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
