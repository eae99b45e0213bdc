"""The TD's seating decisions: a seat for a newcomer, seat locks, the draws, a move.
Each returns the payload of the event that records it, or raises ActionRefused
(docs/host.md §5)."""

import random
from typing import Collection, Iterable

from tdhost.league.refusal import ActionRefused
from tdhost.league.text import player_key, seat_text
from tdhost.league.tournament import Payload, Seat, Tournament
from tdhost.rules import draw as _draw, house as _house


def pick_seat(tournament: Tournament, name: str, seq: int,
              exclude: Iterable[Iterable[int]] = (), closed: Collection[int] = (),
              spare: Iterable[int] = ()) -> Seat:
    """A seat for a newcomer: the table with the fewest players that has a free seat
    (ties by a seeded draw), then a seeded free seat.  When all are full: the first
    table of *spare* (numbers of empty tables with a box: tdhost.live), else a new
    table.  *exclude*: seats not to give ([table, seat]); *closed*: tables never to
    use (broken on the live night).  The CLI passes none of them."""
    n = tournament.setup["seats_per_table"]
    seed = (tournament.final or tournament.draw or {}).get("seed", tournament.number)
    rng = random.Random("%s|seat|%d|%s" % (seed, seq, player_key(name)))
    seating = tournament.seating()
    taken = tournament.offered_seats() | {tuple(x) for x in exclude}
    tables = sorted(tournament.tables_used | set(seating))
    free = {}
    for table in tables:
        seats = [chair for chair in range(1, n + 1)
                 if chair not in seating.get(table, {}) and (table, chair) not in taken]
        if seats and table not in closed:
            free[table] = seats
    if not free:
        spares = [x for x in sorted(spare) if x not in closed and not seating.get(x)]
        table = spares[0] if spares else max(tables + list(closed), default=0) + 1
        return [table, rng.choice([chair for chair in range(1, n + 1)
                                   if (table, chair) not in taken])]
    fewest = min(len(seating.get(x, {})) for x in free)
    table = rng.choice([x for x in sorted(free) if len(seating.get(x, {})) == fewest])
    return [table, rng.choice(free[table])]


def check_free(tournament: Tournament, seat: Seat, spare: Collection[int] = ()) -> None:
    """ActionRefused unless *seat* exists at a table in play, the next new table or a
    table of *spare* (empty tables with a box: tdhost.live), and nobody sits there."""
    n = tournament.setup["seats_per_table"]
    table, chair = seat
    if table < 1 or not 1 <= chair <= n:
        raise ActionRefused("table %d seat %d does not exist (seats 1 to %d)"
                            % (table, chair, n))
    used = tournament.tables_used | set(tournament.seating())
    if table not in used and table != max(used, default=0) + 1 and table not in spare:
        raise ActionRefused("table %d is not in play (tables %s; the next new table is %d)" % (
            table, ", ".join(map(str, sorted(used))), max(used, default=0) + 1))
    who = tournament.seating().get(table, {}).get(chair)
    if who:
        raise ActionRefused("%s is taken by %s" % (seat_text(seat), who))


def decide_lock(tournament: Tournament, name: str, table: int, seat: int,
                reason: str) -> Payload:
    tournament.refuse_if_finished()
    entry = tournament.need(name, ("registered",))
    if tournament.draw:
        raise ActionRefused("the seats are drawn already: lock %s before the draw, or draw "
                            "again with `tdhost draw --again`" % entry.name)
    n = tournament.setup["seats_per_table"]
    if not 1 <= seat <= n:
        raise ActionRefused("seat %d does not exist: tables have seats 1 to %d" % (seat, n))
    if table < 1:
        raise ActionRefused("table numbers start at 1")
    cap = tournament.setup["max_players"]
    if cap is not None and table > _draw.table_count(cap, n):
        most = _draw.table_count(cap, n)
        raise ActionRefused("table %d does not exist: %d players (max_players) fill at most "
                            "%d table%s of %d seats (table%s 1%s)" % (
                                table, cap, most, "" if most == 1 else "s", n,
                                "" if most == 1 else "s",
                                "" if most == 1 else " to %d" % most))
    if tournament.locks.get(player_key(name), [None, None])[:2] == [table, seat]:
        raise ActionRefused("%s is locked to table %d seat %d already"
                            % (entry.name, table, seat))
    for key, (locked_table, locked_seat, _) in tournament.locks.items():
        if (locked_table, locked_seat) == (table, seat) and key != player_key(name):
            raise ActionRefused("table %d seat %d is locked for %s already"
                                % (table, seat, tournament.players[key].name))
    return {"name": entry.name, "table": table, "seat": seat, "reason": reason}


def decide_unlock(tournament: Tournament, name: str) -> Payload:
    tournament.refuse_if_finished()
    entry = tournament.need(name)
    lock = tournament.locks.get(player_key(entry.name))
    if lock is None:
        raise ActionRefused("%s has no seat lock" % entry.name)
    if tournament.started:
        raise ActionRefused("the tournament has started: a seat lock only matters for the "
                            "draw")
    return {"name": entry.name, "table": lock[0], "seat": lock[1]}


def decide_draw(tournament: Tournament, seed: int, ace8: bool, again: bool,
                final: bool) -> Payload:
    tournament.refuse_if_finished()
    mode = "Ace-8" if ace8 else "random"
    per_table = tournament.setup["seats_per_table"]
    first_button = tournament.rules["first_button"]
    if final:
        if tournament.started is None:
            raise ActionRefused("the final-table draw comes after the start")
        if tournament.final and not again:
            raise ActionRefused("the final table is drawn already (seed %s): `tdhost draw "
                                "--final --again` draws it anew" % tournament.final["seed"])
        _, house = _house.get(tournament.setup["profile"])
        size = _house.final_size(house, per_table)
        rem = tournament.remaining()
        if len(rem) > size:
            raise ActionRefused("%d players remain; the final table forms at %d or fewer"
                                % (len(rem), size))
        seated = {entry.name: tuple(entry.seat or ()) for entry in rem}
        try:
            out = _draw.final_draw(seated, per_table, seed, tournament.setup["profile"], ace8,
                                   first_button)
        except _draw.DrawError as err:
            raise ActionRefused(str(err))
    else:
        if tournament.started:
            raise ActionRefused("the tournament has started: only the final table is drawn "
                                "again (`tdhost draw --final`)")
        if tournament.draw and not again:
            raise ActionRefused("the seats are drawn already (seed %s): `tdhost draw "
                                "--again` draws them anew" % tournament.draw["seed"])
        players = [entry.name for entry in tournament.entries("registered")]
        locks = {tournament.players[key].name: (table, seat)
                 for key, (table, seat, _) in tournament.locks.items()}
        try:
            out = _draw.first_draw(players, per_table, seed, locks, ace8, first_button)
        except _draw.DrawError as err:
            raise ActionRefused(str(err))
    out.update({"seed": seed, "mode": mode, "final": final})
    return out


def decide_move(tournament: Tournament, name: str, seat: Seat) -> Payload:
    tournament.start_time()
    entry = tournament.need(name, ("in",))
    check_free(tournament, seat)
    return {"name": entry.name, "from": entry.seat, "seat": list(seat)}
