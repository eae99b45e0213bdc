"""Instructions to the boxes and their answers, as the league log keeps them (docs/host.md
§10.6; docs/protocol.md "Instruction actions"; docs/live.md "Instructions"): ``instr``
payloads, their ``instr_result`` answers, and the states derived from them (queued, sent,
acknowledged, done, refused, cancelled)."""

import hashlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live.shapes import Batch, Instr, Payload, Seat

ACTIONS = ("move_out", "receive", "break_table", "redraw", "hand_for_hand_start",
           "hand_for_hand_stop", "next_hand", "pause", "resume", "message", "withdraw",
           "deduct", "take_out")
FINAL = ("done", "refused")  # a box's answers after which it shows the instruction no more


def salt(lg: League, tournament: Tournament) -> str:
    return hashlib.sha256(("%s|%d|%s" % (lg.name, tournament.number, tournament.created)).encode(
        "utf-8")).hexdigest()[:6]


def new_id(lg: League, tournament: Tournament, k: int = 0) -> str:
    """The id of the next instruction (*k* more after the next, in one batch)."""
    return "i%s-%d" % (salt(lg, tournament), len(tournament.instrs) + 1 + k)


def results(record: Instr, by: Optional[str] = None) -> List[str]:
    return [x["result"] for x in record["results"] if by is None or x.get("by") == by]


def cancelled(record: Instr) -> bool:
    return "cancelled" in results(record)


def state(record: Instr, sent: bool = False) -> str:
    """The instruction's state (docs/live.md "Instructions"); "cancelled" for a cancelled one."""
    res = results(record)
    if "cancelled" in res:
        return "cancelled"
    for answer in ("done", "refused", "acknowledged"):
        if answer in res:
            return answer
    return "sent" if sent else "queued"


def refused_first(record: Instr) -> bool:
    """Did a box refuse *record* before the host called it off (not a withdraw's echo:
    a box answers ``refused`` to an instruction withdrawn from it)?"""
    for x in record["results"]:
        if x["result"] == "cancelled":
            return False
        if x["result"] == "refused" and x.get("by") == "box":
            return True
    return False


def reason(record: Instr) -> Optional[str]:
    for x in reversed(record["results"]):
        if x["result"] == "refused":
            return x.get("reason") or "no reason given"
    return None


def chips(value: Any) -> Optional[int]:
    """*v* as a stack of chips (a whole number >= 1), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def done_stack(record: Instr) -> Optional[int]:
    """The chips of *record*'s ``done`` answers (a move_out's: what the player left with; the
    box's answer first, then the TD's), or None."""
    for by in ("box", "td"):
        for x in record["results"]:
            if x["result"] == "done" and x.get("by") == by and chips(x.get("stack")):
                return x["stack"]
    return None


def complete(record: Instr) -> bool:
    """No longer pending: cancelled; a move's half once the move is recorded (of a move
    the league has already, ``recorded`` by hand: once done); a withdraw once the box
    answered; anything else once acknowledged or done."""
    if cancelled(record):
        return True
    if record.get("move"):
        if record.get("recorded"):
            return state(record) == "done"
        return record.get("moved", False)
    if record["action"] == "withdraw":
        return state(record) in ("acknowledged", "done", "refused")
    return state(record) in ("acknowledged", "done")


def pending(tournament: Tournament) -> List[Instr]:
    """The instructions still pending, in the order they were written."""
    return [record for record in tournament.instrs.values() if not complete(record)]


def take_outs(tournament: Tournament) -> List[Instr]:
    """The ``take_out``s not carried out yet (not cancelled, no ``done`` from the box or
    the TD): their seats still hold the player the TD entered out."""
    return [record for record in tournament.instrs.values()
            if record["action"] == "take_out" and not cancelled(record)
            and "done" not in results(record)]


SEAT_ACTIONS = ("move_out", "receive", "take_out")  # instructions that change who sits where


def after(tournament: Tournament, record: Instr) -> Optional[str]:
    """The id of the seat instruction for *record*'s table and seat written before it that
    nobody has answered yet (not the box, not the TD's confirm; not cancelled: such a one
    is sent until its box answers), or None: the box carries *record* out only after it
    (docs/protocol.md "Ordered seatings": a receive into a seat overtaking the take_out
    that frees it would be refused, "Seat 6 is taken")."""
    seat = record["body"].get("seat")
    last = None
    for other in tournament.instrs.values():
        if other["id"] == record["id"]:
            return last
        if other["table"] == record["table"] and other["action"] in SEAT_ACTIONS \
                and other["body"].get("seat") == seat and state(other) == "queued":
            last = other["id"]
    return None


def moves(tournament: Tournament) -> Dict[str, List[Instr]]:
    """{move id: [move_out] or [move_out, receive]} of the moves not recorded and not
    cancelled (the receive exists once the move_out is done); a move the league has
    already (``recorded`` by hand) until both boxes carried it out.  A move whose receive
    was called off is over, its move_out done or not: the player is out, or sits down
    wherever the host's own receive seats them (chaos seed 665: counted as still under way,
    it kept the player at its destination in every plan, and their real seat looked free)."""
    out: Dict[str, List[Instr]] = {}
    over = {record["move"] for record in tournament.instrs.values()
            if record.get("move") and record["action"] == "receive" and cancelled(record)}
    for record in tournament.instrs.values():
        if record.get("move") and not record.get("moved") and not cancelled(record) \
                and record["move"] not in over:
            out.setdefault(record["move"], []).append(record)
    for key, halves in list(out.items()):
        halves.sort(key=lambda record: record["action"] != "move_out")
        if halves[0].get("recorded") and len(halves) == 2 \
                and all(state(half) == "done" for half in halves):
            del out[key]
    return out


def moving_players(tournament: Tournament) -> Dict[str, List[Instr]]:
    """{player: move halves} of the players whose move is still pending."""
    out = {}
    for halves in moves(tournament).values():
        out[halves[0]["player"]] = halves
    return out


def walking(halves: List[Instr]) -> bool:
    """Has the player of this move left the old table (the move_out done) but not sat down
    at the new one (no receive done yet)?"""
    return state(halves[0]) == "done" and (len(halves) < 2 or state(halves[1]) != "done")


def arriving(tournament: Tournament) -> Set[str]:
    """Players with a ``receive`` of their own (not a move's: a latecomer, a standby
    player, a player sent back to their seat) not carried out yet: not moved meanwhile."""
    return {record["player"] for record in tournament.instrs.values()
            if record["action"] == "receive" and not record.get("move") and record.get("player")
            and state(record) not in ("done", "cancelled")}


def instr(iid: str, action: str, table: int, what: str, move: Optional[str] = None,
          player: Optional[str] = None, frm: Optional[Seat] = None, to: Optional[Seat] = None,
          **fields: Any) -> Instr:
    """An ``instr`` payload; *what* says it in words (the log, the console); *fields* are
    the instruction's own (docs/protocol.md; None left out)."""
    body: Dict[str, Any] = {"id": iid, "action": action}
    for k, value in fields.items():
        if value is not None:
            body[k] = value
    return {"id": iid, "action": action, "table": table, "body": body, "move": move,
            "player": player, "from": frm, "to": to, "text": what}


def _move_text(player: str, frm: Seat, to: Seat) -> str:
    return "move %s from table %d seat %d to table %d seat %d" % (player, frm[0], frm[1],
                                                                  to[0], to[1])


# what a move's receive takes from its move_out's record to the new table (docs/rules.md §14)
RECORD = ("away_used", "warnings", "slow_play", "penalties")


def move_out(lg: League, tournament: Tournament, k: int, player: str, frm: Seat, to: Seat,
             stack: Optional[int], record: Optional[Dict[str, Any]] = None) -> Instr:
    """The ``instr`` payload of a move's first half: *player* leaves seat *frm* [table,
    seat] for *to*; *stack*: the chips the source box's last status showed (None: unknown),
    kept as the receive's last resort; *record*: what that status showed the player takes
    along (tdhost.live.room_plan.record_at: LPPL ¶72's allowance used, warnings, slow-play
    warnings, penalty hands), kept in the league with the move and carried to the new
    table by the receive.  *k*: how many ids this batch has taken already."""
    out_id = new_id(lg, tournament, k)
    payload = instr(out_id, "move_out", frm[0], "%s (out)" % _move_text(player, frm, to), out_id,
              player, frm, to, seat=frm[1], to_table=to[0], to_seat=to[1], name=player)
    payload["planned_stack"] = stack
    for key in RECORD:
        if (record or {}).get(key):
            payload[key] = (record or {})[key]
    return payload


def receive(lg: League, tournament: Tournament, k: int, out: Instr, stack: int) -> Instr:
    """The ``instr`` payload of the second half of the move whose move_out is *out*: the
    player sits down at the destination with *stack* chips."""
    frm, to, player = out["from"], out["to"], out["player"]
    payload = instr(new_id(lg, tournament, k), "receive", to[0], "%s (in, %d chips)" % (
        _move_text(player, frm, to), stack), out["move"], player, frm, to, seat=to[1],
        name=player, stack=stack, from_table=frm[0],
        **{key: out[key] for key in RECORD if out.get(key)})
    if out.get("recorded"):
        payload["recorded"] = True
    return payload


def message(table: int, text: str) -> Callable[[Tournament, League, int], Tuple[Batch, None]]:
    """A ``message`` instruction to the box of *table*, a decision for Live.write."""
    return lambda tournament, lg, seq: ([("instr", instr(
        new_id(lg, tournament), "message", table, "message to table %d: %s" % (table, text),
        text=text), None)], None)


def seat_player(lg: League, tournament: Tournament, k: int, player: str, seat: Sequence[int],
                stack: int, what: str, dead_bb: Any = False) -> Instr:
    """The ``instr`` payload of a player's own ``receive`` (no move: a latecomer, a player
    sent back to the seat they left or seated elsewhere): the box at *seat* [table, seat]
    seats *player* with *stack* chips (*dead_bb*: a latecomer's dead big blind to enter);
    *what* says it in the log.  *k*: how many ids this batch has taken already."""
    return instr(new_id(lg, tournament, k), "receive", seat[0], what, player=player, to=list(seat),
                 seat=seat[1], name=player, stack=stack, dead_bb=True if dead_bb else None)


def take_out(lg: League, tournament: Tournament, k: int, player: str, seat: Sequence[int],
             why: str, stack: Optional[int] = None) -> Instr:
    """The ``instr`` payload of a ``take_out`` (protocol 1.3): the box at *seat* [table,
    seat] takes *player* out of it; *why* ends the sentence in the log ("entered by the
    TD"); *stack*: the chips its box's last status showed there (None: unknown), kept for
    an undo of the bust when the box does not say the chips it took out.  *k*: how many
    ids this batch has taken already."""
    payload = instr(new_id(lg, tournament, k), "take_out", seat[0],
                    "table %d: take seat %d out (%s is "
                    "out, %s)" % (seat[0], seat[1], player, why), player=player, to=list(seat),
                    seat=seat[1], name=player)
    if stack is not None:
        payload["planned_stack"] = stack
    return payload


def withdraw(lg: League, tournament: Tournament, k: int, record: Instr) -> Instr:
    """A ``withdraw`` of instruction *record* (the host called it off) to *record*'s table's box."""
    return instr(new_id(lg, tournament, k), "withdraw", record["table"],
                 "withdraw from table %d: %s"
                 % (record["table"], record["text"]), player=record.get("player"),
                 instr=record["id"])


def withdrawn(tournament: Tournament) -> Set[Any]:
    """The ids of the instructions a ``withdraw`` was written for."""
    return {record["body"].get("instr") for record in tournament.instrs.values()
            if record["action"] == "withdraw"}


def result(iid: str, res: str, by: str, text: str, reason: Optional[str] = None,
           src: Optional[List[Any]] = None, stack: Optional[int] = None) -> Payload:
    """An ``instr_result`` payload (*stack*: a done move_out's chips, when known)."""
    payload: Payload = {"id": iid, "result": res, "by": by, "reason": reason, "src": src or [],
                        "text": text}
    if stack is not None:
        payload["stack"] = stack
    return payload


def cancel(record: Instr, why: str) -> Payload:
    return result(record["id"], "cancelled", "host", "cancelled %s: %s" % (record["text"], why),
                  why)


def cancel_all(lg: League, tournament: Tournament, instrs: Sequence[Instr],
               why: Union[str, Callable[[Instr], str]], boxed: Callable[[int], bool],
               k: int = 0) -> Batch:
    """The events that call off the instructions *rs* (those not cancelled yet): a
    ``cancelled`` answer each, and a ``withdraw`` to the box of each that its box has not
    answered ``done`` or ``refused`` when *boxed(table)* says the table has a box -- in one
    batch, so a host killed in between leaves neither.  *why*: the reason (text, or a
    function of the instruction).  *k*: ids this batch has taken already."""
    evs: Batch = []
    out: List[Instr] = []
    seen = withdrawn(tournament)
    for record in instrs:
        if cancelled(record) or record["id"] in [x["id"] for x in out]:
            continue
        out.append(record)
        evs.append(("instr_result", cancel(record, why(record) if callable(why) else why), None))
    for record in out:
        if record["action"] == "withdraw" or record["id"] in seen:
            continue
        if any(x in FINAL for x in results(record, "box")) or not boxed(record["table"]):
            continue
        evs.append(("instr", withdraw(lg, tournament, k, record), None))
        k += 1
    return evs


def fallback_stack(tournament: Tournament, out: Instr) -> Tuple[int, str]:
    """(chips, where they come from) for the receive of move_out *out* when nobody said
    what the player left with: the stack planned with the move, else their chips at
    entry."""
    count = chips(out.get("planned_stack"))
    if count is not None:
        return count, "the stack table %d's box showed when the move was planned" % out["table"]
    entry = tournament.get(out["player"])
    count = chips(((entry.stack or 0) - entry.deducted) if entry is not None else None)
    return (count or tournament.setup["starting_stack"]), \
        "their chips at entry (no status showed them)"
