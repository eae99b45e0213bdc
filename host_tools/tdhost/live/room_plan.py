"""The live night's balancing and breaking (docs/host.md §10.5; docs/live.md "Plans";
docs/balancing.md for the plan itself): ``room`` builds the ``tdhost plan`` input from the
league and the boxes (pending moves counted as made, seats kept for standby players, each
table's last positions), ``moves`` turns a plan into instructions, ``new_seat`` and
``joining_seat`` seat a player who needs one."""

import random
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
)

from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import pick_seat
from tdhost.league.text import names_text as _names_text, seat_text as _seat_text
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins
from tdhost.live.shapes import Instr, Seat, Seating, Statuses
from tdhost.rules import balance as _balance, house as _house, seat_order as _seats
from tdhost.rules.seat_order import movers_order

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow


def broken_tables(tournament: Tournament) -> Set[int]:
    """Tables an earlier plan broke (their ``break_table`` instruction, not cancelled), and
    those a box broke (``box_broken``)."""
    return {record["table"] for record in tournament.instrs.values()
            if record["action"] == "break_table" and not _ins.cancelled(record)} \
        | box_broken(tournament)


def box_broken(tournament: Tournament) -> Set[int]:
    """Tables whose box has carried out a ``break_table`` (answered ``done``), even one the
    host called off too late (the dealer confirmed it before the withdraw came), unless the
    box answered that withdraw ``done``: it opened the table again (docs/protocol.md
    "withdraw"); the plans break them first (docs/live.md "Every seat taken")."""
    opened = {record["body"].get("instr") for record in tournament.instrs.values()
              if record["action"] == "withdraw" and "done" in _ins.results(record, "box")}
    return {record["table"] for record in tournament.instrs.values()
            if record["action"] == "break_table" and "done" in _ins.results(record, "box")
            and record["id"] not in opened}


STANDBY = "standby for "  # a seat offered to a standby player: taken, by nobody who moves


def seating_after_moves(tournament: Tournament,
                        moving: Optional[Dict[str, List[Instr]]] = None) -> Seating:
    """{table: {seat: name}}: the league's seating with the pending moves made, and the
    seats offered to standby players taken (by ``STANDBY`` + the seat's old player)."""
    seating = {tb: dict(seats) for tb, seats in tournament.seating().items()}
    # a move counts as made from its move_out on (its receive follows once the player left)
    for name, halves in (moving if moving is not None else _ins.moving_players(tournament)).items():
        frm, to = halves[0]["from"], halves[0]["to"]
        if seating.get(frm[0], {}).get(frm[1]) == name:
            del seating[frm[0]][frm[1]]
        seating.setdefault(to[0], {})[to[1]] = name
    for offer, who in tournament.offer_pairs():
        tb, seat = offer["seat"]
        if who is not None and seat not in seating.get(tb, {}):
            seating.setdefault(tb, {})[seat] = STANDBY + offer["freed_by"]
    return seating


def taken_seats(tournament: Tournament) -> List[Tuple[int, int]]:
    """Seats a newcomer must not be drawn into: the destinations of pending moves, and
    the seats of take_outs not carried out yet (the box still seats that player)."""
    return [tuple(halves[0]["to"]) for halves in _ins.moving_players(tournament).values()] + [
        (record["table"], record["body"]["seat"]) for record in _ins.take_outs(tournament)]


def refuse_hand_move(tournament: Tournament, name: str, seat: Sequence[int]) -> None:
    """ActionRefused for a move by hand (`tdhost move`, `tdhost plan --apply`) of *name* to
    *seat* that the boxes would carry out against another: *name* is on their way to
    another seat (their move begun at the boxes), or the boxes are about to fill *seat* (a
    move on its way there, or a player the TD entered out who sits there until their box
    takes them out) -- two players in one seat, or one player in two."""
    mine = _ins.moving_players(tournament).get(name)
    if mine and any(_ins.state(half) == "done" for half in mine):
        raise ActionRefused("%s is on the way to %s (a move under way at the boxes): move "
                            "them once they sit down" % (name, _seat_text(mine[0]["to"])))
    for halves in _ins.moving_players(tournament).values():
        player = halves[0]["player"]
        if list(halves[0]["to"]) == list(seat) and player != name:
            raise ActionRefused("%s: %s is on the way there (a move under way at the boxes); "
                                "choose another seat" % (_seat_text(seat), player))
    for record in _ins.take_outs(tournament):
        if [record["table"], record["body"].get("seat")] == list(seat):
            raise ActionRefused("%s: its box has not taken %s out yet; choose another seat"
                                % (_seat_text(seat), record.get("player") or "the player"))


def box_filled(statuses: Statuses, tournament: Tournament) -> List[Tuple[int, int]]:
    """Seats a box's last status fills where the league seats nobody (a dealer seated
    somebody unasked: the seat check shows it, docs/live.md "The seat check"): a newcomer
    drawn there would be refused "Seat N is taken".  Only at tables the league seats
    players at (a spare box's own table is a stand-in)."""
    seating = seating_after_moves(tournament)
    out: List[Tuple[int, int]] = []
    for table in sorted(statuses):
        status, league = statuses[table], seating.get(table) or {}
        stacks = status.get("stacks") if league and isinstance(status, dict) else None
        if isinstance(stacks, dict):
            out += [(table, int(k)) for k in sorted(stacks)
                    if isinstance(k, str) and k.isdigit() and int(k) not in league]
    return out


def spare_tables(linked: Iterable[int], tournament: Tournament) -> List[int]:
    """Spare boxes among the tables whose box is *linked*: those with no players (a move
    heading there counts) and not broken, in order."""
    closed = broken_tables(tournament)
    seating = seating_after_moves(tournament)
    return sorted({table for table in linked
                   if table not in closed and not seating.get(table)})


def new_seat(boxes: "BoxesNow", tournament: Tournament, name: str, seq: int,
             spare: Optional[List[int]] = None,
             exclude: Sequence[Any] = ()) -> Tuple[Seat, Optional[str]]:
    """(seat, note) for a player who needs a seat on the live night -- a latecomer, a
    player whose seat was refused (docs/host.md §10.6): never at a broken table, nor in a
    seat a pending move heads for, nor in *exclude*; with every table full, a table a plan
    broke whose box has not broken it yet (the next plan keeps it), then a spare box
    (*spare*: ``spare_tables``, found when None) before a new number -- which has no box:
    *note* says so.  The table is the emptiest (``tdhost.league.seats.pick_seat``); the seat there
    follows the profile's ``join_seating`` (``joining_seat``)."""
    closed = broken_tables(tournament)
    if spare is None:
        spare = spare_tables(boxes.linked, tournament)
    excluded = (taken_seats(tournament) + box_filled(boxes.statuses, tournament)
                + [tuple(x) for x in exclude])
    seat = pick_seat(tournament, name, seq, exclude=excluded, closed=closed, spare=spare)
    if not seating_after_moves(tournament).get(seat[0]):
        # never alone at a table: a seat a bust frees, once its player has left (at a table
        # that has dealt: before its first hand the box takes a seating instead)
        freed = [chair for chair in leaving_seats(tournament, closed, exclude)
                 if boxes.hands.get(chair[0])]
        if freed:
            return list(random.Random("%s|freed|%s" % (seq, name)).choice(freed)), None
        # every seat in play taken: a table a plan broke whose box has not broken it yet
        # rather than alone at an empty one (the next plan keeps it: plans.reopen)
        unbroken = {record["table"] for record in tournament.instrs.values()
                    if record["action"] == "break_table" and _ins.state(record) == "queued"}
        if unbroken:
            again = pick_seat(tournament, name, seq, exclude=excluded,
                              closed=closed - unbroken, spare=[])
            if seating_after_moves(tournament).get(again[0]) or again[0] in unbroken:
                seat = again
    better = joining_seat(boxes.statuses, tournament, seat[0], excluded, "%s|%s" % (seq, name))
    if better is not None:
        seat = [seat[0], better]
    used = tournament.tables_used | set(tournament.seating())
    if seat[0] not in used and seat[0] not in boxes.linked:
        return seat, "table %d has no box: confirm its instructions in the console" % seat[0]
    return seat, None


def refuse_opening(tournament: Tournament, name: str, seat: Seat, chosen: bool,
                   boxed: Callable[[int], bool]) -> Optional[str]:
    """ActionRefused when *name* (a latecomer, a re-entry) would sit alone at *seat*, at a
    table nobody plays at (docs/live.md "Every seat taken"): the host picks no such seat
    (every seat at the tables in play is taken), nor may the TD give one at a table with a
    box (a spare box: a box starts a table with two players at least).  *chosen*: the TD
    gave the seat; *boxed(table)*: that table has a box.  A new table without a box, given
    by the TD, is theirs to run: the note for the TD says so (None: nothing to note)."""
    seating = seating_after_moves(tournament)
    if seating.get(seat[0]):
        return None
    if chosen:
        if not boxed(seat[0]):
            return "table %d has no box: confirm its instructions in the console" % seat[0]
        raise ActionRefused("nobody plays at table %d yet, and its box starts a table with two "
                            "players at least: a latecomer joins a table in play" % seat[0])
    in_play = sorted(tb for tb, seats in seating.items() if seats)
    new = max(tournament.tables_used | set(tournament.seating()), default=0) + 1  # check_free's
    raise ActionRefused("every seat at table%s %s is taken: %s can join once a player is out%s" % (
        "s" if len(in_play) > 1 else "", ", ".join(map(str, in_play)), name,
        "" if boxed(new) else ", or at new table %d, which has no box, if you give the seat "
        "(%d.1)" % (new, new)))


def leaving_seats(tournament: Tournament, closed: Set[int],
                  exclude: Sequence[Any] = ()) -> List[Tuple[int, int]]:
    """The seats of take_outs not carried out yet at tables in play (not broken), that no
    pending move heads for and not in *exclude*, in order: free once the busted player has
    left (the box seats an arrival there after the hand)."""
    heading = {tuple(halves[0]["to"]) for halves in _ins.moving_players(tournament).values()}
    skip = heading | {tuple(x) for x in exclude} | set(tournament.offered_seats()) | {
        (tb, seat) for tb, seats in tournament.seating().items() for seat in seats}
    return sorted({(record["table"], record["body"]["seat"])
                   for record in _ins.take_outs(tournament)
                   if record["table"] not in closed
                   and (record["table"], record["body"]["seat"]) not in skip})


def joining_seat(statuses: Statuses, tournament: Tournament, table: int, excluded: Sequence[Any],
                 salt: Any) -> Optional[int]:
    """The seat at *table* for a player joining it (a latecomer, a player seated elsewhere)
    by the profile's ``join_seating`` (tdhost.rules.house), from the table's last positions
    (``positions``: its box's last status); None to keep the draw's seat (``draw``, or a
    table with fewer than two players: no positions to go by); *statuses*: each table's box's
    last status.

    ``worst`` (LPPL ¶45 "New players joining a table join from the Big Blind position or
    the next available seat to the left of the Big Blind"): the first free seat clockwise
    after the last BB seat, as for a balancing move (tdhost.rules.seat_order.bb_soonest_seats).
    ``dealt_in`` (WPH 7 "can get any seat ... and be dealt in, except between the SB and
    button"): a seeded draw among the free seats where the box deals them in at once
    (tdhost.rules.seat_order.draw_seats with the profile's wait zone)."""
    box, hs = _house.get(tournament.setup["profile"])
    how = hs["join_seating"]
    seating = seating_after_moves(tournament).get(table, {})
    if how == "draw" or len(seating) < 2:
        return None
    n = tournament.setup["seats_per_table"]
    button, sb, bb = positions(tournament, table, seating, statuses.get(table))
    occupied = set(seating) | set(tournament.seating().get(table, {}))
    blocked = occupied | {seat for tb, seat in list(excluded) + list(tournament.offered_seats())
                          if tb == table}
    room_table: _seats.SeatedTable = {"seats": dict.fromkeys(occupied, ""), "button": button,
                                      "sb": sb, "bb": bb}
    if how == "worst":
        free = [seat for seat in _seats.bb_soonest_seats(room_table, n) if seat not in blocked]
        return free[0] if free else None
    ok, fallback = _seats.draw_seats(room_table, n, box["wait_zone"])
    ok = [seat for seat in ok if seat not in blocked]
    if ok:
        return random.Random("%s|join|%s" % (tournament.number, salt)).choice(ok)
    fallback = [seat for seat in fallback if seat not in blocked]
    return fallback[0] if fallback else None


def positions(tournament: Tournament, table: int, seats: Dict[int, str],
              status: Any) -> _seats.Positions:
    """(button, sb or None, bb) of the last hand at *table* (docs/live.md "Plans";
    tdhost.rules.seat_order.last_positions)."""
    reported = None
    if isinstance(status, dict):
        reported = (status.get("button"), status.get("sb_seat"), status.get("bb_seat"))
    drawn = (tournament.final or tournament.draw or {}).get("tables", {}).get(str(table), {})
    return _seats.last_positions(reported, sorted(seats), drawn.get("button"),
                                 tournament.setup["seats_per_table"])


def lone_tables(tournament: Tournament) -> Set[int]:
    """Tables nobody has sat down at: every player the league seats there waits for their
    own receive there (``stranded``: the host seated them alone at a spare box when every
    seat in play was taken).  Nobody deals there, and a spare box starts no table for one
    player, so no plan moves players there (docs/live.md "Every seat taken"): they would
    wait for ever.  ``stranded.LoneSeats`` gives such a player a seat among others."""
    waiting = _ins.arriving(tournament)
    return {tb for tb, seats in tournament.seating().items()
            if seats and set(seats.values()) <= waiting}


def room(tournament: Tournament, statuses: Statuses, seed: int,
         moving: Optional[Dict[str, List[Instr]]] = None) -> Dict[str, Any]:
    """The plan input (docs/balancing.md) for *tournament*; *statuses*: {table: the box's
    last status}.  Tables nobody has sat down at (``lone_tables``) are left out."""
    seating = seating_after_moves(tournament, moving)
    broken = broken_tables(tournament)
    left_out = lone_tables(tournament)
    tables = []
    for tb in sorted(set(tournament.tables_used) | set(seating)):
        seats = seating.get(tb, {})
        status = statuses.get(tb)
        if tb in left_out:
            continue  # players waiting alone at a spare box (``stranded``)
        if not seats and (tb in broken or not (isinstance(status, dict) and status.get("stacks"))):
            continue  # (nothing to break: nobody sits there, at the box either -- a spare)
        button, sb, bb = positions(tournament, tb, seats, statuses.get(tb))
        tables.append({"table": tb,
                       "seats": {str(seat): player for seat, player in sorted(seats.items())},
                       "button": button, "sb": sb, "bb": bb})
    return {"profile": tournament.setup["profile"],
            "seats_per_table": tournament.setup["seats_per_table"],
            "seed": seed, "tables": tables, "moved": moved_tonight(tournament),
            "closed": sorted(box_broken(tournament))}


def moved_tonight(tournament: Tournament) -> List[str]:
    """Players who have moved tables tonight: a ``move`` the league recorded (the TD's, a
    box's, the host's), or a ``move_out`` of theirs not cancelled (a move under way)."""
    return sorted({move["name"] for move in tournament.moves if move.get("name")} | {
        record["player"] for record in tournament.instrs.values()
        if record["action"] == "move_out" and record.get("player") and not _ins.cancelled(record)})


def stack_at(statuses: Statuses, table: int, seat: int) -> Optional[int]:
    status = statuses.get(table)
    if isinstance(status, dict) and isinstance(status.get("stacks"), dict):
        value = status["stacks"].get(str(seat))
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


# a player's counts in a box's state (docs/replay.md) that go with them to another table
COUNTS = ("warnings", "slow_play", "penalties")


def record_at(statuses: Statuses, table: int, seat: int) -> Dict[str, Any]:
    """What the player at *table* *seat* takes to another table, from the box's last status
    (docs/rules.md §14): ``away_used`` True once they have used LPPL ¶72's allowance, and
    their ``warnings``, ``slow_play`` (LPPL ¶51) and ``penalties`` (hands still to miss)
    when above 0; {} when there is nothing (or no status)."""
    status = statuses.get(table)
    if not isinstance(status, dict):
        return {}
    out: Dict[str, Any] = {}
    used = status.get("away_used")
    if isinstance(used, list) and seat in used:
        out["away_used"] = True
    for key in COUNTS:
        counts = status.get(key)
        value = counts.get(str(seat)) if isinstance(counts, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out[key] = value
    return out


def moves(lg: League, tournament: Tournament, plan: _balance.BalancePlan, statuses: Statuses,
          moving: Dict[str, List[Instr]]) -> Tuple[List[Instr], List[str]]:
    """(``instr`` payloads, players skipped) for a plan that is not the final table."""
    out: List[Instr] = []
    broken = broken_tables(tournament)
    for tb in plan["broken"]:
        if tb not in broken:
            out.append(_ins.instr(_ins.new_id(lg, tournament, len(out)), "break_table", tb,
                                  "break table %d" % tb))
    skipped = []
    arriving = _ins.arriving(tournament)
    for move in plan["moves"]:
        if move["player"] in moving or move["player"] in arriving \
                or move["player"].startswith(STANDBY):
            skipped.append(move["player"])
            continue
        frm = [move["from"]["table"], move["from"]["seat"]]
        to = [move["to"]["table"], move["to"]["seat"]]
        if frm == to:  # no move: the box would empty the seat (it refuses one, too)
            skipped.append(move["player"])
            continue
        out.append(_ins.move_out(lg, tournament, len(out), move["player"], frm, to,
                                 stack_at(statuses, frm[0], frm[1]),
                                 record_at(statuses, frm[0], frm[1])))
    return out, skipped


def held(tournament: Tournament) -> Set[str]:
    """Players a box refused to move (docs/live.md "Instructions"): their last seat
    instruction is a host's move_out the box refused (not a withdraw's echo), so the next
    plan moves another player of their table in their place (``spare_held``).  A seat
    instruction of theirs carried out since (the TD seated them at the box again) ends it."""
    last: Dict[str, Instr] = {}
    for record in tournament.instrs.values():
        if record.get("player") and record["action"] in _ins.SEAT_ACTIONS:
            last[record["player"]] = record
    return {name for name, record in last.items() if record["action"] == "move_out"
            and not record.get("recorded") and _ins.refused_first(record)}


def spare_held(plan: _balance.BalancePlan, room_in: Dict[str, Any],
               held_now: Set[str]) -> _balance.BalancePlan:
    """*plan* with each balancing move of a player in *held_now* given to the next player
    of that table in moving order (the player due the big blind next: tdhost.rules
    .seat_order.movers_order) who is not held, nor moving already; dropped when there is
    none.  At a table the plan breaks everyone leaves: a held player's move is dropped
    there (the TD moves them by hand: the refusal's notice said so, tdhost.live.moves
    .refused_out)."""
    if not held_now or not any(move["player"] in held_now for move in plan["moves"]):
        return plan
    n = room_in["seats_per_table"]
    tables = {tb["table"]: tb for tb in room_in["tables"]}
    busy = {move["player"] for move in plan["moves"]} | held_now
    out: List[_balance.PlanMove] = []
    for move in plan["moves"]:
        table = move["from"]["table"]
        if move["player"] not in held_now:
            out.append(move)
            continue
        if table in plan["broken"]:
            continue
        tb = tables[table]
        seats = {int(seat): name for seat, name in tb["seats"].items()}
        order = movers_order({"seats": seats, "button": tb["button"], "sb": tb["sb"],
                              "bb": tb["bb"]}, n)
        spare = [seat for seat in order if seats[seat] not in busy
                 and not seats[seat].startswith(STANDBY)]
        if spare:
            busy.add(seats[spare[0]])
            out.append({"player": seats[spare[0]], "from": {"table": table, "seat": spare[0]},
                        "to": move["to"]})
    return {"moves": out, "broken": plan["broken"], "final_table": plan["final_table"]}


def around_box_filled(plan: _balance.BalancePlan, tournament: Tournament,
                      statuses: Statuses) -> _balance.BalancePlan:
    """*plan* with each move into a seat a box fills unasked (``box_filled``, less the seats
    of players about to leave them: a move's or a take_out's; the box would
    refuse the player "Seat 8 is taken", the host would send them back, and the next plan
    would pick that seat again) given another free seat at the same table -- by the
    profile's ``join_seating`` (``joining_seat``), else the lowest free seat; dropped when
    the table has none.  The plan's tables stay as they were: only the seat changes."""
    leaving = {tuple(halves[0]["from"]) for halves in _ins.moving_players(tournament).values()}
    filled = set(box_filled(statuses, tournament)) - leaving - set(taken_seats(tournament)) - {
        (tb, seat) for tb, seats in tournament.seating().items() for seat in seats}
    if not any((move["to"]["table"], move["to"]["seat"]) in filled for move in plan["moves"]):
        return plan
    after, league = seating_after_moves(tournament), tournament.seating()
    taken = filled | set(taken_seats(tournament)) | {
        (move["to"]["table"], move["to"]["seat"]) for move in plan["moves"]}
    out: List[_balance.PlanMove] = []
    for move in plan["moves"]:
        table = move["to"]["table"]
        if (table, move["to"]["seat"]) not in filled:
            out.append(move)
            continue
        free = [seat for seat in range(1, tournament.setup["seats_per_table"] + 1)
                if (table, seat) not in taken and seat not in after.get(table, {})
                and seat not in league.get(table, {})]
        seat = joining_seat(statuses, tournament, table, sorted(taken), move["player"])
        if seat not in free:
            seat = free[0] if free else None
        if seat is None:
            continue  # no seat: the seat check shows the TD the seat the box fills
        taken.add((table, seat))
        out.append({"player": move["player"], "from": move["from"],
                    "to": {"table": table, "seat": seat}})
    return {"moves": out, "broken": plan["broken"], "final_table": plan["final_table"]}


def not_into_broken(plan: _balance.BalancePlan, tournament: Tournament,
                    lg: League) -> Tuple[_balance.BalancePlan, List[str]]:
    """(*plan* without its moves into a table whose box has broken it, the notices for the
    TD): the plan keeps such a table when the players do not fit at the others (a bust
    undone after the dealer confirmed the break), but its box refuses every player ("This
    table is broken"), the host sends them back, and the next plan sends them again, for
    ever (chaos seed 82).  While the host's withdraw of that break waits for the box's
    answer (``plans.reopen``: the box may open the table again), nothing is said: the plan
    after that answer moves players there.  Else whoever still sits there waits until a
    seat is free elsewhere (the next plan breaks that table first), and the TD is told,
    once."""
    closed = box_broken(tournament)
    into = sorted({move["to"]["table"] for move in plan["moves"]} & closed)
    if not into:
        return plan, []
    said = {ev.payload.get("text") for ev in lg.events
            if ev.action == "notice" and ev.tournament == tournament.number}
    asked = {tournament.instrs[record["body"]["instr"]]["table"]
             for record in tournament.instrs.values()
             if record["action"] == "withdraw" and not _ins.results(record, "box")
             and tournament.instrs.get(record["body"].get("instr") or "", {}).get(
                 "action") == "break_table"}
    told = []
    for table in into:
        if table in asked:
            continue  # (its box answers the withdraw first)
        left = sorted(tournament.seating().get(table, {}).values())
        text = ("table %d's box broke its table before the plan needed it again, and the "
                "players do not fit at the other tables: nobody is moved there. %s until a "
                "seat is free at another table" % (
                    table, ("%s %s there" % (_names_text(left), "waits" if len(left) == 1
                                              else "wait")) if left else "Nobody plays"))
        if text not in said:
            told.append(text)
    return {"moves": [move for move in plan["moves"] if move["to"]["table"] not in closed],
            "broken": plan["broken"], "final_table": plan["final_table"]}, told


def final_instrs(lg: League, tournament: Tournament, before: Dict[int, Any], keep: int,
                 k: int = 0) -> List[Instr]:
    """After the final-table draw: ``redraw`` to every table that had players (*before*:
    {table: {seat: name}}), ``break_table`` to every other table still open.  *k*: ids the
    batch has taken already."""
    out: List[Instr] = []
    had = sorted(tb for tb, seats in before.items() if seats)
    for tb in had:
        out.append(_ins.instr(_ins.new_id(lg, tournament, k + len(out)), "redraw", tb,
                              "final-table redraw at table %d" % tb))
    broken = broken_tables(tournament)
    for tb in sorted(set(had) | set(before)):
        if tb != keep and tb not in broken:
            out.append(_ins.instr(_ins.new_id(lg, tournament, k + len(out)), "break_table", tb,
                                  "break table %d (the final table is table %d)" % (tb, keep)))
    return out
