"""Seat-order questions at one table for the host: who moves first, the worst seat for a
newcomer, the seats a newcomer waits in, the last hand's positions.  Every clockwise step is
tableclock.button's (the boxes' own dead-button rule); docs/balancing.md §2 explains them.
"""

from collections.abc import Mapping, Sequence
from typing import TypedDict, TypeGuard

from tableclock.button import after, between, clockwise_from, first_positions, must_wait

Positions = tuple[int, int | None, int]  # (button, sb or None when dead, bb) of one hand


class SeatedTable(TypedDict):
    """One table as the plan sees it: who sits where and the last hand's positions."""
    seats: Mapping[int, str]  # seat -> player
    button: int
    sb: int | None  # None: the last small blind was dead
    bb: int


def position_error(button: int, sb: int | None, bb: int, seats_per_table: int) -> str | None:
    """None when (button, sb, bb) can be one hand's positions (seats in range), else what is
    wrong: the BB on the button, SB and BB one seat, the SB outside the button..BB arc."""
    if bb == button:
        return "the bb seat %d is also the button" % bb
    if sb == bb:
        return "the sb and bb are both seat %d" % bb
    if sb is not None and sb != button and not between(sb, button, bb, seats_per_table):
        return "the sb seat %d is not between the button (seat %d) and the bb (seat %d) " \
            "clockwise" % (sb, button, bb)
    return None


def _seat_in_range(value: object, seats_per_table: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) \
        and 1 <= value <= seats_per_table


def last_positions(reported: Sequence[object] | None, players: Sequence[int],
                   drawn_button: int | None, seats_per_table: int) -> Positions:
    """(button, sb or None, bb) of a table's last hand: the box's *reported* (button, sb,
    bb) when they make sense at that table; else -- no box, no status yet -- the positions
    the box deals its first hand with from the draw's button (the lowest of *players*, the
    occupied seats, when the draw names none); a table of fewer than two players: its
    player (or seat 1) on the button, the BB after it."""
    if reported is not None:
        button, sb, bb = reported
        if _seat_in_range(button, seats_per_table) and _seat_in_range(bb, seats_per_table):
            if sb is None and position_error(button, None, bb, seats_per_table) is None:
                return button, None, bb
            if _seat_in_range(sb, seats_per_table) \
                    and position_error(button, sb, bb, seats_per_table) is None:
                return button, sb, bb
    ordered = sorted(players)
    if len(ordered) >= 2:
        return first_positions(drawn_button or ordered[0], ordered, seats_per_table)
    seat = ordered[0] if ordered else 1
    return seat, None, after(seat, seats_per_table)


def late_zone(table: SeatedTable, seats_per_table: int) -> list[int]:
    """Seats that a new player must not take at *table* if it can be avoided.

    The next hand, by the dead-button rule (tableclock.button.next_positions), has its
    button on the last SB position and its SB position on the last BB seat; the zone is
    the arc from that button to that SB position, both included.  When the last SB was
    dead (``sb`` None) the box does not report where its position was: it lies strictly
    between the last button and the last BB, so the whole arc after the last button up
    to the last BB is avoided.
    """
    bb = table["bb"]
    start = table["sb"] if table["sb"] is not None else after(table["button"], seats_per_table)
    if start == bb:
        return [bb]
    every_seat = range(1, seats_per_table + 1)
    inside = [seat for seat in clockwise_from(start, seats_per_table, every_seat)
              if between(seat, start, bb, seats_per_table)]
    return [start] + inside + [bb]


def bb_soonest_seats(table: SeatedTable, seats_per_table: int) -> list[int]:
    """Empty seats of *table* from the worst position to the best.

    The worst position is the seat whose player would post the big blind soonest: the BB
    moves to the next player after the last BB seat, so that is the first empty seat
    clockwise after it (LPPL ¶45 "join from the Big Blind position or the next available
    seat to the left of the Big Blind"); later arrivals take the following empty seats.
    The late zone ends at the last BB seat, so its seats come last.
    """
    every_seat = range(1, seats_per_table + 1)
    return [seat for seat in clockwise_from(table["bb"], seats_per_table, every_seat)
            if seat not in table["seats"]]


def draw_seats(table: SeatedTable, seats_per_table: int,
               wait_zone: str) -> tuple[list[int], list[int]]:
    """(acceptable, fallback) empty seats for a player drawn into *table* at random.

    Acceptable: every empty seat where the box deals a new player in at once
    (tableclock.button.must_wait with the profile's wait zone, for the next hand's
    button and SB position); with a dead last SB the conservative late zone is avoided.
    Fallback: the other empty seats, in bb_soonest_seats order.
    """
    seats = table["seats"]
    empty = [seat for seat in range(1, seats_per_table + 1) if seat not in seats]
    sb = table["sb"]
    if sb is None:
        bad = set(late_zone(table, seats_per_table))
    else:
        next_button, next_sb = sb, table["bb"]
        bad = {seat for seat in empty
               if must_wait(seat, next_button, next_sb, wait_zone, seats_per_table)}
    acceptable = [seat for seat in empty if seat not in bad]
    return acceptable, [seat for seat in bb_soonest_seats(table, seats_per_table) if seat in bad]


def movers_order(table: SeatedTable, seats_per_table: int) -> list[int]:
    """Players' seats at *table* in moving order: the player due the BB next (the next
    player clockwise after the last BB seat), then clockwise; the last BB comes last."""
    return clockwise_from(table["bb"], seats_per_table, table["seats"])
