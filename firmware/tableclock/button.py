"""Dealer button and blinds: the dead-button rule, heads-up, the seats waiting
for the button.  Pure functions; seats are numbered 1..n clockwise.  The
rules and their sources: docs/rules.md, §3 "Seats, dead button, dealer" and
§4 "Heads-up".
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Collection, Container, List, Optional, Tuple  # noqa: F401 (type comments)


def after(seat, n):  # type: (int, int) -> int
    """The seat clockwise after *seat* at an *n*-seat table."""
    return seat % n + 1


def next_in(seat, n, members):  # type: (int, int, Container[int]) -> Optional[int]
    """First seat of *members* strictly clockwise after *seat* (may wrap to
    *seat* itself when it is the only member); None if members is empty."""
    other = seat
    for _ in range(n):
        other = after(other, n)
        if other in members:
            return other
    return None


def clockwise_from(start, n, members):  # type: (int, int, Container[int]) -> List[int]
    """Members in clockwise order beginning strictly after *start*."""
    out = []
    seat = start
    for _ in range(n):
        seat = after(seat, n)
        if seat in members:
            out.append(seat)
    return out


def between(seat, lo, hi, n):  # type: (int, int, int, int) -> bool
    """True when *seat* lies strictly clockwise after *lo* and before *hi*."""
    other = after(lo, n)
    while other != hi:
        if other == seat:
            return True
        other = after(other, n)
    return False


def first_positions(button, players, n):
    # type: (int, Collection[int], int) -> Tuple[int, int, int]
    """(button, sb_pos, bb_pos) for the first hand with the button at *button*.

    Heads-up the button posts the small blind.
    """
    if len(players) == 2:
        sb = button if button in players else next_in(button, n, players)
        return sb, sb, next_in(sb, n, players)
    sb = next_in(button, n, players)
    return button, sb, next_in(sb, n, players)


def next_positions(prev_bb, prev_sb, players, n):
    # type: (int, int, Collection[int], int) -> Tuple[int, int, int]
    """(button, sb_pos, bb_pos) for the next hand by the dead-button rule.

    *players* are the seats taking part (dealt in, blinds due).  The returned
    sb_pos may be a seat with nobody in it (a dead small blind) and the button
    may be an empty seat.  Heads-up the button is the small blind and the big
    blind goes to the player who did not just have it.
    """
    bb = next_in(prev_bb, n, players)
    if len(players) == 2:
        other = next_in(bb, n, players)
        return other, other, bb
    return prev_sb, prev_bb, bb


def must_wait(seat, button, sb_pos, zone, n):  # type: (int, int, int, str, int) -> bool
    """True when a newly seated player at *seat* must wait for the button.

    zone "button_sb": the button seat, the SB position or between them;
    zone "sb_between": the SB position or between it and the button;
    zone "between": strictly between the button and the SB position.
    """
    if seat == sb_pos and zone != "between":
        return True
    if seat == button and zone == "button_sb":
        return True
    return between(seat, button, sb_pos, n)
