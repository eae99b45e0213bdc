"""What the live host does about the league's new events, whoever wrote them: the console,
the CLI in another process on the same file, undo and redo, a box (docs/live.md "The
model").  Live reacts to every event after the last one it reacted to, the same way
whatever path wrote it: a bust takes its players' seats out at the boxes and calls off
their instructions, an undone bust seats them back with the chips the box took out, a move
recorded by hand is carried out at the boxes.  A reaction is decided from the league's
events and the boxes as values (``tables.BoxesNow``): it yields its writes to Live
(``Steps``: each written, the tournament after it sent back; ``None`` asks for the
tournament as it is now) and returns what Live does next (``Effects``); what a host
killed between an event and its reaction left undone shows in the seat check."""

import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from tdhost.league.replay import League
from tdhost.league.store import LoggedEvent
from tdhost.league.tournament import Tournament
from tdhost.live import (
    bust_collector as _busts,
    hand_moves as _hand,
    instruction_log as _ins,
    moves as _moves,
    room_plan as _plan,
)
from tdhost.live.effects import Effects, Steps, Write, now
from tdhost.live.shapes import Batch, Instr, Payload, Seat, Statuses

if TYPE_CHECKING:
    from tdhost.live.night import Live
    from tdhost.live.tables import BoxesNow

log = logging.getLogger("tdhost.live")


class Reactions:
    """The last event Live reacted to, and the reacting (never nested: a reaction's own
    writes are reacted to by the round that wrote them)."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self._busy = False

    def step(self, live: "Live") -> None:
        """React to every event written since the last one reacted to."""
        if self._busy:
            return
        self._busy = True
        try:
            while live.last_seq > self.seq:
                new = [ev for ev in since(live.lg, self.seq) if ev.tournament == live.number]
                self.seq = live.last_seq
                own = live.journal.own_seqs()  # the TD's action under way wrote these
                others = [ev for ev in new if ev.seq not in own]
                if own and others:  # (another writer's, read again with the action's)
                    with live.journal.aside():
                        live.follow(live.carry_out(react(live.lg, others, live.boxes_now())))
                    new = [ev for ev in new if ev.seq in own]
                live.follow(live.carry_out(react(live.lg, new, live.boxes_now())))
        finally:
            self._busy = False


def since(lg: League, seq: int) -> List[LoggedEvent]:
    """The league's events after *seq*, in order."""
    out = []
    for ev in reversed(lg.events):
        if ev.seq <= seq:
            break
        out.append(ev)
    out.reverse()
    return out


def react(lg: League, evs: Sequence[LoggedEvent], boxes: "BoxesNow") -> Steps:
    """The reactions to the new events *evs* of the tournament in league *lg* (module
    notes), with the boxes as they are (*boxes*); returns what Live does next."""
    effects = Effects()
    undone: List[LoggedEvent] = []
    by_hand = _hand.chained_moves(lg, evs)
    for ev in evs:
        if ev.seq in lg.undone:
            continue  # taken back already (the CLI wrote and undid it between two polls)
        if ev.action == "bust":
            effects += yield from _bust(ev.payload, boxes)
        elif ev.action == "move" and "instrs" not in ev.payload and ev.seq in by_hand:
            effects += yield from _hand.moved_by_hand(by_hand[ev.seq], boxes)
        elif ev.action == "undo":
            target = _event(lg, ev.undoes)
            if target is not None:
                undone.append(target)
    if undone:
        effects += yield from _undone(undone, boxes)
    return effects


def _boxed(boxes: "BoxesNow", tournament: Tournament) -> Callable[[int], bool]:
    return lambda table: boxes.boxed(tournament, table)


def _event(lg: League, seq: Optional[int]) -> Optional[LoggedEvent]:
    for ev in reversed(lg.events):
        if ev.seq == seq:
            return ev
        if seq is not None and ev.seq < seq:
            break
    return None


# ------------------------------------------------------------------ where the boxes seat them
def at_box(tournament: Tournament, name: str) -> Optional[Seat]:
    """[table, seat] where a box seats *name* now, whether the league counts them in or
    out, or None: walking between tables (or gone from their seat, the receive called
    off), not seated yet by a receive of their own (or never: it was called off), or
    nowhere a box knows (tdhost.live.tables.name_at's view)."""
    final = tournament.final
    if final is not None and not final.get("seated") and "from" in final:
        where = final["from"].get(name)
        return list(where) if where else None
    halves = _ins.moving_players(tournament).get(name)
    if halves:
        if _ins.state(halves[0]) != "done":
            return list(halves[0]["from"])
        if len(halves) > 1 and _ins.state(halves[1]) == "done":
            return list(halves[0]["to"])
        return None
    if name in _ins.arriving(tournament):
        return None
    entry = tournament.get(name)
    own = [r for r in tournament.instrs.values() if r["action"] == "receive"
           and not r.get("move") and r.get("player") == name]
    if entry is not None and own and list(own[-1].get("to") or ()) == list(entry.seat or ()) \
            and _ins.cancelled(own[-1]) and "done" not in _ins.results(own[-1]):
        return None  # their receive there was called off before any box seated them
    last = [r for r in tournament.instrs.values() if r.get("player") == name
            and r["action"] in _ins.SEAT_ACTIONS and "done" in _ins.results(r)]
    if last and last[-1]["action"] != "receive":
        return None  # they left their seat (a move_out done, its receive called off)
    return list(entry.seat) if entry is not None and entry.seat else None


def refused_take(instr: Instr, payload: Payload, boxes: "BoxesNow") -> Write:
    """A box refused the ``take_out`` *instr* (result payload *payload*: "Seat 4 is Ann
    Lee, not Bo Chen: ask the TD", "Seat 4 is taken out after this hand already"),
    resolved with the answer where the fix is certain (docs/live.md "Instructions"):
    another take_out of that seat waits at the box already, or the player sits nowhere at
    a box (``at_box``): its goal holds, it is closed with a sentence; the player sits at
    another seat where that box shows chips: a take_out there.  Otherwise the TD hears
    what to ask the dealer.  Each in words in the log."""

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, Effects]:
        evs: Batch = [("instr_result", payload, None)]
        latest = tournament.instrs[instr["id"]]
        name, table, seat = instr.get("player"), instr["table"], instr["body"].get("seat")
        said = "table %d refused to take seat %s out (%s)" % (
            table, seat, payload.get("reason") or "no reason given")
        waiting = [x for x in _ins.take_outs(tournament) if x["id"] != instr["id"]
                   and x["table"] == table and x["body"].get("seat") == seat
                   and _ins.state(x) == "acknowledged"]
        where = at_box(tournament, name) if name else None
        status = boxes.statuses.get(where[0]) if where else None
        shown = status.get("stacks") if isinstance(status, dict) else None
        if _ins.cancelled(latest):
            return evs, Effects()
        if waiting:
            why = "its take-out after this hand waits at the box already"
        elif name and where is None:
            why = "%s sits at no box now: nothing to take out" % name
        elif name and where and list(where) != [table, seat] and isinstance(shown, dict) \
                and str(where[1]) in shown:
            why = "%s sits at table %d seat %d: taken out there" % (name, where[0], where[1])
            evs.append(("instr", _ins.take_out(lg, tournament, 0, name, where, "at the seat "
                        "the box has them", _plan.stack_at(boxes.statuses, *where)), None))
        else:
            text = "%s. The TD decides: ask the dealer who sits in seat %s%s" % (
                said, seat, "; if it is %s, who is out, the dealer takes them out at the "
                "box" % name if name else "")
            log.warning("%s", text)
            return evs + [("notice", {"text": text, "src": []}, None)], Effects()
        return evs + [("instr_result", _ins.cancel(latest, why), None),
                      ("notice", {"text": "%s: %s" % (said, why), "src": []}, None)], Effects()
    return build


def _bust(payload: Dict[str, Any], boxes: "BoxesNow") -> Steps:
    names = [name for tier in payload["tiers"] for name in tier]
    tournament = yield from now()
    seats: List[Tuple[str, Seat]] = []
    if payload.get("by") != "box" and not tournament.ended:
        for name in names:  # before after_bust: a receive called off seats nobody
            where = at_box(tournament, name)
            if where is not None:
                seats.append((name, where))
    effects = yield from _busts.after_bust(tournament, names, boxes)
    if seats:
        statuses = boxes.statuses
        yield (lambda current, lg, seq: ([("instr", _ins.take_out(
            lg, current, k, name, seat, "entered by the TD", _plan.stack_at(statuses, *seat)),
            None) for k, (name, seat) in enumerate(seats)], None))
    return effects


# ------------------------------------------------------------------ undo
def _undone(targets: Sequence[LoggedEvent], boxes: "BoxesNow") -> Steps:
    for target in targets:
        if target.action == "bust":
            yield from _bust_undone([name for tier in target.payload["tiers"] for name in tier],
                                    boxes)
        elif target.action in ("late", "reenter"):
            yield from _entry_undone(target.payload["name"], boxes, target.action)
        elif target.action == "move" and "instrs" not in target.payload:
            yield _hand.move_undone(target.payload, boxes)
    yield from cancel_orphans(boxes)
    return Effects(plan=True, everyone=True, clock=True)  # the seating and the clock again


def _take_out_of(tournament: Tournament, name: str) -> Optional[Instr]:
    """The last take_out of *name* not called off, unless a receive of their own (not
    called off) followed it: the box that took them out seats them back."""
    found = None
    for record in tournament.instrs.values():
        if record.get("player") != name or _ins.cancelled(record):
            continue
        if record["action"] == "take_out":
            found = record
        elif record["action"] == "receive" and not record.get("move"):
            found = None
    return found


def _bust_undone(names: Sequence[str], boxes: "BoxesNow") -> Steps:
    """The players of a bust the TD undid play on: a take_out of theirs not carried out
    yet is called off; where a box took them out, it seats them back with the chips it
    took out (their own ``receive``; another seat when theirs is taken now); one who had
    left their table on a move the bust called off sits down with the chips they left
    with (``moves.send_back``: their league seat, or another when that cannot take them)."""
    for name in names:
        tournament = yield from now()
        entry = tournament.get(name)
        if entry is None or entry.state != "in" or not entry.seat:
            continue
        take = _take_out_of(tournament, name)
        if take is not None:
            yield _play_on(take["id"], "the TD undid %s's bust" % entry.name,
                           "done" in _ins.results(take), boxes)
            continue
        out = _left_on_move(tournament, name)
        if out is not None and tournament.final is None:
            yield _walk_back(out["id"], boxes)


def _left_on_move(tournament: Tournament, name: str) -> Optional[Instr]:
    """The move_out of *name* a box carried out on a move called off since, or whose
    receive was (the TD's bust of a player on a move recorded by hand), followed by no
    other instruction of theirs but withdraws and that move's receive not carried out:
    they stand with the chips they left with and no seat at any box; else None."""
    found: Optional[Instr] = None
    off = False
    for record in tournament.instrs.values():
        if record.get("player") != name or record["action"] == "withdraw":
            continue
        if found is not None and record["action"] == "receive" \
                and record.get("move") == found["move"]:
            if "done" in _ins.results(record):
                found = None
            else:
                off = off or _ins.cancelled(record)
            continue
        found = record if record["action"] == "move_out" \
            and "done" in _ins.results(record) else None
        off = found is not None and _ins.cancelled(found)
    return found if off else None


def _walk_back(iid: str, boxes: "BoxesNow") -> Write:
    """The player of the done, called-off move_out *iid*, whose bust the TD undid, sits
    down again with the chips they left with."""
    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        out = current.instrs[iid]
        frm, to = out["from"], out["to"]
        left = "%s left table %d seat %d for table %d seat %d before the TD undid their " \
               "bust" % (out["player"], frm[0], frm[1], to[0], to[1])
        evs = _ins.cancel_all(lg, current, [out], "the TD undid %s's bust after they left"
                              % out["player"], _boxed(boxes, current))  # a recorded move's
        return _moves.send_back(boxes, current, lg, seq, out, _ins.done_stack(out), left,
                                "the TD undid their bust after they left", evs, {}), None
    return build


def _seated_by_box(tournament: Tournament, name: str) -> Optional[Seat]:
    """[table, seat] where the last receive of *name* a box carried out seated them, unless
    they left it since (a move_out or a take_out carried out), else None."""
    where: Optional[Seat] = None
    for record in tournament.instrs.values():
        if record.get("player") != name or "done" not in _ins.results(record):
            continue
        if record["action"] == "receive":
            where = list(record["to"])
        elif record["action"] in ("move_out", "take_out"):
            where = None
    return where


def _entry_undone(name: str, boxes: "BoxesNow", action: str = "late") -> Steps:
    """A late entry or a re-entry (*action*) the TD undid: a box that seated the player
    takes them out again (a ``take_out``: they are no longer in the game); a receive not
    carried out is called off with the other orphans."""
    tournament = yield from now()
    entry = tournament.get(name)
    if entry is not None and entry.state == "in":
        return
    seat = _seated_by_box(tournament, name)
    if seat is None or any(record.get("player") == name and [
            record["table"], record["body"].get("seat")] == list(seat)
            for record in _ins.take_outs(tournament)):
        return  # (a take_out of that seat is on its way already: an earlier entry's)
    statuses = boxes.statuses
    yield (lambda current, lg, seq: ([("instr", _ins.take_out(
        lg, current, 0, name, seat, "the TD undid their %s" % (
            "re-entry" if action == "reenter" else "late entry"),
        _plan.stack_at(statuses, *seat)), None)], None))


def _play_on(iid: str, why: str, carried_out: bool, boxes: "BoxesNow") -> Write:
    """The take_out *iid* of a player who plays on: seated back where it was carried out,
    else called off (*why*)."""
    def build(current: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        take = current.instrs[iid]
        if carried_out:
            return _seat_back(boxes, current, lg, seq, take), None
        # the seat is theirs again: a move planned into it that neither box has begun is off
        seat = [take["table"], take["body"].get("seat")]
        heading = [half for halves in _ins.moves(current).values()
                   if halves[0]["to"] == seat
                   and not any(_ins.state(h) == "done" for h in halves) for half in halves]
        evs = _ins.cancel_all(lg, current, [take] + heading, why, _boxed(boxes, current))
        return evs + _moved_back(current, lg, take["player"], seat, heading, evs,
                                 boxes.statuses, boxes.now), None
    return build


def _moved_back(current: Tournament, lg: League, name: str, seat: Seat, heading: List[Instr],
                evs: Batch, statuses: Statuses, now: int) -> Batch:
    """A player who plays on at *seat*, where the box still seats them, while the league
    seats them elsewhere: the bust called off a move recorded by hand that the undo gives
    back to the league.  When that seat is free the boxes carry the move out again; when
    a move of the host's heads there now (begun), the league seats them back at *seat*
    (a ``move`` by the host) and the TD hears so (docs/live.md "Undo")."""
    entry = current.get(name)
    if entry is None or not entry.seat or list(entry.seat) == list(seat) \
            or _ins.moving_players(current).get(name) or current.final is not None:
        return []
    to = list(entry.seat)
    k = sum(1 for action, _, _ in evs if action == "instr")
    if _seat_free(current, name, to):
        out = _ins.move_out(lg, current, k, name, seat, to, _plan.stack_at(statuses, *seat),
                            _plan.record_at(statuses, *seat))
        out["recorded"] = True
        return [("instr", out, None)]
    off = {half["id"] for half in heading}  # called off in this batch (chaos seed 612)
    moving = {player: halves for player, halves in _ins.moving_players(current).items()
              if halves[0]["id"] not in off}
    if _plan.seating_after_moves(current, moving).get(seat[0], {}).get(seat[1]) \
            not in (None, name) or any(halves[0]["to"] == seat for halves in moving.values()):
        return [("notice", {"text": "%s plays on at table %d seat %d, but the league seats "
                            "them at table %d seat %d and moves head for both: the TD seats "
                            "them" % (name, seat[0], seat[1], to[0], to[1]), "src": []}, None)]
    payload = {"name": name, "from": to, "seat": list(seat), "at_ms": now,
               "instrs": [], "by": "host"}
    return [("move", payload, None),
            ("notice", {"text": "%s's bust was undone: they play on at table %d seat %d, "
                        "where the dealer still seats them (table %d seat %d, where the TD "
                        "had moved them, is taken by a move under way)" % (
                            name, seat[0], seat[1], to[0], to[1]), "src": []}, None)]


def _seat_back(boxes: "BoxesNow", tournament: Tournament, lg: League, seq: int,
               take: Instr) -> Batch:
    """The events that seat the player of the done take_out *take* back at the boxes: at
    their league seat when it is free, else at another (``moves.reseat``)."""
    name = take["player"]
    entry = tournament.need(name)
    seat = list(entry.seat or take["to"])
    stack = _ins.done_stack(take) or _ins.chips(take.get("planned_stack"))
    evs: Batch = []
    if stack is None:
        stack = _ins.chips((entry.stack or 0) - entry.deducted) \
            or tournament.setup["starting_stack"]
        evs.append(("notice", {"text": "%s: no box said how many chips were taken out of %s; "
                               "they sit down with %d chips, their chips at entry: check them" % (
                                   name, _where(take), stack), "src": []}, None))
    why = "%s's bust was undone" % name
    if _seat_free(tournament, name, seat):
        return [("instr", _ins.seat_player(
            lg, tournament, 0, name, seat, stack, "seat %s back at table %d seat %d with %d "
            "chips (%s)" % (name, seat[0], seat[1], stack, why)), None)] + evs
    return _moves.reseat(boxes, tournament, lg, seq, evs, name, stack, [seat],
                         "%s, but table %d seat %d is taken now" % (why, seat[0], seat[1])) + evs


def taken_anyway(instr: Instr, payload: Payload, boxes: "BoxesNow") -> Write:
    """A box answers ``done`` (*payload*) for the ``take_out`` *instr* the host had called
    off: the TD undid the bust after the dealer had taken the seat out (the withdraw came
    late).  The answer is logged with the chips taken out, and a player who plays on gets
    their seat back with them (``_seat_back``), unless a receive or a move of theirs is
    under way already (chaos seed 243: the box left them out, the league had them)."""
    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
        take = tournament.instrs[instr["id"]]
        if "done" in _ins.results(take, "box"):
            return [], None
        evs: Batch = [("instr_result", payload, None)]
        name = take.get("player")
        entry = tournament.get(name) if name else None
        if entry is None or entry.state != "in" or entry.name in _ins.moving_players(tournament) \
                or any(r["action"] == "receive" and r.get("player") == name
                       and not _ins.complete(r) for r in tournament.instrs.values()):
            return evs, None
        done = dict(take, results=list(take["results"]) + [payload])
        return evs + _seat_back(boxes, tournament, lg, seq, done), None
    return build


def _where(take: Instr) -> str:
    return "table %d seat %s" % (take["table"], take["body"].get("seat"))


def _seat_free(tournament: Tournament, name: str, seat: Seat) -> bool:
    """Can *name* sit down at *seat* again: a table not broken, no pending move heading
    there, nobody else seated or offered it?"""
    if seat[0] in _plan.broken_tables(tournament):
        return False
    if tuple(seat) in _plan.taken_seats(tournament):
        return False
    return _plan.seating_after_moves(tournament).get(seat[0], {}).get(seat[1]) in (None, name)


def _orphans(tournament: Tournament) -> List[Instr]:
    """Pending instructions an undo left without a reason: those of players no longer in
    the game, a chip deduction of a player whose arrival was undone.  A ``receive`` of a
    player's own counts until the box carried it out: acknowledged, it waits at the box
    for the hand's end (it would seat a player the league no longer has)."""
    out = []
    waiting = [record for record in tournament.instrs.values()
               if record["action"] == "receive" and not record.get("move")
               and _ins.state(record) == "acknowledged"]
    for record in _ins.pending(tournament) + waiting:
        if not record.get("player") or record["action"] in ("withdraw", "take_out"):
            continue
        entry = tournament.get(record["player"])
        if entry is None or entry.state != "in" \
                or (record["action"] == "deduct" and entry.absent):
            out.append(record)
    return out


def cancel_orphans(boxes: "BoxesNow") -> Steps:
    """After an undo: the orphaned instructions (``_orphans``) are off, withdrawn from the
    boxes that may show them."""
    tournament = yield from now()
    if not _orphans(tournament):
        return

    def why(record: Instr) -> str:
        entry = tournament.get(record["player"])
        if entry is not None and entry.state == "in":
            return "%s's arrival was undone" % record["player"]
        return "%s is no longer in the game" % record["player"]

    yield (lambda current, lg, seq: (_ins.cancel_all(
        lg, current, _orphans(current), why, _boxed(boxes, current)), None))


def missed_busts(lg: League, tournament: Tournament) -> List[LoggedEvent]:
    """The TD's busts of *tournament* that no host reacted to, each with only the players it
    missed: still out, seated at a box (``at_box``) and no ``take_out``
    written for them since.  A host killed between the CLI's bust and its next poll starts
    at the league's last seq; without their take_outs the seating drops those players, and a
    box that has dealt no hand rebuilds its table without them and their chips."""
    if tournament.ended:
        return []
    busts: Dict[str, LoggedEvent] = {}  # player -> their last bust by the TD
    taken: Dict[str, int] = {}  # player -> seq of their last take_out written
    for ev in lg.events:
        if ev.tournament != tournament.number or ev.seq in lg.undone:
            continue
        if ev.action == "bust" and ev.payload.get("by") != "box":
            for tier in ev.payload.get("tiers") or ():
                for name in tier:
                    busts[name] = ev
        elif ev.action == "instr" and ev.payload.get("action") == "take_out" \
                and ev.payload.get("player"):
            taken[ev.payload["player"]] = ev.seq
    missed: Dict[int, Tuple[LoggedEvent, List[str]]] = {}
    for name, ev in busts.items():
        entry = tournament.get(name)
        if entry is None or entry.state != "out" or taken.get(name, 0) > ev.seq \
                or at_box(tournament, name) is None:
            continue
        missed.setdefault(ev.seq, (ev, []))[1].append(name)
    return [LoggedEvent(ev.seq, ev.tournament, ev.at, ev.action,
                        dict(ev.payload, tiers=[sorted(names)]), ev.undoes, ev.batch)
            for _, (ev, names) in sorted(missed.items())]
