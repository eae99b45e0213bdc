"""The console's handlers of the TD's actions on the live night: ``Live.act(action, args)``
(docs/host.md §10.2, "act()") checks *args* against the action's declaration
(tdhost.actions) and calls the handler of ``ACTS``.  Each decides through the same
``decide_*`` as its `tdhost` command, written with ``Live.write``, and says the same
sentences (tdhost.actions); it returns (one sentence for the TD, what Live does next) and
raises ``ActionRefused`` with one sentence when refused (nothing written then)."""

import functools
import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

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
from tdhost.live.effects import Effects
from tdhost.live.shapes import Batch
from tdhost.rules import handforhand as _hfh

if TYPE_CHECKING:
    from tdhost.live.night import Live

log = logging.getLogger("tdhost.live")

Args = Dict[str, Any]
Reply = Tuple[str, Effects]  # (the sentence for the TD, what Live does next)


# ------------------------------------------------------------------ doing one
def perform(live: "Live", name: str, args: Args) -> Reply:
    """The console's action *name* with its checked *args* (tdhost.actions), kept for undo
    when it can be undone (undo and redo keep themselves).  Whole or nothing: once its
    events are in the league file it has happened, so a failure after them is logged and
    its sentence says so (a plan follows); any other error propagates with nothing
    written."""
    handler = ACTS[name]
    written = live.last_seq
    try:
        if name in ("undo", "redo"):
            return handler(live, args)
        return live.journal.run(live, name, args, handler)
    except Exception as err:
        if live.last_seq == written:
            raise  # refused, or failed before anything was written
        log.exception("after the TD's %s %r was written", name, args)
        why = str(err) if isinstance(err, ActionRefused) else "see its log"
        return "Done: the %s is in the league file, but the host failed on what follows it " \
               "(%s)." % (name.replace("_", " "), why), Effects(plan=True)


# ------------------------------------------------------------------ helpers
def _joins(live: "Live", name: str) -> Effects:
    """*name* joined a table in play: the box there seats them (``receive``; before its
    first hand, and without a dead big blind to post, the box builds its table from the new
    seating instead), then a plan."""
    entry = live.tournament.get(name)
    if entry is None or not entry.seat:
        return Effects()
    table, seat = entry.seat
    link = live.link_for(table)
    if link is not None and link.state == "live" and live.view(table).hand == 0 \
            and not entry.dead_bb:
        return Effects(plan=True, seating=[table])
    stack = (entry.stack or 0) - entry.deducted
    text = "seat %s at table %d seat %d with %d chips%s" % (
        entry.name, table, seat, stack, " (a dead big blind to enter)" if entry.dead_bb else "")
    live.write(lambda tournament, lg, seq: ([("instr", _ins.seat_player(
        lg, tournament, 0, entry.name, [table, seat], stack, text, entry.dead_bb), None)], None))
    return Effects(plan=True)


# ------------------------------------------------------------------ actions
def _sentence(act: Callable[["Live", Args], str]) -> Callable[["Live", Args], Reply]:
    """An action that asks nothing more of Live than its sentence."""
    @functools.wraps(act)
    def reply(live: "Live", args: Args) -> Reply:
        return act(live, args), Effects()
    return reply


@_sentence
def register(live: "Live", args: Args) -> str:
    when = live.when()
    known = _pulled.members(live.store.path)  # the league's members, as last pulled
    allowed = {player_key(name) for name in args["allow_duplicate"]}

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        done = decide_registers(tournament, lg, args["names"], args["member"],
                                args["member_no"], allowed, known, when, seq,
                                _actions.ANOTHER_PLAYER["console"])
        return [("register", payload, None) for payload, _ in done], [msg for _, msg in done]

    out = live.write(build)
    if live.tournament.draw:
        live.send_seating()
    spelled = [_pulled.spelling_note(known, typed) for typed in args["names"]]
    return " ".join(out + [note for note in spelled if note])


@_sentence
def unregister(live: "Live", args: Args) -> str:
    name = args["name"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_unregister(tournament, name)
        return [("unregister", payload, None)], payload
    payload = live.write(build)
    if payload["seat"] and live.tournament.draw:
        live.send_seating()
    return _actions.unregister_sentence(payload) + "."


@_sentence
def standby_add(live: "Live", args: Args) -> str:
    name, member = args["name"], args["member"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload, msg = decide_standby_add(tournament, name, member, lg)
        return [("register", payload, None)], msg
    return live.write(build)


def standby_take(live: "Live", args: Args) -> Reply:
    name, seat = args["name"], args["seat"]
    when = live.when()

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_standby_take(tournament, name, when, seat)
        return [("standby_take", payload, None)], payload
    payload = live.write(build)
    return _actions.standby_take_sentence(payload) + ".", _joins(live, payload["name"])


@_sentence
def standby_pass(live: "Live", args: Args) -> str:
    name = args["name"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_standby_pass(tournament, name)
        return [("standby_pass", payload, None)], payload
    payload = live.write(build)
    return _actions.standby_pass_sentence(payload) + "."


@_sentence
def draw(live: "Live", args: Args) -> str:
    seed = live.seed if args["seed"] is None else args["seed"]
    ace8, again = args["ace8"], args["again"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_draw(tournament, seed, ace8, again, False)
        return [("draw", payload, None)], payload
    payload = live.write(build)
    live.send_seating()
    return _actions.draw_sentence(payload) + "."


@_sentence
def start(live: "Live", args: Args) -> str:
    absent, away = args["absent"], args["away"]
    when = live.when()
    now = live.now

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload, notes = decide_start(tournament, when, absent, away)
        return [("start", payload, None), ("clock", _clock.started(tournament, now, when),
                                           None)], (payload, notes)
    payload, notes = live.write(build)
    live.send_seating()
    live.send_clock()
    return " ".join(line + "." for line in _actions.start_sentences(live.tournament, payload,
                                                                    notes, when))


def late(live: "Live", args: Args) -> Reply:
    seat = args["seat"]
    when = live.when()
    note: List[str] = []  # what the TD must know about the seat (a new table without a box)
    known = _pulled.members(live.store.path)  # the league's members, as last pulled

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        name, member = _pulled.league_member(known, lg, args["name"], args["member"],
                                             args["member_no"])
        where, spare, why = seat, _plan.spare_tables(live.links, tournament), None
        if where is None:
            where, why = _plan.new_seat(live, tournament, name, seq, spare)
        elif where[0] in _plan.broken_tables(tournament):
            raise ActionRefused("table %d is broken: it takes no players" % where[0])
        payload = decide_late(tournament, name, member, when, lg, seq, where, spare,
                              member_no=args["member_no"])
        why = _plan.refuse_opening(tournament, payload["name"], where, seat is not None,
                                   live.boxed) or why
        note[:] = [why] if why else []
        return [("late", payload, None)], payload
    payload = live.write(build)
    effects = _joins(live, payload["name"])
    spelled = _pulled.spelling_note(known, args["name"], args["member_no"])
    # the reasons say the chips and the dead big blind already (tdhost.league.entries.late_stack)
    return _actions.late_sentence(payload, note) + "." + (" " + spelled if spelled else ""), \
        effects


def reenter(live: "Live", args: Args) -> Reply:
    """A player who is out re-enters (tdhost.league.entries.decide_reenter): seated as a
    latecomer is, at a table with a box when there is one."""
    seat = args["seat"]
    when = live.when()
    note: List[str] = []

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        where, spare, why = seat, _plan.spare_tables(live.links, tournament), None
        if where is None:
            where, why = _plan.new_seat(live, tournament, args["name"], seq, spare)
        elif where[0] in _plan.broken_tables(tournament):
            raise ActionRefused("table %d is broken: it takes no players" % where[0])
        payload = decide_reenter(tournament, args["name"], when, seq, where, spare)
        why = _plan.refuse_opening(tournament, payload["name"], where, seat is not None,
                                   live.boxed) or why
        note[:] = [why] if why else []
        return [("reenter", payload, None)], payload
    payload = live.write(build)
    return _actions.reenter_sentence(payload, note) + ".", _joins(live, payload["name"])


@_sentence
def arrive(live: "Live", args: Args) -> str:
    name = args["name"]
    when = live.when()

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_arrive(tournament, name, when)
        return [("arrive", payload, None)], payload
    payload = live.write(build)
    entry = live.tournament.get(payload["name"])
    assert entry is not None and entry.seat is not None, "an arrival seats the player"
    text = _actions.arrive_sentence(payload, entry.seat)
    table, seat = entry.seat
    link = live.link_for(table)
    if not payload["deduction"]:
        live.message(table, text)
    elif link is not None and link.state == "live" and live.view(table).hand == 0:
        live.send_seating([table])  # before its first hand the box takes the new seating
    else:  # LPPL ¶14 "will have the appropriate number of chips removed from their stack"
        live.write(lambda tournament, lg, seq: ([("instr", _ins.instr(
            _ins.new_id(lg, tournament), "deduct", table, "table %d seat %d: take %d chips from %s "
            "(arrived late)" % (table, seat, payload["deduction"], payload["name"]),
            player=payload["name"],
            to=[table, seat], seat=seat, chips=payload["deduction"]), None)], None))
    return text + "."


@_sentence
def bust(live: "Live", args: Args) -> str:
    """The TD enters players out; Live's reaction calls their instructions off and has the
    boxes that still seat them take the seats out (tdhost.live.reactions)."""
    names, chips = args["names"], args["chips"]
    chip_map = dict(zip(names, chips)) if chips else {}
    when = live.when()

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
        payload = decide_bust(tournament, list(names), chip_map, None, None, when, lg)
        payload["by"] = "td"
        return [("bust", payload, None)], payload
    payload = live.write(build)
    return ". ".join(bust_sentences(live.tournament, payload)) + "."


def _clock_act(op: str, key: Optional[str] = None) -> Callable[["Live", Args], Reply]:
    @_sentence
    def act(live: "Live", args: Args) -> str:
        arg = None if key is None else args[key]
        now, when = live.now, live.when()

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
            payload = _clock.decide(tournament, op, arg, now, when)
            return [("clock", payload, None)], payload
        payload = live.write(build)
        live.send_clock()
        return payload["text"][:1].upper() + payload["text"][1:] + "."
    return act


@_sentence
def hand_for_hand(live: "Live", args: Args) -> str:
    on = args["on"]
    tables = live.playing_tables()

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
        wait = _hfh.start_wait(tables, {tb: live.view(tb).hand or 0 for tb in tables}) \
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
    live.write(build)
    if on:
        return "Hand for hand: tables %s finish the hand they are playing and wait; all deal " \
               "the next hand together." % ", ".join(map(str, tables))
    return "Hand for hand is over: every table plays on."


def confirm(live: "Live", args: Args) -> Reply:
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
    record = live.write(build)
    if record["action"] == "take_out":  # the seat it frees: a player waiting for it sits
        live.write(lambda tournament, lg, seq: _moves.seat_waiting(tournament, lg, record))
    # a player seated or moved: the plan looks again
    return "Confirmed: %s%s." % (_words.instruction(record), ", %s chips" % _words.chips(stack)
                                 if stack else ""), Effects(plan=True)


@_sentence
def seat_at_box(live: "Live", args: Args) -> str:
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
        if not live.boxed(table):
            raise ActionRefused("table %d has no box to seat %s" % (table, entry.name))
        for record in _ins.pending(tournament):
            if record.get("player") == entry.name:
                raise ActionRefused("an instruction for %s is under way (%s): confirm it or "
                                    "wait for the box's answer first" % (
                                        entry.name, _words.instruction(record)))
        status = live.view(table).status or {}
        shown = (status.get("stacks") or {}).get(str(seat))
        if shown is not None:
            raise ActionRefused("the box at table %d has a player in seat %d (%s chips): ask "
                                "the dealer who sits there" % (table, seat, _words.chips(shown)))
        text = "seat %s at table %d seat %d again with %d chips (not on the box)" % (
            entry.name, table, seat, stack)
        return [("instr", _ins.seat_player(lg, tournament, 0, entry.name, [table, seat], stack,
                                           text), None)], (entry.name, table, seat)
    who, table, seat = live.write(build)
    return "%s: the box seats %s again with %s chips when the dealer confirms." % (
        seat_text([table, seat])[:1].upper() + seat_text([table, seat])[1:], who,
        _words.chips(stack))


@_sentence
def move_box(live: "Live", args: Args) -> str:
    """Box ``box`` serves table ``table`` from now on (tdhost.links.boxtables); a box linked
    now gets that table's set-up at once (docs/live.md "Which box serves which table")."""
    box, table = args["box"], args["table"]
    try:
        check_id("a box id", box)
    except ValueError as err:
        raise ActionRefused(str(err))
    if live.box_tables.table_of(box) == table:
        return "Box %s serves table %d already." % (box, table)
    try:
        live.box_tables.assign(box, table)
    except (OSError, ValueError) as err:
        raise ActionRefused("the boxes' tables cannot be written: %s" % err)
    linked = [link for link in live.links if link.box == box and link.move_to(table)]
    return "Box %s serves table %d from now on%s." % (
        box, table, ": it has that table's set-up" if linked else
        " (it gets that table's set-up at its next hello)")


def _ruling() -> Callable[["Live", Args], Reply]:
    """The console's ``ruling``: a player asks for the league's ruling on the TD's decision
    (tdhost.league.rulings), one event that changes nothing of the night (as the money
    actions, tdhost.live.money_events)."""
    def act(live: "Live", args: Args) -> Reply:
        when = live.when()

        def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Any]:
            payload = decide_ruling(tournament, args["name"], args["decision"],
                                    args["reasons"], when)
            return [("ruling", payload, None)], (payload, lg.name)
        payload, league = live.write(build)
        return _rulings.ruling_sentence(payload, league or "") + ".", Effects()
    return act


@_sentence
def final_draw(live: "Live", args: Args) -> str:
    seed = args["seed"]
    if seed is None:
        seed = (live.tournament.draw or {}).get("seed", live.seed)
    payload = _final.final_table(live, seed)  # ActionRefused when it cannot form
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
    "move_box": move_box,
    "undo": _undo.undo,
    "redo": _undo.redo,
}
ACTS.update(_livemoney.ACTS)  # rebuy, addon, knockout, payouts (docs/host.md §11)
