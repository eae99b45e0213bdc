"""Floor procedures at the table: misdeals, the dealer's undo, warnings,
penalties, killed hands, disqualification, entering late and the TD's
deductions.  The rules and their sources: docs/rules.md, §13 "Floor
procedures".

Rare events: table.py imports this module at the first of them, not at
boot (issue #20: 6.3 KB of heap held without one, .mpy; the 200-hand replay
92 -> 86 KiB).
"""

from .fields import MAX_CHIPS, Refused, as_int
from .floor import empty_seat
from .hand import SHOWDOWN, deal_hand

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Collection, Dict, List, Sequence  # noqa: F401 (type comments)

    from .hand import Hand  # noqa: F401
    from .table import Table  # noqa: F401


# -- misdeal, relevel and undo ---------------------------------------------
def _check_redeal(table, what):
    hand = table._need_hand()
    if hand.substantial():
        raise Refused("Substantial action has occurred: no %s, the hand must go on" % what)
    if table.predeal is None or table.predeal[-1] != table.seat_changes:
        raise Refused("The seating changed during this hand: call the TD (no %s)" % what)
    return hand


# -- the steps of a redeal, an undo and a killed hand ---------------------------
# (here, not on Hand and Table: a table that never sees a procedure does not
# hold them; issue #20: about 2 KB of heap, .mpy)
def _redeal(table, level, now_away=True):  # type: (Table, Sequence[int], bool) -> List[int]
    """Undo the deal and everything since, then deal the same hand again
    at *level* (misdeal: the same level; TDA 20 restart: the clock's).
    With *now_away* the players away now are away for the new deal;
    else the deal's own (the undo re-plays the hand).  Returns the seats
    away now."""
    (stacks, away, waiting, held, entering, posn, hands, _, dealt, pos,
     _) = table.predeal
    penalised = table.hand.penalised
    away_now = table.away.seats()
    table.stacks = dict(stacks)
    table.away.restore(away)
    if now_away:  # who is at the table now decides the re-deal
        _set_away(table, away_now)
    table.waiting = list(waiting)
    table.held = list(held)
    table.entering = list(entering)
    table.btn, table.sb_pos, table.bb_pos, table.sb_seat, table.dealer = posn
    table.hands = hands
    table.last_hand = table.hand  # the hand thrown in: its object is dealt again (deal_hand)
    table.hand = None
    deal_hand(table, dealt, pos, level, penalised)
    return away_now


def _set_away(table, seats):  # type: (Table, Collection[int]) -> None
    """Make exactly *seats* the away ones (keeping the books of those
    already away)."""
    for seat in seats:
        if not table.away.is_away(seat):
            table.away.leave(seat)
    for seat in table.away.seats():
        if seat not in seats:
            table.away.back(seat)


def _kill(hand, seat):  # type: (Hand, int) -> None
    """Kill a live hand out of turn (a penalty, a phone at the table); not an action in turn.
    Its bet on this street is no live bet: the street goes on as if it had never bet, and its
    chips stay in the pot as dead money, or, where the profile returns an uncalled bet
    (``killed_bet``), the part nobody called goes back."""
    hand._log(3, seat, 0)
    hand.live.remove(seat)
    if hand.t.shot.seat == seat:
        hand.t.shot.stop()
    if seat in hand.show_order:
        hand.show_order.remove(seat)
    bet = hand.bet
    if hand.street == SHOWDOWN or seat not in bet.bets:
        return
    mine = bet.bets[seat]
    blinds = [[post[0], post[1]] for post in hand.posts if post[2] == "sb" or post[2] == "bb"] \
        if hand.street == 0 else []
    called = 0  # the most anyone else, or the seat's own blind, put in
    for other in bet.bets:
        if other != seat and bet.bets[other] > called:
            called = bet.bets[other]
    for post in blinds:
        if post[0] == seat and post[1] > called:
            called = post[1]
    back = mine - called
    if back > 0 and hand.t.profile["killed_bet"] == "returned":
        hand.t.stacks[seat] += back
        hand.contrib[seat] -= back
    hand.bet = bet.without(seat, hand.level[2] if hand.street == 0 else 0, blinds)


def _replay(hand, entry):  # type: (Hand, Sequence[Any]) -> None
    """Do logged *entry* again (the dealer's undo re-plays the hand)."""
    op, seat, amount = entry[0], entry[1], entry[2]
    if op == 0:
        hand.put(seat, amount)
    elif op == 1:
        hand.check(seat)
    elif op == 2:
        hand.fold(seat)
    else:
        _kill(hand, seat)
        _after_kill(hand, seat)
        return
    hand.run(seat)


def _after_kill(hand, seat):  # type: (Hand, int) -> None
    """Move on after *seat*'s hand was killed out of turn, if that ended the
    hand or left the player to act with nothing to do."""
    if len(hand.live) == 1:
        hand.run(seat)
    elif hand.actor is not None and not hand.needs_action(hand.actor):
        hand.run(hand.actor)


def misdeal(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Void the hand and deal it again at the same level: everything posted
    goes back and is posted again, away blinds are not counted twice."""
    hand = _check_redeal(table, "misdeal")
    _redeal(table, hand.level)
    table.last = "Misdeal: hand %d dealt again" % table.hands


def foul(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """A fouled deck: "regardless of SA, play will stop and all bets will be
    returned" (TDA 29-E): the hand is dealt again with a new deck."""
    hand = table._need_hand()
    if table.predeal is None or table.predeal[-1] != table.seat_changes:
        raise Refused("The seating changed during this hand: call the TD")
    _redeal(table, hand.level)
    table.last = "Fouled deck: all bets returned, hand %d dealt again" % table.hands


def relevel(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Restart a hand dealt at an old level at the clock's level (TDA 20)."""
    hand = _check_redeal(table, "restart")
    if table.clock.on_break():
        raise Refused("It is the break: the hand goes on at level %d" % hand.level[0])
    level = table.clock.blinds()
    if level[0] == hand.level[0]:
        raise Refused("This hand is already at level %d" % level[0])
    _redeal(table, level)
    table.last = "Hand %d restarted at level %d" % (table.hands, level[0])


def undo(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Take back the last action of this hand (until the next one): the
    hand is dealt again as it was and every earlier action re-played, so
    nothing but a short log is kept per action."""
    hand = table.hand
    if hand is None:
        raise Refused("No hand is running: nothing to undo")
    k = len(hand.log) - 1
    declared = dict(hand.oot)  # what was declared out of turn and still waits
    while k >= 0 and not isinstance(hand.log[k][3], int):  # the table's own moves after it
        if hand.log[k][3] is not None:  # carried out for a declaration: it waits again
            declared[hand.log[k][1]] = hand.log[k][3]
        k -= 1
    if not table.undo_ok or k < 0:
        raise Refused("Nothing to undo: only the last action of this hand can be undone")
    if table.predeal is None or table.predeal[-1] != table.seat_changes:
        raise Refused("The seating changed during this hand: it cannot be undone")
    keep = hand.log[:k]
    mark = hand.log[k]
    seat = mark[1]
    last = table.undo_text or table.last
    undone = table.undone + [last]
    table.replaying = True
    try:
        away_now = _redeal(table, hand.level, False)
        hand = table.hand
        for entry in keep:
            _replay(hand, entry)
    finally:
        table.replaying = False
    hand.log = keep
    _set_away(table, away_now)
    if mark[3] >= 0:  # the shot clock it had stopped runs on
        table.shot.seat = seat
        table.shot.left_ms = mark[3]
    table.undone = undone
    table.last = "Undone: %s" % last
    table.undo_ok = False
    hand.oot = declared
    actor = hand.actor
    if actor is not None and table.away.is_away(actor):  # left the table meanwhile
        hand.auto_act(actor)
        hand.run(actor)
    elif actor is not None and actor in declared:
        hand.run((actor - 2) % table.n + 1)  # the action is with them: their declaration now


# -- warnings, penalties, killed hands ---------------------------------------
def warn(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev)
    table.floor.warnings[seat] = table.floor.warnings.get(seat, 0) + 1
    table.last = "Seat %d: warning %d" % (seat, table.floor.warnings[seat])


def penalty(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """A missed-hand (``hands``) or missed-round (``rounds``) penalty; it
    starts with the next hand dealt."""
    seat = table._seat(ev)
    hands = ev.get("hands")
    rounds = ev.get("rounds")
    if (hands is None) == (rounds is None):
        raise Refused('A penalty needs "hands" or "rounds" (one of them)')
    n = as_int(hands if hands is not None else rounds)
    if n is None or n < 1 or n > 100:
        raise Refused("A penalty is 1 to 100 hands or rounds")
    if rounds is not None:
        n *= len(table.stacks)  # one hand per player at the table, him included
    table.floor.penalties[seat] = table.floor.penalties.get(seat, 0) + n
    table.last = "Seat %d: penalty, misses %d hands" % (seat, table.floor.penalties[seat])


def _kill_now(table, seat):
    """Kill *seat*'s live hand now, out of turn."""
    hand = table.hand
    if hand is None or seat not in hand.live:
        return False
    table.undo_ok = False
    if hand.actor == seat:
        hand.fold(seat)
        hand.run(seat)
        return True
    _kill(hand, seat)
    _after_kill(hand, seat)  # the last live hand wins; a killed bet no longer faced
    return True


def kill(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Fold a seat's hand at once (LPPL: a phone at the table)."""
    seat = table._seat(ev)
    hand = table.hand
    if hand is None or seat not in hand.live:
        raise Refused("Seat %d has no live hand to kill" % seat)
    _kill_now(table, seat)
    table.last = "Seat %d: hand killed" % seat


def slow(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Slow play: a warning the first time; in LPPL an automatic fold after
    that, elsewhere another warning for the TD to act on."""
    seat = table._seat(ev)
    hand = table.hand
    if table.floor.slow.get(seat, 0) > 0 and table.profile["slow_play_folds"] and (
            hand is None or seat not in hand.live):
        raise Refused("Seat %d has been warned; there is no live hand to fold" % seat)
    table.last = slow_play(table, seat)


def slow_play(table, seat):  # type: (Any, int) -> str
    """*seat* played slowly (the TD's ``slow``, or in LPPL a called clock
    that ran out): one more warning, and in LPPL after an earlier slow-play
    warning its live hand is folded.  Returns the sentence."""
    n = table.floor.slow.get(seat, 0)
    table.floor.slow[seat] = n + 1
    table.floor.warnings[seat] = table.floor.warnings.get(seat, 0) + 1
    if n > 0 and table.profile["slow_play_folds"] and _kill_now(table, seat):
        return "Seat %d: slow play again, hand folded" % seat
    return "Seat %d: slow play, warning %d" % (seat, n + 1)


def disqualify(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Take a player out: a live hand is killed, the chips behind leave play."""
    seat = table._seat(ev)
    chips = table.stacks[seat]
    start = table.hand.start.get(seat) if table.hand is not None else None
    number = table.hands if table.hand is not None else None
    _kill_now(table, seat)
    if seat in table.stacks:  # (else an all-in seat busted at the hand's end it ended)
        table.fact("bust", seat, chips if start is None else start, number)
        table.removed += table.stacks[seat]
        empty_seat(table, seat)
    table.busted.append(seat)
    table.last = "Seat %d disqualified: %d chips removed from play" % (seat, chips)


# -- entering late -----------------------------------------------------------
def enter(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """A latecomer takes a seat (or a registered player who was not seated
    at the start arrives).  ``stack`` as the host computed it (after any
    latecomer deduction); ``dead_bb`` to post a dead big blind to enter."""
    seat = as_int(ev.get("seat"))
    if seat is None or seat < 1 or seat > table.n:
        raise Refused('Enter needs "seat": a seat from 1 to %d' % table.n)
    stack = ev.get("stack")
    if stack is not None:
        stack = as_int(stack)
        if stack is None or stack <= 0 or stack > MAX_CHIPS:
            raise Refused('"stack" must be a positive whole number of chips')
    dead = ev.get("dead_bb", False)
    if not isinstance(dead, bool):
        raise Refused('"dead_bb" must be true or false')
    if seat in table.stacks:
        if not table.away.is_late(seat):
            raise Refused("Seat %d is already playing" % seat)
        if table.hand is not None and seat in table.hand.live:
            raise Refused("Seat %d is in this hand: enter after it" % seat)
        if stack is not None:
            table.removed += table.stacks[seat] - stack
            table.stacks[seat] = stack
        if table.hand is not None:  # a re-deal or undo would lose the new stack or dead BB
            table.seat_changes += 1
        table.away.back(seat)
    else:
        if stack is None:
            raise Refused('Enter needs "stack" for an empty seat')
        table.stacks[seat] = stack
        table.seat_changes += 1
        if not dead and (table.hands or table.hand is not None):
            table.waiting.append(seat)
    if dead and seat not in table.entering:
        table.entering.append(seat)
    table.last = "Seat %d enters with %d%s" % (
        seat, table.stacks[seat], ", dead big blind" if dead else "")


# -- chips the TD takes away -------------------------------------------------
def deduct(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """The TD removes ``chips`` from seat ``seat``'s stack; they leave play
    (``removed``, as a bust's).  Refused for a seat dealt into the running
    hand (its stack is in play until the hand ends) and when the stack is
    not larger than ``chips`` (taking a player's last chip is the TD's
    decision: ``bust``).  During a hand, for a seat sitting it out, the
    deal's snapshot is reduced too, so a misdeal or undo keeps it."""
    seat = table._seat(ev)
    n = as_int(ev.get("chips"))
    if n is None or n < 1 or n > MAX_CHIPS:
        raise Refused('Deduct needs "chips": how many chips to remove, a positive whole number')
    hand = table.hand
    if hand is not None and seat in hand.dealt:
        raise Refused("Seat %d is in this hand: remove the chips after it" % seat)
    if n >= table.stacks[seat]:
        raise Refused("Seat %d has only %d chips: ask the TD" % (seat, table.stacks[seat]))
    table.stacks[seat] -= n
    table.removed += n
    if hand is not None and table.predeal is not None and seat in table.predeal[0]:
        table.predeal[0][seat] -= n  # a re-deal starts from the stacks at the deal
    table.last = "Seat %d: %d chips removed from play" % (seat, n)

