"""A restored record checked before it is trusted (record.load): its nesting,
then the types and ranges of everything the engine reads from the table it
rebuilt.  Imported only when a record is loaded (at the box's boot) and
dropped after (record.drop_loader), so its code costs no heap while the
table runs.  Anything wrong raises ValueError
naming the first field found wrong (issue 16, docs/box.md)."""

from .fields import MAX_CHIPS

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Container  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .table import Table  # noqa: F401


MAX_DEPTH = 24  # a real record nests about 8 deep


def shape(rec, fields):  # type: (Any, Container[str]) -> None
    """A setup and a table of known *fields* (recordfields.FIELDS["Table"]), nested
    at most MAX_DEPTH deep (checked without recursion: the rebuild recurses,
    a 500-deep record must not reach it)."""
    if not isinstance(rec, dict) or not isinstance(rec.get("setup"), dict) or \
            not isinstance(rec.get("table"), dict):
        raise ValueError("Bad record: not a setup and a table")
    for f in rec["table"]:
        if f not in fields:
            raise ValueError("Bad record: the table has no field %r" % (f,))
    _depth(rec)


def _depth(v):
    todo = [(v, 0)]
    while todo:
        x, d = todo.pop()
        if isinstance(x, (list, dict)):
            if d >= MAX_DEPTH:
                raise ValueError("Bad record: nested more than %d deep" % MAX_DEPTH)
            for y in (x.values() if isinstance(x, dict) else x):
                if isinstance(y, (list, dict)):
                    todo.append((y, d + 1))


def _bad(what, v):
    raise ValueError("Bad record: %s is %r" % (what, v))


def _whole(v, what, lo=0, hi=MAX_CHIPS):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        _bad(what, v)


def _seat(table, v, what, none=True):
    if v is None and none:
        return
    _whole(v, what, 1, table.n)


def _seats(table, v, what):
    if not isinstance(v, list):
        _bad(what, v)
    for seat in v:
        _seat(table, seat, what, False)


def _chips_of(table, v, what):
    """A ``{seat: whole number >= 0}`` dict."""
    if not isinstance(v, dict):
        _bad(what, v)
    for seat in v:
        _seat(table, seat, what, False)
        _whole(v[seat], what)


def _text(v, what):
    if v is not None and not isinstance(v, str):
        _bad(what, v)


def _is(o, cls, what):
    if type(o).__name__ != cls:
        _bad(what, o)


def check(table):  # type: (Table) -> None
    """The types and ranges of what the engine reads from a restored table
    (ValueError naming the first thing wrong)."""
    _chips_of(table, table.stacks, "stacks")
    _whole(table.chip, "chip", 1)
    for f in ("waiting", "held", "entering", "busted"):
        _seats(table, getattr(table, f), f)
    for f in ("seat_changes", "hands"):
        _whole(getattr(table, f), f)
    _whole(table.removed, "removed", -MAX_CHIPS)  # a colour-up rounding up adds chips
    for f in ("btn", "sb_pos", "bb_pos", "sb_seat", "dealer"):
        _seat(table, getattr(table, f), f)
    _chips_of(table, table.winners, "winners")
    for f in ("last", "error", "undo_text", "hold"):
        _text(getattr(table, f), f)
    for f in ("undone", "bust_ties", "moves"):
        if not isinstance(getattr(table, f), list):
            _bad(f, getattr(table, f))
    if not isinstance(table.undo_ok, bool):
        _bad("undo_ok", table.undo_ok)
    clock = table.clock
    _is(clock, "LevelClock", "clock")
    _whole(clock.index, "clock.index", 0, len(clock.levels) - 1)
    _whole(clock.left_ms, "clock.left_ms")  # adjust may add time: not capped by the level
    if not isinstance(clock.paused, bool):
        _bad("clock.paused", clock.paused)
    _is(table.shot, "ShotClock", "shot")
    _seat(table, table.shot.seat, "shot.seat")
    _whole(table.shot.left_ms, "shot.left_ms", -1)  # -1: run out, waiting for the action
    _is(table.away, "AwayBook", "away")
    _chips_of(table, table.away.away, "away.away")
    if not isinstance(table.away.used, dict):
        _bad("away.used", table.away.used)
    for seat in table.away.used:
        _seat(table, seat, "away.used", False)
    _seats(table, table.away.late, "away.late")
    _seats(table, table.away.td, "away.td")
    _is(table.floor, "FloorBook", "floor")
    for f in ("warnings", "slow", "penalties"):
        _chips_of(table, getattr(table.floor, f), "floor." + f)
    for f in ("hand", "last_hand"):
        hand = getattr(table, f)
        if hand is not None:
            _is(hand, "Hand", f)
            _whole(hand.number, f + ".number")
            lv = hand.level
            if not isinstance(lv, tuple) or len(lv) != 4:
                _bad(f + ".level", lv)
            for x in lv:
                _whole(x, f + ".level")
            if not isinstance(hand.posts, list):
                _bad(f + ".posts", hand.posts)
            for post in hand.posts:
                if not isinstance(post, list) or len(post) != 3:
                    _bad(f + ".posts", post)
                _seat(table, post[0], f + ".posts", False)
                _whole(post[1], f + ".posts")
                _text(post[2], f + ".posts")
    for x in table.bust_ties:
        _seats(table, x, "bust_ties")
    for x in table.undone:
        _text(x, "undone")
    for x in table.moves:
        if not isinstance(x, list):
            _bad("moves", x)
    predeal = table.predeal
    if predeal is not None:
        _predeal(table, predeal)
    hand = table.hand
    if hand is not None:
        _seats(table, hand.dealt, "hand.dealt")
        _seats(table, hand.live, "hand.live")
        _seats(table, hand.show_order, "hand.show_order")
        _seats(table, hand.penalised, "hand.penalised")
        _chips_of(table, hand.start, "hand.start")
        _chips_of(table, hand.contrib, "hand.contrib")
        _whole(hand.street, "hand.street", 0, 4)
        _seat(table, hand.actor, "hand.actor")
        _whole(hand.actions, "hand.actions")
        _whole(hand.paid, "hand.paid")
        if not isinstance(hand.log, list):
            _bad("hand.log", hand.log)
        for x in hand.log:  # (op, seat, amount, mark): the dealer's undo replays it
            if not isinstance(x, tuple) or len(x) != 4:
                _bad("hand.log", x)
            _whole(x[0], "hand.log", 0, 3)
            _seat(table, x[1], "hand.log", False)
            _whole(x[2], "hand.log", -MAX_CHIPS)  # x[3]: the mark (None, -1, a declaration)
        if not isinstance(hand.oot, dict):
            _bad("hand.oot", hand.oot)
        for seat in hand.oot:  # seat -> [act, to, highest bet, street]: declared out of turn
            _seat(table, seat, "hand.oot", False)
            x = hand.oot[seat]
            if not isinstance(x, list) or len(x) != 4 or not isinstance(x[0], str):
                _bad("hand.oot", x)
            if x[1] is not None:
                _whole(x[1], "hand.oot")
            _whole(x[2], "hand.oot")
            _whole(x[3], "hand.oot", 0, 4)
        bet = hand.bet
        _is(bet, "Street", "hand.bet")
        for f in ("bb", "highest", "full_level", "last_full"):
            _whole(getattr(bet, f), "hand.bet." + f)
        _chips_of(table, bet.bets, "hand.bet.bets")
        _chips_of(table, bet.acted, "hand.bet.acted")
        _seat(table, bet.aggressor, "hand.bet.aggressor")
        if not isinstance(bet.hist, list):
            _bad("hand.bet.hist", bet.hist)
        for x in bet.hist:  # [seat, total] per action, -1 for a check
            if not isinstance(x, list) or len(x) != 2:
                _bad("hand.bet.hist", x)
            _seat(table, x[0], "hand.bet.hist", False)
            _whole(x[1], "hand.bet.hist", -1)


def _predeal(table, predeal):
    """What a misdeal restores (Table.deal): (stacks, away book, waiting, held, entering,
    (btn, sb_pos, bb_pos, sb_seat, dealer), hands, last hand, dealt, positions,
    seat changes)."""
    if not isinstance(predeal, tuple) or len(predeal) != 11:
        _bad("predeal", predeal)
    _chips_of(table, predeal[0], "predeal")
    away = predeal[1]
    if not isinstance(away, tuple) or len(away) != 3 or not isinstance(away[1], dict):
        _bad("predeal", away)
    _chips_of(table, away[0], "predeal")
    _seats(table, away[2], "predeal")
    for i in (2, 3, 4, 8):
        _seats(table, predeal[i], "predeal")
    for i, n in ((5, 5), (9, 3)):
        if not isinstance(predeal[i], tuple) or len(predeal[i]) != n:
            _bad("predeal", predeal[i])
        for seat in predeal[i]:
            _seat(table, seat, "predeal")
    _whole(predeal[6], "predeal")
    _whole(predeal[10], "predeal")
    if predeal[7] is not None:
        _is(predeal[7], "Hand", "predeal")
