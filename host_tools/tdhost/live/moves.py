"""The moves of the live night (docs/host.md §10.5–§10.6; docs/live.md "Moves"): each
move's ``receive`` once its ``move_out`` is done, a move recorded once both boxes carried it
out, refused and late moves, a player sent back or seated elsewhere; the plans that make
them are tdhost.live.plans.  Each is a decision Live writes (a ``Write`` whose result is
what Live does next, ``Effects``: ``Live.apply``) or a few in turn (``Steps``:
``Live.carry_out``), decided from the tournament and the boxes as values
(``tables.BoxesNow``)."""

import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from tdhost.league.replay import League
from tdhost.league.seats import decide_move
from tdhost.league.tournament import Tournament
from tdhost.live import (
    bust_collector as _busts,
    final as _final,
    instruction_log as _ins,
    room_plan as _plan,
)
from tdhost.live.effects import Effects, Steps, Write
from tdhost.live.shapes import Batch, Instr, Payload, Seat

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow

log = logging.getLogger("tdhost.live")


def carried_out(tournament: Tournament) -> List[List[Instr]]:
    """The moves whose two halves are done, not recorded yet (``record``)."""
    return [halves for halves in _ins.moves(tournament).values()
            if len(halves) == 2 and all(_ins.state(instr) == "done" for instr in halves)]


def record(halves: List[Instr], now: int) -> Write:
    """The league's ``move`` for a move both boxes carried out (at *now*), a decision whose
    result is what Live does next when it is written, else None (the seat frees when an
    earlier move completes; ActionRefused: not recorded yet)."""
    instr = halves[0]
    name, to = instr["player"], instr["to"]

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Optional[Effects]]:
        entry = tournament.get(name)
        if entry is None or entry.state != "in":
            return [("instr_result", _ins.cancel(tournament.instrs[half["id"]], "%s is not playing"
                                                 % name), None) for half in halves], None
        if tournament.seating().get(to[0], {}).get(to[1]) not in (None, name):
            return [], None  # the seat frees when an earlier move completes
        payload = decide_move(tournament, name, to)
        payload.update({"at_ms": now, "instrs": [half["id"] for half in halves],
                  "by": "boxes" if all("done" in _ins.results(half, "box") for half in halves)
                  else "td"})
        return [("move", payload, None)], Effects(plan=True, names=[instr["from"][0], to[0]])
    return build


# ------------------------------------------------------------------ the receive
def receive_evs(lg: League, tournament: Tournament, out: Instr, stack: Optional[int] = None,
                k: int = 0) -> Batch:
    """The events that write the receive of the move whose move_out *out* is done (none
    when it exists already): ``stack`` the chips the player left with (None: the answers'
    on *out*, else ``fallback`` and a ``notice``).  *k*: ids this batch has taken."""
    if any(instr["action"] == "receive" and instr.get("move") == out["move"]
           for instr in tournament.instrs.values()):
        return []
    count = _ins.chips(stack) or _ins.done_stack(out)
    evs: Batch = []
    if count is None:
        count, whence = _ins.fallback_stack(tournament, out)
        frm, to = out["from"], out["to"]
        evs.append(("notice", {"text": "table %d: no stack came with %s leaving seat %d; "
                               "they sit down at table %d seat %d with %d chips, %s: check "
                               "them" % (frm[0], out["player"], frm[1], to[0], to[1], count,
                                         whence), "src": []}, None))
    return [("instr", _ins.receive(lg, tournament, k, out, count), None)] + evs


def receives(tournament: Tournament) -> List[Write]:
    """The receive of every move whose move_out is done and has none yet, a decision each
    (normally written with the answer: this finishes what a host killed in between left)."""
    def receive(iid: str) -> Write:
        return lambda current, lg, seq: (receive_evs(lg, current, current.instrs[iid]), None)
    return [receive(halves[0]["id"]) for halves in _ins.moves(tournament).values()
            if len(halves) == 1 and _ins.state(halves[0]) == "done"]


def _boxed(boxes: "BoxesNow", tournament: Tournament) -> Callable[[int], bool]:
    """Does a table have a box that may show an instruction (for a withdraw)?"""
    return lambda table: boxes.boxed(tournament, table)


def late_done(instr: Instr, stack: Optional[int], text: str, src: List[Any],
              boxes: "BoxesNow") -> Write:
    """A box answered ``done`` for the cancelled move_out *instr* (docs/live.md "Moves"):
    the answer is logged, and in the same batch the player still in is sent back
    (``send_back``); the decision's result is what Live does next."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        latest = tournament.instrs[instr["id"]]
        if "done" in _ins.results(latest, "box"):
            return [], Effects(plan=True)
        payload = _ins.result(instr["id"], "done", "box", text, None, src, stack)
        left = "%s left table %d seat %d after their move to table %d seat %d was called " \
               "off" % (instr["player"], instr["from"][0], instr["from"][1], instr["to"][0],
                        instr["to"][1])
        back = "the move to table %d seat %d was called off after they left" % tuple(instr["to"])
        final: Dict[str, int] = {}
        evs = send_back(boxes, tournament, lg, seq, latest, stack, left, back,
                        [("instr_result", payload, None)], final)
        return evs, Effects(plan=True, seating=[final["table"]] if final else [])
    return build


def broken_anyway(instr: Instr, text: str, src: List[Any]) -> Write:
    """A box refused the withdraw of the ``break_table`` *instr* "already carried out" (a
    new plan kept the table, but the dealer confirmed the break before the withdraw came,
    and the box could not open it again: a power cut in between): the table is broken at
    its box, which takes no players and deals no hand there.  The break is logged done
    (the table counts as broken: tdhost.live.room_plan.box_broken) with a notice; the plan
    that follows moves its players out while they fit at the other tables."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        if "done" in _ins.results(tournament.instrs[instr["id"]], "box"):
            return [], Effects()
        return [("instr_result", _ins.result(instr["id"], "done", "box", text, None, src), None),
                ("notice", {"text": "table %d broke before the host called its break off: "
                            "its players move to the other tables" % instr["table"],
                            "src": src}, None)], Effects(plan=True)
    return build


def seated_anyway(instr: Instr, text: str, src: List[Any], boxes: "BoxesNow") -> Write:
    """A box answers ``done`` for the ``receive`` *instr* the host had called off (its
    withdraw came after the dealer's Confirm): the player sat down there.  The answer is
    logged; a player who is out (the TD's bust cancelled the receive) is taken out of that
    seat in the same write (a ``take_out``, protocol 1.3, unless one takes them out of
    that seat already: ``_taking_out``), and so is one no longer entered (their late
    entry undone); a player still in whom the league seats there and who has another
    receive of their own to that seat on its way (their bust undone again) has that one
    called off: they sit there already; a player still in whom the host sends back to the
    seat the league has them at (a receive there not called off: their bust undone after
    they left) is taken out of this second seat, where their chips count twice; any other
    player still in gets a notice for the TD.  The decision's result is what Live does
    next (the names to that table when the player sits there for the league)."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        latest = tournament.instrs[instr["id"]]
        if "done" in _ins.results(latest, "box"):
            return [], Effects()
        evs: Batch = [("instr_result", _ins.result(instr["id"], "done", "box", text, None, src),
                       None)]
        name, to = instr.get("player"), instr.get("to")
        entry = tournament.get(name) if name else None
        if not name or not to:
            return evs, Effects()
        again = [x for x in tournament.instrs.values() if x["action"] == "receive"
                 and not x.get("move") and x.get("player") == name and x["id"] != instr["id"]
                 and list(x.get("to") or ()) == list(to)
                 and _ins.state(x) not in ("done", "cancelled")]
        if entry is not None and entry.state == "in" and list(entry.seat or ()) == list(to) \
                and again:
            return evs + _ins.cancel_all(lg, tournament, again, "%s sat down there already" % name,
                                         _boxed(boxes, tournament)), Effects(names=[to[0]])
        home = list(entry.seat or ()) if entry is not None and entry.state == "in" else []
        back = [x for x in tournament.instrs.values() if x["action"] == "receive"
                and x.get("player") == name and x["id"] != instr["id"] and home
                and list(x.get("to") or ()) == home and _ins.state(x) != "cancelled"]
        if home and home != list(to) and back and not _taking_out(tournament, instr, name):
            # sent back to their league seat (a bust undone after they left): a second seat
            evs.append(("instr", _ins.take_out(
                lg, tournament, 0, name, to, "seated twice: the league seats them at table %d "
                "seat %d, where the host sends them back" % tuple(home)), None))
            evs.append(("notice", {"text": "%s sat down at table %d seat %d after that was "
                                   "called off, and goes back to table %d seat %d: the box "
                                   "takes them out of seat %d" % (
                                       name, to[0], to[1], home[0], home[1], to[1]),
                                   "src": src}, None))
        elif entry is not None and entry.state == "in":
            evs.append(("notice", {"text": "%s sat down at table %d seat %d after that was "
                                   "called off: the TD seats them" % (name, to[0], to[1]),
                                   "src": src}, None))
        elif not _taking_out(tournament, instr, name):
            evs.append(("instr", _ins.take_out(
                lg, tournament, 0, name, to, "seated after their receive was called off"), None))
        return evs, Effects()
    return build


def _taking_out(tournament: Tournament, receive: Instr, name: str) -> bool:
    """Does a ``take_out`` of *name* at the seat *receive* seated them take them out of it
    (not cancelled, and not carried out yet or written after that receive)?  A take_out
    carried out before it -- the bust the TD undid, which sent that receive -- took them
    out of their seat before they sat down again: it takes nobody out now."""
    records = list(tournament.instrs.values())
    later = False
    for x in records:
        if x["id"] == receive["id"]:
            later = True
            continue
        if x["action"] != "take_out" or x.get("player") != name or _ins.cancelled(x) \
                or list(x.get("to") or ()) != list(receive.get("to") or ()):
            continue
        if later or "done" not in _ins.results(x):
            return True
    return False


def refused_in(instr: Instr, payload: Payload, boxes: "BoxesNow") -> Write:
    """The destination box refused a move's ``receive`` *instr* (result payload *payload*, e.g.
    "Seat 6 is taken": a player the TD entered out is still at that box) after the player
    had left the old table: the move is off and, in the same batch, the player goes back
    to their league seat (``send_back``); the next plan moves them again.  The decision's
    result is what Live does next."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        halves = _ins.moves(tournament).get(instr["move"], [])
        out = halves[0] if halves and halves[0]["action"] == "move_out" else None
        evs: Batch = [("instr_result", payload, None)]
        if out is None or _ins.state(out) != "done":
            return evs, Effects(plan=True)
        evs += [("instr_result", _ins.cancel(half, "table %d refused the player: %s" % (
            instr["to"][0], payload.get("reason") or "no reason given")), None) for half in halves]
        left = "%s left table %d seat %d, but table %d refused them (%s)" % (
            instr["player"], out["from"][0], out["from"][1], instr["to"][0],
            payload.get("reason") or "no reason given")
        back = "table %d refused them (%s)" % (instr["to"][0], payload.get("reason") or "no reason")
        final: Dict[str, int] = {}
        evs = send_back(boxes, tournament, lg, seq, out, _ins.done_stack(out), left, back, evs,
                        final)
        return evs, Effects(plan=True, seating=[final["table"]] if final else [])
    return build


def send_back(boxes: "BoxesNow", tournament: Tournament, lg: League, seq: int, out: Instr,
              stack: Optional[int], left: str, back: str, evs: Batch,
              final: Dict[str, int]) -> Batch:
    """*evs* (the batch so far) plus what sends the player of move_out *out*, who has left
    their table (*left* says how; *back* why, for the receive), back to their league seat
    with *stack* chips (the seat the TD moved them to by hand meanwhile, if so): a
    ``receive`` of their own (a newer move of theirs not carried out
    yet called off), or, with the final table drawn, their chips in its stacks (*final*
    gets its table: its seating is sent again).  When that seat cannot take them back (a
    broken table, another move heading there) they get another one (``reseat``); a newer
    move of theirs already under way gets a notice for the TD instead.  *boxes*: the boxes
    now (who may show an instruction called off; a new seat)."""
    name, frm = out["player"], out["from"]
    entry = tournament.get(name)
    if entry is None or entry.state != "in":
        return evs
    if tournament.final is not None:
        if stack is not None and name in tournament.final["seats"]:
            evs[0][1]["final_stack"] = {name: stack}
            final["table"] = tournament.final["table"]
            evs.append(("notice", {"text": "%s: they take their final-table seat with "
                                   "the %d chips they left with" % (left, stack),
                                   "src": []}, None))
        return evs
    count, whence = stack, None
    if count is None:
        count, whence = _ins.fallback_stack(tournament, out)
    if out.get("recorded") and list(entry.seat or ()) == list(out["to"]):
        # a move recorded by hand: the league seats them at the seat that refused them
        return evs + reseat(boxes, tournament, lg, seq, evs, name, count, [out["to"]], left)
    mine = [half for half in _ins.moving_players(tournament).get(name, [])
            if half["move"] != out["move"]]
    if mine and _ins.state(mine[0]) == "done":
        evs.append(("notice", {"text": "%s, with %d chips; a newer move of theirs is under "
                               "way: the TD seats them (Confirm their next move in the console "
                               "with %d chips)" % (left, count, count), "src": []}, None))
        return evs
    evs += _ins.cancel_all(lg, tournament, mine, "%s left table %d already" % (name, frm[0]),
                           _boxed(boxes, tournament))
    taken = {tuple(pair[0]["to"]) for other, pair in _ins.moving_players(tournament).items()
             if other != name}
    home = list(entry.seat) if entry.seat else list(frm)  # moved by hand meanwhile: there
    if home[0] in _plan.broken_tables(tournament):
        evs += reseat(boxes, tournament, lg, seq, evs, name, count, [home],
                      "%s; table %d is broken" % (
            left, home[0]))
    elif tuple(home) in taken:
        evs += reseat(boxes, tournament, lg, seq, evs, name, count, [home],
                      "%s; another move is heading "
                      "for table %d seat %d" % (left, home[0], home[1]))
    else:
        evs.append(("instr", _ins.seat_player(
            lg, tournament, _instrs(evs), name, home, count,
            "send %s %s table %d seat %d with %d chips: %s" % (
                name, "back to" if home == list(frm) else "to their seat in the league at",
                home[0], home[1], count, back)), None))
    if whence is not None:
        evs.append(("notice", {"text": "table %d: no stack came with %s leaving seat %d; "
                               "they sit down with %d chips, %s: check them" % (
                                   frm[0], name, frm[1], count, whence), "src": []}, None))
    return evs


def _instrs(evs: Batch) -> int:
    return sum(1 for action, _, _ in evs if action == "instr")


def reseat(boxes: "BoxesNow", tournament: Tournament, lg: League, seq: int, evs: Batch, name: str,
           stack: int, exclude: List[Any], why: str, dead_bb: Any = None) -> Batch:
    """The events (after the batch *evs*) that give *name*, standing with *stack* chips
    and no seat at any box, a new seat (tdhost.live.room_plan.new_seat: not in *exclude*, nor
    at a broken table): the league's ``move`` there at once (``by`` "host") and a
    ``receive`` of their own for its box (*dead_bb*: a latecomer's dead big blind goes
    along), with a notice saying why (*why*)."""
    seat, note = _plan.new_seat(boxes, tournament, name, seq, exclude=exclude)
    payload = decide_move(tournament, name, seat)
    payload.update({"at_ms": boxes.now, "instrs": [], "by": "host"})
    text = "seat %s at table %d seat %d with %d chips" % (name, seat[0], seat[1], stack)
    return [("move", payload, None),
            ("instr", _ins.seat_player(lg, tournament, _instrs(evs), name, seat, stack, text,
                                       dead_bb), None),
            ("notice", {"text": "%s: %s%s" % (why, text, "; " + note if note else ""),
                        "src": []}, None)]


def refused_out(instr: Instr, payload: Payload, boxes: "BoxesNow") -> Write:
    """A box refused the host's ``move_out`` *instr* (result payload *payload*: "Seat 4 is
    empty", "Seat 4 is Ann Lee, not Bo Chen: ask the TD", "A move from seat 4 to the same
    seat"): the player has not left, so the move is off -- written with the answer and a
    notice in words -- and a plan follows at once, which moves another player of that
    table in their place (tdhost.live.room_plan.held).  A move the TD recorded by hand (the
    league has it already) has no certain fix: the notice tells the TD.  The decision's
    result is what Live does next."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        evs: Batch = [("instr_result", payload, None)]
        latest = tournament.instrs[instr["id"]]
        name, frm, to = instr["player"], instr["from"], instr["to"]
        said = "table %d refused to move %s from seat %d to table %d seat %d (%s)" % (
            frm[0], name, frm[1], to[0], to[1], payload.get("reason") or "no reason given")
        if latest.get("recorded") and list(frm) == list(to):  # the league and the box agree
            why = "%s sits at table %d seat %d already" % (name, to[0], to[1])
            return evs + [("instr_result", _ins.cancel(latest, why), None),
                          ("notice", {"text": "%s: %s" % (said, why), "src": []}, None)], Effects()
        if latest.get("recorded"):
            text = "%s, a move recorded by hand: the league seats %s at table %d seat %d " \
                   "already. The TD decides: ask the dealer at table %d who sits in seat %d" % (
                       said, name, to[0], to[1], frm[0], frm[1])
            log.warning("%s", text)
            return evs + [("notice", {"text": text, "src": []}, None)], Effects()
        if _ins.cancelled(latest):
            return evs, Effects()
        evs.append(("instr_result", _ins.cancel(latest, "table %d refused it: %s" % (
            frm[0], payload.get("reason") or "no reason given")), None))
        if frm[0] in _plan.broken_tables(tournament):
            text = "%s: the move is off; table %d breaks, so the TD moves %s by hand" % (
                said, frm[0], name)
        else:
            text = "%s: the move is off, and the host plans again without moving %s now" % (
                said, name)
        return evs + [("notice", {"text": text, "src": []}, None)], Effects(plan=True)
    return build


def refused_own(instr: Instr, payload: Payload, boxes: "BoxesNow") -> Write:
    """A box refused a ``receive`` of a player's own *instr* (a latecomer, a player sent back
    or seated elsewhere; result payload *payload*): they stand with their chips and no seat.
    When the league still seats them there, in the same batch the receive is called off
    and they get another seat (``reseat``); with the final table drawn, a notice for the
    TD.  The decision's result is what Live does next (a plan)."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        evs: Batch = [("instr_result", payload, None)]
        name, to = instr.get("player"), instr.get("to")
        entry = tournament.get(name) if name else None
        stack = _ins.chips(instr["body"].get("stack"))
        if entry is None or not name or entry.state != "in" or not to \
                or list(entry.seat or ()) != list(to) or stack is None:
            return evs, Effects(plan=True)
        why = "table %d refused %s at seat %d (%s)" % (to[0], name, to[1],
                                                      payload.get("reason") or "no reason given")
        if tournament.final is not None:
            evs.append(("notice", {"text": "%s: the TD seats them, with %d chips" % (
                why, stack), "src": []}, None))
            return evs, Effects(plan=True)
        if _leaving(tournament, to):
            # the seat a bust frees: seated there once it is (seat_waiting)
            return evs, Effects(plan=True)
        evs.append(("instr_result", _ins.cancel(instr, "seated elsewhere"), None))
        return evs + reseat(boxes, tournament, lg, seq, evs, name, stack, [to], why,
                            instr["body"].get("dead_bb")), Effects(plan=True)
    return build


def _leaving(tournament: Tournament, seat: Seat) -> bool:
    """Does a ``take_out`` not carried out yet still hold *seat* (a bust frees it)?"""
    return any(record["table"] == seat[0] and record["body"].get("seat") == seat[1]
               for record in _ins.take_outs(tournament))


def seat_waiting(tournament: Tournament, lg: League, take: Instr) -> Tuple[Batch, List[str]]:
    """(events, players) once the take_out *take* is carried out: a player whose own
    ``receive`` into that seat the box refused because the busted player still sat there
    (the receive came first: docs/live.md "Every seat taken") gets it again, with the same
    chips -- when the league still seats them there and nothing newer of theirs is on its
    way -- the refused one called off (no longer arriving)."""
    seat = [take["table"], take["body"].get("seat")]
    evs: Batch = []
    own: Dict[str, Instr] = {}
    for record in tournament.instrs.values():
        if record["action"] == "receive" and not record.get("move") and record.get("player"):
            own[record["player"]] = record  # each player's newest receive of their own
    sent = []
    for name, record in sorted(own.items()):
        entry = tournament.get(name)
        if list(record.get("to") or ()) != seat or _ins.state(record) != "refused" \
                or entry is None or entry.state != "in" or list(entry.seat or ()) != seat \
                or _ins.moving_players(tournament).get(name):
            continue
        body = record["body"]
        text = "seat %s at table %d seat %d with %d chips (the seat is free now)" % (
            name, seat[0], seat[1], body["stack"])
        evs.append(("instr_result", _ins.cancel(record, "sent again: the seat is free"), None))
        evs.append(("instr", _ins.seat_player(lg, tournament, _instrs(evs), name, seat,
                                              body["stack"], text, body.get("dead_bb")), None))
        sent.append(name)
    return evs, sent


# ------------------------------------------------------------------ the final table
def recover(tournament: Tournament, boxes: "BoxesNow") -> Steps:
    """Finish what a host killed between two writes left half done (docs/live.md "Moves"): the
    pending moves of players who are out (tdhost.live.bust_collector.after_bust), the final table's
    instructions when its draw has none after it.  Returns what Live does next."""
    gone = [name for name in _ins.moving_players(tournament)
            if (entry := tournament.get(name)) is None or entry.state != "in"]
    effects = (yield from _busts.after_bust(tournament, gone, boxes)) if gone else Effects()
    final_draw = tournament.final
    if final_draw is not None and "had" in final_draw and not tournament.ended:
        later = list(tournament.instrs.values())[final_draw.get("instrs_before", 0):]
        if not any(instr["action"] == "redraw" for instr in later):
            log.warning("the final table's instructions were not written: writing them now")
            yield _final.final_instrs(tournament, final_draw["had"], boxes.linked)
    return effects
