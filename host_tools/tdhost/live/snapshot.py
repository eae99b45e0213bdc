"""``Live.snapshot()``: the night as one JSON-ready dict for the web console and the big
screen (docs/host.md §10.2 "snapshot()" lists every key).  Built fresh from the league,
the boxes' last statuses and the links, given by Live (``night``; Live adds its parts'
own views: undo, Wi-Fi, league); it changes nothing.  Unix ms on Live's clock."""

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple

from tdhost.league import rulings as _rulings
from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import (
    final as _final,
    instruction_log as _ins,
    master_clock as _clock,
    money_events as _money,
    room_plan as _plan,
    wording as _words,
)
from tdhost.live.shapes import Instr, Seat, ServedLink, Statuses
from tdhost.rules import handforhand as _hfh, schedule as _schedule

if TYPE_CHECKING:
    from tdhost.live.tables import TableView

LOG_MAX = 50
MOVES_MAX = 20


def _ts(seat: Optional[Seat]) -> Optional[str]:
    return "%d.%d" % tuple(seat) if seat else None


def _state(tournament: Tournament) -> str:
    if tournament.ended:
        return "finished"
    if tournament.started:
        return "running"
    if tournament.draw:
        return "drawn"
    return "registration"


def _players(tournament: Tournament) -> Dict[str, Any]:
    if tournament.started is None:
        n = len(tournament.entries("registered"))
        return {"entries": n, "left": n, "average_stack": None, "chips_in_play": None}
    entrants = tournament.entrants()
    left = len(tournament.remaining())
    chips = sum((entry.stack or 0) - entry.deducted + entry.earlier for entry in entrants) \
        + _money.chips_added(tournament)
    return {"entries": tournament.entry_count(), "left": left,
            "average_stack": chips // left if left else None, "chips_in_play": chips}


def _final_stacks(tournament: Tournament) -> Dict[str, int]:
    """{player: chips} the league gave the finalists (the final table's sitting down, else
    the draw's count): the final table's card shows them until its box counts its own."""
    final_draw = tournament.final
    if not final_draw:
        return {}
    return dict(final_draw.get("stacks") or {})


def _tables(tournament: Tournament, views: Mapping[int, "TableView"],
            links: Mapping[int, Optional[ServedLink]]) -> List[Dict[str, Any]]:
    """Each table's card: *views*, what each box last told; *links*, the best link to the
    box of each table a link names (None: no box known on it)."""
    seating = tournament.seating()
    final = _final_stacks(tournament)
    final_draw = tournament.final or {}
    final_tb = final_draw.get("table")
    broken = _plan.broken_tables(tournament)
    numbers = set(tournament.tables_used) | set(seating) | broken | set(links)
    out = []
    for tb in sorted(numbers):
        link = links.get(tb)
        view = views.get(tb)
        box_status = view.status if view is not None else None
        stacks = box_status.get("stacks") if isinstance(box_status, dict) else None
        away = box_status.get("away") if isinstance(box_status, dict) else None
        seats = {}
        for seat, name in sorted(seating.get(tb, {}).items()):
            entry = tournament.get(name)
            stack = stacks.get(str(seat)) if isinstance(stacks, dict) else None
            if tb == final_tb and (stack is None or not final_draw.get("seated")):
                stack = final.get(name, stack)  # the box still deals the tables before
            seats[str(seat)] = {"name": name, "stack": stack,
                             "away": bool((isinstance(away, list) and seat in away)
                                          or (entry is not None and entry.absent))}
        out.append({
            "table": tb, "box": link.box if link is not None else None,
            "link": link.state if link is not None else "none",
            "last_contact_ms": view.contact if view is not None else None,
            "hand": view.hand if view is not None else None,
            "button": box_status.get("button") if isinstance(box_status, dict) else None,
            "sb": box_status.get("sb_seat") if isinstance(box_status, dict) else None,
            "bb": box_status.get("bb_seat") if isinstance(box_status, dict) else None,
            "in_hand": bool(isinstance(box_status, dict) and box_status.get("street")),
            "broken": tb in broken, "seats": seats})
    return out


def _records(statuses: Statuses, tournament: Tournament) -> Dict[str, Dict[str, Any]]:
    """{player: what they take to another table} (docs/rules.md §14): from their box's last
    status at the seat where they sit now (before the final table sits down: the seat they
    were drawn from), or the record of the move that took them off their last table."""
    if not tournament.started:
        return {}
    final = tournament.final
    where = dict(final["from"]) if final and "from" in final and not final.get("seated") \
        else _final.where_now(tournament)
    out = {}
    for name, seat in where.items():
        record = _plan.record_at(statuses, seat[0], seat[1]) if seat \
            else _final.moved_record(tournament, name)
        if record:
            out[name] = record
    return out


def _settled(tournament: Tournament, instr: Instr) -> bool:
    """A pending instruction nobody waits for any more: once the final table has sat
    down, the redraw and table-break instructions of the final draw."""
    if instr["action"] in ("redraw", "break_table"):
        return bool(tournament.final and tournament.final.get("seated"))
    return False


def _pending(sent: Mapping[str, Any], tournament: Tournament) -> List[Dict[str, Any]]:
    out = []
    for instr in _ins.pending(tournament):
        if _settled(tournament, instr):
            continue
        body = instr["body"]
        if instr["action"] == "move_out":
            seat, to_t, to_s = body.get("seat"), instr["to"][0], instr["to"][1]
        elif instr["action"] in ("receive", "deduct", "take_out"):
            seat, to_t, to_s = body.get("seat"), None, None
        elif instr["action"] == "withdraw":  # the seat of what it calls off
            seat = tournament.instrs.get(body.get("instr"), {}).get("body", {}).get("seat")
            to_t, to_s = None, None
        else:
            seat, to_t, to_s = None, None, None
        status = _ins.state(instr, sent.get(instr["id"]) is not None)
        out.append({"id": instr["id"], "action": instr["action"], "table": instr["table"],
                    "seat": seat,
                    "player": instr.get("player"), "to_table": to_t, "to_seat": to_s,
                    "state": status, "reason": _ins.reason(instr), "text": instr["text"],
                    "words": _words.instruction(instr, status), "why": _why(tournament, instr)})
    return out


def _why(tournament: Tournament, instr: Instr) -> str:
    """Why the instruction is there, in words (the console's "why" column)."""
    reason = _ins.reason(instr)
    if reason:
        return "the box refused: %s" % reason
    action = instr["action"]
    if action in ("move_out", "receive") and instr.get("move"):
        if tournament.final is not None:
            return "final table"
        return "balancing: the tables differ by more than one player"
    if action == "receive":
        return "joins the game"
    if action == "take_out" and not instr.get("player"):
        return "the seat check: the box shows a player the league does not seat there"
    if action == "take_out":
        return "the TD entered the player out"
    if action == "deduct":
        return "arrived after the start"
    if action == "break_table":
        return "final table" if tournament.final is not None else "fewer tables are needed"
    if action == "redraw":
        return "final table"
    if action in ("hand_for_hand_start", "hand_for_hand_stop", "next_hand"):
        return "hand for hand"
    if action == "withdraw":
        return "no longer needed"
    return ""


def _stack(views: Mapping[int, "TableView"], table: int, seat: int) -> Optional[int]:
    """The chips the box of *table* last showed in *seat*, or None."""
    view = views.get(table)
    stacks = view.status.get("stacks") if view is not None and isinstance(
        view.status, dict) else None
    value = stacks.get(str(seat)) if isinstance(stacks, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def night(lg: League, tourney: Tournament, now: int, views: Mapping[int, "TableView"],
          links: Mapping[int, Optional[ServedLink]], sent: Mapping[str, Any],
          ended: Dict[int, int], told: Sequence[Tuple[int, int, Optional[str]]]
          ) -> Dict[str, Any]:
    """The snapshot's keys of the league and the boxes at *now*: *views* and *links* as
    ``_tables`` takes them, *sent* the instructions handed to a link (the instruction
    book's), *ended* the last hand each playing table ended, *told* the seat check's lasting
    differences (docs/live.md "The seat check"): (table, seat, the league's player) -- a
    player missing at their box (``not_at_box`` on their row) or, without a player, a seat
    the box fills where the league seats nobody (``box_only``: the console's "Clear seat…")."""
    not_at_box = {name for _, _, name in told if name}
    clock = tourney.clock_at(now)
    offers = {k: offer for offer, k in tourney.offer_pairs() if k}
    hfh_state = tourney.hfh
    tables = sorted(ended)
    results = []
    money = _money.view(tourney, now)
    prize = _money.prizes(tourney, now, money)  # {} in a free tournament
    if tourney.started:
        for instr in tourney.results():
            results.append({"place": instr["first"], "name": instr["name"],
                            "points": instr["points"],
                            "tied": instr["first"] != instr["last"],
                            "prize": prize.get(instr["name"]) if money else None})
    log = []
    # the boxes' buttons between hands are for `tdhost plan`, not the TD's log
    mine = [ev for ev in lg.events if ev.tournament == tourney.number and ev.action != "button"]
    for ev in mine[-LOG_MAX:]:
        line = _words.log_line(ev, lg, mine)
        log.append({"seq": ev.seq, "action": ev.action, "text": line["text"],
                    "time": line["time"], "who": line["who"],
                    "undone": ev.seq in lg.undone})
    records = _records({tb: view.status for tb, view in views.items()
                        if view.status is not None}, tourney)
    return {
        "event": lg.name,
        "tournament": {"number": tourney.number, "name": tourney.setup["name"],
                       "profile": tourney.setup["profile"], "state": _state(tourney)},
        "now_ms": now,
        "clock": _clock.view(clock),
        "schedule": _schedule.view(clock.levels, tourney.setup["colour_ups"], clock.index,
                                   clock.left_ms),
        "money": money,
        "players": _players(tourney),
        "tables": _tables(tourney, views, links),
        "pending": _pending(sent, tourney),
        "box_only": [{"table": tb, "seat": seat, "chips": _stack(views, tb, seat)}
                     for tb, seat, name in told if name is None],
        "moves": [{"player": payload["name"], "from": _ts(payload.get("from")),
                   "to": _ts(payload["seat"]),
                   "at_ms": payload.get("at_ms")} for payload in tourney.moves[-MOVES_MAX:]],
        "broken": sorted(_plan.broken_tables(tourney)),
        "final_table": tourney.final is not None,
        "hand_for_hand": hfh_state is not None,
        "hand_for_hand_waiting": _hfh.waiting_for(hfh_state["wait"], ended,
                                                  tables) if hfh_state else [],
        "hand_for_hand_text": _words.hand_for_hand(
            _hfh.waiting_for(hfh_state["wait"], ended, tables)) if hfh_state else None,
        "registration": [{"name": entry.name, "member": entry.member, "state": entry.state,
                          "seat": _ts(entry.seat) if entry.state in ("registered", "in") else None,
                          "not_at_box": entry.name in not_at_box,
                          "absent": entry.absent, "reentries": entry.reentries,
                          "record": records.get(entry.name, {}),
                          "record_text": _words.player_record(records.get(entry.name, {}))}
                         for entry in tourney.players.values()],
        "reentry": tourney.reentry_rule(),
        "standby": [{"name": tourney.players[k].name,
                     "offered": _ts(offers[k]["seat"]) if k in offers else None}
                    for k in tourney.standby],
        "results": results,
        "leaderboard": [{"rank": instr["rank"], "name": instr["name"], "points": instr["points"],
                         "played": instr["events"]} for instr in lg.standings()],
        "log": log,
        "rulings": _rulings.rulings_lines(tourney.rulings, lg.name or ""),
    }
