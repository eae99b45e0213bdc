"""Moves the TD recorded by hand on the live night (`tdhost move`, `tdhost plan --apply`, the
console; docs/live.md "The model", "Undo"): the boxes carry them out -- two read together
as one move (``chained_moves``), the host's own moves they cross called off
(``moved_by_hand``) -- and an undo takes one back at the boxes (``move_undone``).  Each is
a decision Live writes, or a few in turn (``Steps``), from the tournament and the boxes as
values (``tables.BoxesNow``); tdhost.live.reactions calls them for the league's new
events."""

import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Sequence, Tuple

from tdhost.league.replay import League
from tdhost.league.store import LoggedEvent
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins, room_plan as _plan
from tdhost.live.effects import Effects, Steps, Write, notice, now
from tdhost.live.shapes import Batch

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow

log = logging.getLogger("tdhost.live")


def _boxed(boxes: "BoxesNow", tournament: Tournament) -> Callable[[int], bool]:
    return lambda table: boxes.boxed(tournament, table)


def move_undone(payload: Dict[str, Any], boxes: "BoxesNow") -> Write:
    """A move recorded by hand that the TD undid (*payload*: the league's ``move``): the
    league seats the player back at the seat they left, so the boxes put them back there:
    a move neither box has begun is called off; a player who has left the old table (the
    move_out done) is moved back from the new seat (a move of the league's own, as a move
    recorded by hand is), whose move_out the new table's box gets after the receive: a
    receive called off there may be carried out anyway, the player then at two seats."""
    name, to = payload["name"], list(payload["seat"])

    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        entry = current.get(name)
        halves = [record for record in current.instrs.values()
                  if record.get("move") and record.get("recorded") and record["player"] == name
                  and list(record["to"]) == to and not _ins.cancelled(record)]
        if entry is None or entry.state != "in" or not entry.seat or current.final is not None:
            return [], None
        back = list(entry.seat)
        why = "the TD undid the move of %s to table %d seat %d" % (name, to[0], to[1])
        if not halves:
            return _own_receive_back(current, lg, name, to, back, why, boxes), None
        halves.sort(key=lambda record: record["action"] != "move_out")
        out = halves[0]
        if _ins.state(out) != "done":
            return _ins.cancel_all(lg, current, halves, why, _boxed(boxes, current)), None
        # a move of the host's for them since (a plan): not begun, it is called off; begun,
        # they are on their way, and its receive records where they sit (chaos seed 549:
        # both went to the box, which carried out the host's, and the league had the
        # player at two seats)
        later = [half for move in _ins.moves(current).values()
                 if move[0]["player"] == name and move[0]["id"] != out["id"] for half in move]
        if any(_ins.state(half) == "done" for half in later):
            return [], None
        evs = _ins.cancel_all(lg, current, later, why, _boxed(boxes, current))
        k = sum(1 for action, _, _ in evs if action == "instr")
        statuses = boxes.statuses
        again = _ins.move_out(lg, current, k, name, to, back, _plan.stack_at(statuses, *to),
                              _plan.record_at(statuses, *to))
        again["recorded"] = True
        return evs + [("instr", again, None)], None
    return build


def _own_receive_back(tournament: Tournament, lg: League, name: str, to: List[int],
                      back: List[int], why: str, boxes: "BoxesNow") -> Batch:
    """A move recorded by hand undone after the move itself was called off, while a receive
    of the player's own was on its way to its seat *to* (the TD busted them on the way,
    then undid the bust: the host seated them back at the league's seat, the move's -- chaos
    seed 631): that receive is called off and they sit down at *back*, the seat the undo
    gives them, with the same chips; carried out already, the box moves them there."""
    own = [record for record in tournament.instrs.values()
           if record["action"] == "receive" and not record.get("move")
           and record.get("player") == name and list(record.get("to") or ()) == to
           and not _ins.cancelled(record)]
    if not own or to == back:
        return []
    last = own[-1]
    stack = _ins.chips(last["body"].get("stack"))
    if _ins.state(last) == "done" or stack is None:
        statuses = boxes.statuses
        again = _ins.move_out(lg, tournament, 0, name, to, back, _plan.stack_at(statuses, *to),
                              _plan.record_at(statuses, *to))
        again["recorded"] = True
        return [("instr", again, None)]
    evs = _ins.cancel_all(lg, tournament, [last], why, _boxed(boxes, tournament))
    k = sum(1 for action, _, _ in evs if action == "instr")
    return evs + [("instr", _ins.seat_player(
        lg, tournament, k, name, back, stack, "seat %s at table %d seat %d with %s chips (%s)"
        % (name, back[0], back[1], stack, why)), None)]


def chained_moves(lg: League, evs: Sequence[LoggedEvent]) -> Dict[int, Dict[str, Any]]:
    """{seq: payload} of the moves recorded by hand among *evs* that the boxes carry out:
    of a player moved by hand twice before the host read either (`tdhost move`, then `tdhost
    plan --apply` moving them on), only the last, from the seat the first one left -- where
    the boxes still have them (chaos seed 75: the box was told to move them out of a seat
    it never gave them)."""
    out: Dict[int, Dict[str, Any]] = {}
    last: Dict[str, int] = {}  # player -> seq of their last such move so far
    for ev in evs:
        if ev.action != "move" or "instrs" in ev.payload or ev.seq in lg.undone:
            continue
        name = ev.payload["name"]
        before = out.get(last.get(name, -1))
        payload = dict(ev.payload)
        if before is not None and before.get("from") and \
                list(payload.get("from") or ()) == list(before["seat"]):
            payload["from"] = before["from"]  # where the boxes still have them
            del out[last[name]]
        out[ev.seq] = payload
        last[name] = ev.seq
    return out


def moved_by_hand(payload: Dict[str, Any], boxes: "BoxesNow") -> Steps:
    """A move the TD recorded by hand (*payload*: the league's ``move``): the boxes carry it
    out.  The host's own pending moves it crosses (the same player, the same seat) that
    neither box has begun are called off; when the player's own move is under way at the
    boxes, the TD hears so instead."""
    name, frm, to = payload["name"], payload.get("from"), list(payload["seat"])
    tournament = yield from now()
    entry = tournament.get(name)
    if entry is None or entry.state != "in" or not frm or list(entry.seat or ()) != to:
        return Effects()
    mine = _ins.moving_players(tournament).get(name)
    if mine and any(_ins.state(half) == "done" for half in mine):
        text = "%s was moved to table %d seat %d by hand while their move to table %d seat " \
               "%d is under way at the boxes: the TD seats them" % (
                   name, to[0], to[1], mine[0]["to"][0], mine[0]["to"][1])
        log.warning("%s", text)
        yield notice(text)
        return Effects(plan=True)
    crossed = [half for halves in _ins.moves(tournament).values()
               if not any(_ins.state(h) == "done" for h in halves)
               and (halves[0]["player"] == name or halves[0]["to"] == to)
               for half in halves]
    where = list(mine[0]["from"]) if mine else list(frm)
    statuses = boxes.statuses

    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        evs = _ins.cancel_all(lg, current, [current.instrs[h["id"]] for h in crossed],
                              "%s was moved by hand" % name, _boxed(boxes, current))
        k = sum(1 for action, _, _ in evs if action == "instr")
        out = _ins.move_out(lg, current, k, name, where, to, _plan.stack_at(statuses, *where),
                            _plan.record_at(statuses, *where))
        out["recorded"] = True
        return evs + [("instr", out, None)], None

    yield build
    return Effects(plan=True)
