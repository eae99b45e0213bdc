"""The console's handlers of the TD's actions on the live night: ``Live.act(action, args)``
(docs/host.md §10.2, "act()") checks *args* against the action's declaration
(tdhost.actions) and calls the handler of ``ACTS`` with the night as the action finds it
(a ``Desk``).  Each decides through the same ``decide_*`` as its `tdhost` command and says
the same sentences (tdhost.actions).  A handler writes nothing itself: it yields each
decision (a ``Write`` for ``Live.write``) and Live sends back its result and the tournament
after it (tdhost.live.effects.carry_out): Live owns the night's state, its handlers decide
(docs/live.md "Live owns its state").  A handler returns (one sentence for the TD, the
``Effects`` Live applies) and raises ``ActionRefused`` with one sentence when refused
(nothing written then)."""

import datetime
import functools
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from tableclock.wire import check_id
from tdhost import actions as _actions
from tdhost.league import pulled as _pulled, rulings as _rulings
from tdhost.league.busts import bust_sentences, decide_bust
from tdhost.league.entries import (
    decide_arrive,
    decide_late,
    decide_reenter,
    decide_registers,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
    decide_unregister,
)
from tdhost.league.play import decide_start
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.rulings import decide_ruling
from tdhost.league.seats import decide_draw
from tdhost.league.text import player_key, seat_text
from tdhost.league.tournament import Tournament
from tdhost.live import (
    final as _final,
    instruction_log as _ins,
    master_clock as _clock,
    money_events as _livemoney,
    moves as _moves,
    room_plan as _plan,
    undo as _undo,
    wording as _words,
)
from tdhost.live.effects import Effects, Steps
from tdhost.live.shapes import Batch, ServedLink
from tdhost.rules import handforhand as _hfh

if TYPE_CHECKING:
    from tdhost.links.boxtables import BoxTables
    from tdhost.live.tables import BoxesNow

Args = Dict[str, Any]
Reply = Tuple[str, Effects]  # (the sentence for the TD, what Live does next)


class Desk:
    """The night as one TD action finds it (``Live.desk``): the league and the tournament
    before the action, Live's clock and seed, the league file's path (the members last
    pulled), the boxes as values (``tables.BoxesNow``), and the parts an action changes
    itself: the links (a box moved to a table), the boxes' tables, the TD's undo journal,
    the final table's wait."""

    def __init__(self, lg: League, tournament: Tournament, now: int, when: datetime.datetime,
                 seed: int, path: str, boxes: "BoxesNow", links: Sequence[ServedLink],
                 box_tables: "BoxTables", journal: "_undo.Journal",
                 final_seat: "_final.FinalSeat") -> None:
        self.lg = lg
        self.tournament = tournament
        self.now = now
        self.when = when
        self.seed = seed
        self.path = path
        self.boxes = boxes
        self.links = links
        self.box_tables = box_tables
        self.journal = journal
        self.final_seat = final_seat

    def playing(self) -> List[int]:
        """The tables that play (not broken, with players)."""
        return _hfh.playing_tables(self.tournament.seating(),
                                   _plan.broken_tables(self.tournament))


# ------------------------------------------------------------------ helpers
def _joins(desk: Desk, tournament: Tournament, name: str) -> Steps:
    """*name* joined a table in play: the box there seats them (``receive``; before its
    first hand, and without a dead big blind to post, the box builds its table from the new
    seating instead), then a plan."""
    entry = tournament.get(name)
    if entry is None or not entry.seat:
        return Effects()
    table, seat = entry.seat
    if desk.boxes.fresh(table) and not entry.dead_bb:
        return Effects(plan=True, seating=[table])
    stack = (entry.stack or 0) - entry.deducted
    text = "seat %s at table %d seat %d with %d chips%s" % (
        entry.name, table, seat, stack, " (a dead big blind to enter)" if entry.dead_bb else "")
    yield lambda now, lg, seq: ([("instr", _ins.seat_player(
        lg, now, 0, entry.name, [table, seat], stack, text, entry.dead_bb), None)], None)
    return Effects(plan=True)


def _sentence(act: Callable[[Desk, Args], Steps]) -> Callable[[Desk, Args], Steps]:
    """An action that asks nothing more of Live than its sentence."""
    @functools.wraps(act)
    def reply(desk: Desk, args: Args) -> Steps:
        return (yield from act(desk, args)), Effects()
    return reply


def _seating(sentence: str, tournament: Tournament) -> Reply:
    """*sentence*, and the seating again to every box once the seats are drawn."""
    return sentence, Effects(everyone=bool(tournament.draw))


# ------------------------------------------------------------------ actions
def register(desk: Desk, args: Args) -> Steps:
    when = desk.when
    known = _pulled.members(desk.path)  # the league's members, as last pulled
    allowed = {player_key(name) for name in args["allow_duplicate"]}

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        done = decide_registers(tournament, lg, args["names"], args["member"],
                                args["member_no"], allowed, known, when, seq,
                                _actions.ANOTHER_PLAYER["console"])
        return [("register", payload, None) for payload, _ in done], [msg for _, msg in done]

    out, after = yield build
    spelled = [_pulled.spelling_note(known, typed) for typed in args["names"]]
    return _seating(" ".join(out + [note for note in spelled if note]), after)


def unregister(desk: Desk, args: Args) -> Steps:
    name = args["name"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_unregister(tournament, name)
        return [("unregister", payload, None)], payload
    payload, after = yield build
    sentence = _actions.unregister_sentence(payload) + "."
    return _seating(sentence, after) if payload["seat"] else (sentence, Effects())


@_sentence
def standby_add(desk: Desk, args: Args) -> Steps:
    name, member = args["name"], args["member"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload, msg = decide_standby_add(tournament, name, member, lg)
        return [("register", payload, None)], msg
    msg, _ = yield build
    return msg


def standby_take(desk: Desk, args: Args) -> Steps:
    name, seat = args["name"], args["seat"]
    when = desk.when

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_standby_take(tournament, name, when, seat)
        return [("standby_take", payload, None)], payload
    payload, after = yield build
    effects = yield from _joins(desk, after, payload["name"])
    return _actions.standby_take_sentence(payload) + ".", effects


@_sentence
def standby_pass(desk: Desk, args: Args) -> Steps:
    name = args["name"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_standby_pass(tournament, name)
        return [("standby_pass", payload, None)], payload
    payload, _ = yield build
    return _actions.standby_pass_sentence(payload) + "."


def draw(desk: Desk, args: Args) -> Steps:
    seed = desk.seed if args["seed"] is None else args["seed"]
    ace8, again = args["ace8"], args["again"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_draw(tournament, seed, ace8, again, False)
        return [("draw", payload, None)], payload
    payload, _ = yield build
    return _actions.draw_sentence(payload) + ".", Effects(everyone=True)


def start(desk: Desk, args: Args) -> Steps:
    absent, away = args["absent"], args["away"]
    when, now = desk.when, desk.now

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload, notes = decide_start(tournament, when, absent, away)
        return [("start", payload, None), ("clock", _clock.started(tournament, now, when),
                                           None)], (payload, notes)
    (payload, notes), after = yield build
    return " ".join(line + "." for line in _actions.start_sentences(after, payload, notes, when)
                    ), Effects(everyone=True, clock=True)


def _late_seat(desk: Desk, tournament: Tournament, seat: Any, name: str,
               seq: int) -> Tuple[Any, List[int], Optional[str]]:
    """(seat, spare tables, note) for a player entering late or again: *seat* as the TD
    gave it (not at a broken table), else a new seat (tdhost.live.room_plan.new_seat)."""
    where, spare, why = seat, _plan.spare_tables(desk.boxes.linked, tournament), None
    if where is None:
        where, why = _plan.new_seat(desk.boxes, tournament, name, seq, spare)
    elif where[0] in _plan.broken_tables(tournament):
        raise ActionRefused("table %d is broken: it takes no players" % where[0])
    return where, spare, why


def late(desk: Desk, args: Args) -> Steps:
    seat = args["seat"]
    when = desk.when
    note: List[str] = []  # what the TD must know about the seat (a new table without a box)
    known = _pulled.members(desk.path)  # the league's members, as last pulled

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        name, member = _pulled.league_member(known, lg, args["name"], args["member"],
                                             args["member_no"])
        where, spare, why = _late_seat(desk, tournament, seat, name, seq)
        payload = decide_late(tournament, name, member, when, lg, seq, where, spare,
                              member_no=args["member_no"])
        why = _plan.refuse_opening(tournament, payload["name"], where, seat is not None,
                                   lambda tb: desk.boxes.boxed(desk.tournament, tb)) or why
        note[:] = [why] if why else []
        return [("late", payload, None)], payload
    payload, after = yield build
    effects = yield from _joins(desk, after, payload["name"])
    spelled = _pulled.spelling_note(known, args["name"], args["member_no"])
    # the reasons say the chips and the dead big blind already (tdhost.league.entries.late_stack)
    return _actions.late_sentence(payload, note) + "." + (" " + spelled if spelled else ""), \
        effects


def reenter(desk: Desk, args: Args) -> Steps:
    """A player who is out re-enters (tdhost.league.entries.decide_reenter): seated as a
    latecomer is, at a table with a box when there is one."""
    seat = args["seat"]
    when = desk.when
    note: List[str] = []

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        where, spare, why = _late_seat(desk, tournament, seat, args["name"], seq)
        payload = decide_reenter(tournament, args["name"], when, seq, where, spare)
        why = _plan.refuse_opening(tournament, payload["name"], where, seat is not None,
                                   lambda tb: desk.boxes.boxed(desk.tournament, tb)) or why
        note[:] = [why] if why else []
        return [("reenter", payload, None)], payload
    payload, after = yield build
    effects = yield from _joins(desk, after, payload["name"])
    return _actions.reenter_sentence(payload, note) + ".", effects


def arrive(desk: Desk, args: Args) -> Steps:
    name = args["name"]
    when = desk.when

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_arrive(tournament, name, when)
        return [("arrive", payload, None)], payload
    payload, after = yield build
    entry = after.get(payload["name"])
    assert entry is not None and entry.seat is not None, "an arrival seats the player"
    text = _actions.arrive_sentence(payload, entry.seat)
    table, seat = entry.seat
    if not payload["deduction"]:
        yield _ins.message(table, text)
    elif desk.boxes.fresh(table):  # before its first hand the box takes the new seating
        return text + ".", Effects(seating=[table])
    else:  # LPPL ¶14 "will have the appropriate number of chips removed from their stack"
        yield lambda tournament, lg, seq: ([("instr", _ins.instr(
            _ins.new_id(lg, tournament), "deduct", table, "table %d seat %d: take %d chips from %s "
            "(arrived late)" % (table, seat, payload["deduction"], payload["name"]),
            player=payload["name"],
            to=[table, seat], seat=seat, chips=payload["deduction"]), None)], None)
    return text + ".", Effects()


@_sentence
def bust(desk: Desk, args: Args) -> Steps:
    """The TD enters players out; Live's reaction calls their instructions off and has the
    boxes that still seat them take the seats out (tdhost.live.reactions)."""
    names, chips = args["names"], args["chips"]
    chip_map = dict(zip(names, chips)) if chips else {}
    when = desk.when

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_bust(tournament, list(names), chip_map, None, None, when, lg)
        payload["by"] = "td"
        return [("bust", payload, None)], payload
    payload, after = yield build
    return ". ".join(bust_sentences(after, payload)) + "."


def _clock_act(op: str, key: Optional[str] = None) -> Callable[[Desk, Args], Steps]:
    def act(desk: Desk, args: Args) -> Steps:
        arg = None if key is None else args[key]
        now, when = desk.now, desk.when

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
            payload = _clock.decide(tournament, op, arg, now, when)
            return [("clock", payload, None)], payload
        payload, _ = yield build
        return payload["text"][:1].upper() + payload["text"][1:] + ".", Effects(clock=True)
    return act


@_sentence
def hand_for_hand(desk: Desk, args: Args) -> Steps:
    on = args["on"]
    tables = desk.playing()

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        if tournament.started is None or tournament.ended:
            raise ActionRefused("hand for hand is for a tournament in play")
        running = tournament.hfh
        if on and running is not None:
            raise ActionRefused("hand for hand is on already")
        if not on and running is None:
            raise ActionRefused("hand for hand is not on")
        if on and not tables:
            raise ActionRefused("no table is playing")
        wait = _hfh.start_wait(tables, {tb: desk.boxes.hands.get(tb) or 0 for tb in tables}) \
            if on else {}
        targets = tables if running is None else sorted(int(k) for k in running["wait"]) or tables
        evs: Batch = [("hand_for_hand", {"on": on, "wait": wait, "text": "hand for hand %s" % (
            "starts at tables %s" % ", ".join(map(str, tables)) if on else "stops")}, None)]
        action = "hand_for_hand_start" if on else "hand_for_hand_stop"
        for k, tb in enumerate(targets):
            evs.append(("instr", _ins.instr(_ins.new_id(lg, tournament, k), action, tb,
                                            "%s at table %d"
                                            % (action.replace("_", " "), tb)), None))
        return evs, None
    yield build
    if on:
        return "Hand for hand: tables %s finish the hand they are playing and wait; all deal " \
               "the next hand together." % ", ".join(map(str, tables))
    return "Hand for hand is over: every table plays on."


def confirm(desk: Desk, args: Args) -> Steps:
    """The TD saw instruction ``id`` carried out; for a ``move_out``, ``stack`` (optional) is
    the chips the player left with: the receive takes them (without it: the box's answer,
    else the stack planned with the move, with a notice)."""
    iid, stack = args["id"], args["stack"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        record = tournament.instrs.get(iid)
        if record is None:
            raise ActionRefused("there is no instruction %s" % iid)
        if _ins.complete(record) or _ins.state(record) == "done":
            raise ActionRefused("instruction %s (%s) is not pending" % (iid, record["text"]))
        if stack is not None and record["action"] != "move_out":
            raise ActionRefused("a stack goes with a move_out only: %s is a %s"
                                % (iid, record["action"]))
        payload = _ins.result(iid, "done", "td", "confirmed by the TD: %s%s" % (
            record["text"], ", %d chips" % stack if stack else ""), stack=stack)
        evs: Batch = [("instr_result", payload, None)]
        if record["action"] == "move_out" and record.get("move"):
            evs += _moves.receive_evs(lg, tournament, record, stack)
        return evs, record
    record, _ = yield build
    if record["action"] == "take_out":  # the seat it frees: a player waiting for it sits
        yield lambda tournament, lg, seq: _moves.seat_waiting(tournament, lg, record)
    # a player seated or moved: the plan looks again
    return "Confirmed: %s%s." % (_words.instruction(record), ", %s chips" % _words.chips(stack)
                                 if stack else ""), Effects(plan=True)


@_sentence
def seat_at_box(desk: Desk, args: Args) -> Steps:
    """The box of *name*'s league seat seats them again with *stack* chips, counted at the
    table: the seat check found that seat empty at the box (docs/live.md "The seat
    check"); a ``receive`` the dealer confirms."""
    name, stack = args["name"], args["stack"]
    if stack is None:
        raise ActionRefused("give the chips %s has at the table (stack), a whole number "
                            "from 1" % name.strip())

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        entry = tournament.get(name)
        if entry is None or entry.state != "in" or not entry.seat:
            raise ActionRefused("%s is not playing at a seat" % name.strip())
        table, seat = entry.seat
        if table in _plan.broken_tables(tournament):
            raise ActionRefused("table %d is broken: it takes no players" % table)
        if not desk.boxes.boxed(desk.tournament, table):
            raise ActionRefused("table %d has no box to seat %s" % (table, entry.name))
        for record in _ins.pending(tournament):
            if record.get("player") == entry.name:
                raise ActionRefused("an instruction for %s is under way (%s): confirm it or "
                                    "wait for the box's answer first" % (
                                        entry.name, _words.instruction(record)))
        status = desk.boxes.statuses.get(table) or {}
        shown = (status.get("stacks") or {}).get(str(seat))
        if shown is not None:
            raise ActionRefused("the box at table %d has a player in seat %d (%s chips): ask "
                                "the dealer who sits there" % (table, seat, _words.chips(shown)))
        text = "seat %s at table %d seat %d again with %d chips (not on the box)" % (
            entry.name, table, seat, stack)
        return [("instr", _ins.seat_player(lg, tournament, 0, entry.name, [table, seat], stack,
                                           text), None)], (entry.name, table, seat)
    (who, table, seat), _ = yield build
    return "%s: the box seats %s again with %s chips when the dealer confirms." % (
        seat_text([table, seat])[:1].upper() + seat_text([table, seat])[1:], who,
        _words.chips(stack))


@_sentence
def clear_seat(desk: Desk, args: Args) -> Steps:
    """The box of table ``seat``'s table takes the player it shows in that seat out, with
    their chips (a ``take_out`` naming nobody): the seat check found a player there whom
    the league seats nobody at (docs/live.md "The seat check"); the chips leave play.
    Refused for a seat the league fills, a broken table or one without a box, a seat with
    an instruction under way, and a seat the box's last status shows empty."""
    table, seat = args["seat"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        name = tournament.seating().get(table, {}).get(seat)
        if name is not None:
            raise ActionRefused("the league seats %s at table %d seat %d: clearing the seat is "
                                "for a player the league does not know there" % (
                                    name, table, seat))
        if table in _plan.broken_tables(tournament):
            raise ActionRefused("table %d is broken: its seats no longer count" % table)
        if not desk.boxes.boxed(tournament, table):
            raise ActionRefused("table %d has no box" % table)
        for record in _ins.pending(tournament) + _ins.take_outs(tournament):
            if [record["table"], record["body"].get("seat")] == [table, seat] or [table, seat] in (
                    record.get("to"), record.get("from")):
                raise ActionRefused("an instruction for table %d seat %d is under way (%s): "
                                    "confirm it or wait for the box's answer first" % (
                                        table, seat, _words.instruction(record)))
        shown = _plan.stack_at(desk.boxes.statuses, table, seat)
        if shown is None:
            raise ActionRefused("the box at table %d shows seat %d empty: nothing to clear" % (
                table, seat))
        payload = _ins.instr(_ins.new_id(lg, tournament), "take_out", table,
                             "table %d: clear seat %d (the box shows a player with %d chips "
                             "there, the league seats nobody)" % (table, seat, shown),
                             to=[table, seat], seat=seat)
        payload["planned_stack"] = shown
        return [("instr", payload, None)], shown
    shown, _ = yield build
    return "Table %d seat %d: the box takes the player out with their %s chips when the " \
           "dealer confirms; those chips leave play." % (table, seat, _words.chips(shown))


@_sentence
def move_box(desk: Desk, args: Args) -> Steps:
    """Box ``box`` serves table ``table`` from now on (tdhost.links.boxtables); a box linked
    now gets that table's set-up at once (docs/live.md "Which box serves which table").
    Nothing is written to the league."""
    yield from ()
    box, table = args["box"], args["table"]
    try:
        check_id("a box id", box)
    except ValueError as err:
        raise ActionRefused(str(err))
    if desk.box_tables.table_of(box) == table:
        return "Box %s serves table %d already." % (box, table)
    try:
        desk.box_tables.assign(box, table)
    except (OSError, ValueError) as err:
        raise ActionRefused("the boxes' tables cannot be written: %s" % err)
    linked = [link for link in desk.links if link.box == box and link.move_to(table)]
    return "Box %s serves table %d from now on%s." % (
        box, table, ": it has that table's set-up" if linked else
        " (it gets that table's set-up at its next hello)")


def _ruling() -> Callable[[Desk, Args], Steps]:
    """The console's ``ruling``: a player asks for the league's ruling on the TD's decision
    (tdhost.league.rulings), one event that changes nothing of the night (as the money
    actions, tdhost.live.money_events)."""
    def act(desk: Desk, args: Args) -> Steps:
        when = desk.when

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
            payload = decide_ruling(tournament, args["name"], args["decision"],
                                    args["reasons"], when)
            return [("ruling", payload, None)], (payload, lg.name)
        (payload, league), _ = yield build
        return _rulings.ruling_sentence(payload, league or "") + ".", Effects()
    return act


@_sentence
def final_draw(desk: Desk, args: Args) -> Steps:
    seed = args["seed"]
    if seed is None:
        seed = (desk.tournament.draw or {}).get("seed", desk.seed)
    desk.final_seat.restart()  # the final table waits afresh
    payload = yield from _final.form(desk.tournament, desk.boxes.statuses, seed,
                                     desk.boxes.linked)  # ActionRefused when it cannot form
    return "Final table at table %d (seed %s): %d players." % (payload["table"], payload["seed"],
                                                              len(payload["seats"]))


ACTS = {
    "register": register,
    "unregister": unregister,
    "standby_add": standby_add,
    "standby_take": standby_take,
    "standby_pass": standby_pass,
    "draw": draw,
    "start": start,
    "late": late,
    "reenter": reenter,
    "arrive": arrive,
    "bust": bust,
    "pause": _clock_act("pause"),
    "resume": _clock_act("resume"),
    "level": _clock_act("level", "level"),
    "adjust": _clock_act("adjust", "seconds"),
    "hand_for_hand": hand_for_hand,
    "confirm": confirm,
    "final_draw": final_draw,
    "ruling": _ruling(),
    "seat_at_box": seat_at_box,
    "clear_seat": clear_seat,
    "move_box": move_box,
    "undo": _undo.undo,
    "redo": _undo.redo,
}
ACTS.update(_livemoney.ACTS)  # rebuy, addon, knockout, payouts (docs/host.md §11)
