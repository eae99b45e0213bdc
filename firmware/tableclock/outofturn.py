"""Action out of turn: a player's declaration before the action reached them
(``Hand.oot``), taken or not when it does (``take``), per profile (``oot``).
The rules and their sources: docs/rules.md, §13 "Action out of turn".
"""

from .fields import Refused, as_int

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Dict, Optional  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .hand import Hand  # noqa: F401
        from .table import Table  # noqa: F401


ACTS = ("check", "call", "fold", "bet", "raise", "allin")
NO_RAISE = "no raise"  # a declared check now facing a bet (LPPL): call or fold only


def declare(t, ev):  # type: (Any, Dict[str, Any]) -> None
    """The ``oot`` event: seat ``seat`` declared ``act`` (``to`` for a bet or
    raise) out of turn."""
    h = t._need_hand()
    s = t._seat(ev)
    act = ev.get("act")
    if act not in ACTS:
        raise Refused('Out of turn needs "act": check, call, fold, bet, raise or allin')
    if h.actor is None:
        raise Refused("Betting is over: enter the showdown")
    if s == h.actor:
        raise Refused("It is seat %d's turn: enter the action itself" % s)
    if s in h.oot:
        raise Refused("Seat %d has already acted out of turn" % s)
    if s not in h.live or not h.needs_action(s):
        raise Refused("Seat %d has nothing to do now" % s)
    to = None
    if act == "bet" or act == "raise":
        to = as_int(ev.get("to"))
        if to is None or to <= h.bet.highest or to > h.bet.bet_of(s) + t.stacks[s]:
            raise Refused("Seat %d: a raise out of turn needs \"to\", above %d and at most %d"
                          % (s, h.bet.highest, h.bet.bet_of(s) + t.stacks[s]))
    h.oot[s] = [act, to, h.bet.highest, h.street]
    t.last = "Seat %d: %s%s out of turn" % (s, act, " to %d" % to if to else "")


def take(h, s):  # type: (Hand, int) -> Optional[str]
    """The action reached seat *s* with a declaration waiting: carry it out
    when it binds.  Returns a sentence when the table acted for *s*, else
    None (the player acts: all options, or call/fold only)."""
    rec = h.oot.pop(s)
    act, to, high, street = rec
    if act == NO_RAISE:
        return None
    h.mark = rec  # the table's move, logged with the declaration (the undo restores it)
    same = street == h.street and high == h.bet.highest
    owe = h.to_call(s)
    if act == "fold":  # binding everywhere (TDA 47 "An OOT fold is binding")
        h.fold(s)
        return "folds"
    if not same and h.t.profile["oot"] != "binding":
        return None  # TDA 47: not binding, all options
    if act == "check" and owe:
        h.oot[s] = [NO_RAISE, None, 0, 0]  # LPPL: a check facing a bet
        return None
    total = h.bet.bet_of(s) + h.t.stacks[s]
    if act == "allin":
        to = total
    if to is not None and to > h.bet.highest and h.bet.reopened_for(s) and \
            h.raise_callable(s) and (to >= h.bet.min_raise_to() or to == total):
        h.put(s, to)
        return "raises to %d" % to
    if owe == 0:
        h.check(s)
        return "checks"
    pay = h.call_amount(s)
    h.put(s, h.bet.bet_of(s) + pay)
    return "calls %d" % pay
