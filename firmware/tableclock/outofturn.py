"""Action out of turn: a player's declaration before the action reached them
(``Hand.oot``), taken or not when it does (``take``), per profile (``oot``).
The rules and their sources: docs/rules.md, §13 "Action out of turn".
"""

from .fields import Refused, as_int

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Dict, Optional  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .hand import Hand  # noqa: F401


ACTS = ("check", "call", "fold", "bet", "raise", "allin")
NO_RAISE = "no raise"  # a declared check now facing a bet (LPPL): call or fold only


def declare(table, ev):  # type: (Any, Dict[str, Any]) -> None
    """The ``oot`` event: seat ``seat`` declared ``act`` (``to`` for a bet or
    raise) out of turn."""
    hand = table._need_hand()
    seat = table._seat(ev)
    act = ev.get("act")
    if act not in ACTS:
        raise Refused('Out of turn needs "act": check, call, fold, bet, raise or allin')
    if hand.actor is None:
        raise Refused("Betting is over: enter the showdown")
    if seat == hand.actor:
        raise Refused("It is seat %d's turn: enter the action itself" % seat)
    if seat in hand.oot:
        raise Refused("Seat %d has already acted out of turn" % seat)
    if seat not in hand.live or not hand.needs_action(seat):
        raise Refused("Seat %d has nothing to do now" % seat)
    to = None
    if act == "bet" or act == "raise":
        to = as_int(ev.get("to"))
        if to is None or to <= hand.bet.highest or to > hand.bet.bet_of(seat) + table.stacks[seat]:
            raise Refused("Seat %d: a raise out of turn needs \"to\", above %d and at most %d"
                          % (seat, hand.bet.highest, hand.bet.bet_of(seat) + table.stacks[seat]))
    hand.oot[seat] = [act, to, hand.bet.highest, hand.street]
    table.last = "Seat %d: %s%s out of turn" % (seat, act, " to %d" % to if to else "")


def take(hand, seat):  # type: (Hand, int) -> Optional[str]
    """The action reached *seat* with a declaration waiting: carry it out
    when it binds.  Returns the sentence for the table's message when the
    table acted for *seat*, else None (the player acts: all options, or
    call/fold only)."""
    rec = hand.oot.pop(seat)
    act, to, high, street = rec
    if act == NO_RAISE:
        return None
    hand.mark = rec  # the table's move, logged with the declaration (the undo restores it)
    same = street == hand.street and high == hand.bet.highest
    owe = hand.to_call(seat)
    if act == "fold":  # binding everywhere (TDA 47 "An OOT fold is binding")
        hand.fold(seat)
        return "folds (out of turn)"
    if not same and hand.t.profile["oot"] != "binding":
        return None  # TDA 47: not binding, all options
    if act == "check" and owe:
        hand.oot[seat] = [NO_RAISE, None, 0, 0]  # LPPL: a check facing a bet
        return None
    bet = hand.bet
    total = bet.bet_of(seat) + hand.t.stacks[seat]
    if act == "allin":
        to = total
    why = ""
    if to is not None and to > bet.highest and bet.reopened_for(seat) and \
            hand.raise_callable(seat):
        least = bet.min_raise_to()
        word = "raise" if bet.highest else "bet"
        if to < least and to != total and same:
            # below the minimum when declared (docs/rules.md §13): made the minimum,
            # or a call for an amount said without "raise" (TDA 37-A, LPPL ¶48)
            why = "declared %d, the minimum %s is to %d" % (to, word, least)
            if act == "bet" and bet.highest and (
                    hand.t.profile["under_raise"] == "call"
                    or 2 * (to - bet.highest) < least - bet.highest):
                why = "declared %d without \"raise\": %s" % (to, "under half a raise is a call"
                      if hand.t.profile["under_raise"] == "half" else
                      "below the minimum raise it is a call")
            else:
                to = least if least < total else total  # never more than the stack
        if to >= least or to == total:
            hand.put(seat, to)
            return "%ss to %d (out of turn%s)" % (word, to, ": " + why if why else "")
    if owe == 0:
        hand.check(seat)
        return "checks (out of turn)"
    pay = hand.call_amount(seat)
    hand.put(seat, bet.bet_of(seat) + pay)
    return "calls %d (out of turn%s)" % (pay, ": " + why if why else "")
