"""The finishing order of players out together: same-hand busts (more chips at the start of
the hand first, then -- by profile -- the better hand, the leaderboard) and a time-limited
end (chips).  Tiers best first: the players of one tier share its places.  The league and
the live night both order busts here; docs/host.md §6 quotes LPPL ¶46 and US 14.
"""

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tdhost.rules import hands as _hands
from tdhost.rules.house import BoxProfile, HouseRules
from tdhost.rules.points import points_text

Tiers = list[list[str]]  # names, best tier first
# () -> ({player key: points} on the leaderboard, the same on the previous leaderboard)
Leaderboards = Callable[[], tuple[Mapping[str, float], Mapping[str, float]]]


class OrderError(ValueError):
    """The busts cannot be ordered with what was given; str(err) says what is missing."""


def _names_text(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else "%s and %s" % (", ".join(names[:-1]), names[-1])


def showdown_tiers(names_by_seat: Mapping[int, str], seats_worst_first: Sequence[int],
                   ties: Sequence[Sequence[int]] | None) -> Tiers:
    """A box's order of one hand's busts as tiers best first (names); the seats of one
    ``bust_ties`` group share a tier: the better hand at the showdown (LPPL ¶46), as the
    box ranked it."""
    tie_of = {}
    for i, group in enumerate(ties or []):
        for seat in group:
            tie_of[seat] = i
    tiers: Tiers = []
    last = None
    for seat in reversed(seats_worst_first):
        name = names_by_seat.get(seat)
        if name is None:
            continue
        group_no = tie_of.get(seat)
        if tiers and group_no is not None and group_no == last:
            tiers[-1].append(name)
        else:
            tiers.append([name])
        last = group_no
    return tiers


def same_hand_order(names: Sequence[str], chips: Mapping[str, int], box: BoxProfile,
                    house: HouseRules, hole: Mapping[str, Sequence[str]],
                    board: Sequence[str] | None, leaderboards: Leaderboards,
                    player_key: Callable[[str], str],
                    showdown: Sequence[Sequence[str]] | None = None
                    ) -> tuple[Tiers, list[str]]:
    """Tiers best first for *names* out in one hand, and the sentences that explain them
    (LPPL ¶46, US 14): more *chips* at the start of the hand finishes higher; with the
    profile's ``bust_tiebreak_hand`` equal chips go by the better hand (*hole* cards and
    *board*, or the box's *showdown* tiers instead of cards); with
    ``bust_tiebreak_leaderboard`` still-equal players by the *leaderboards* (keyed by
    *player_key*: the leaderboard, then the previous one).  Raises OrderError when chips or
    cards are missing."""
    if len(names) == 1:
        return [list(names)], []
    missing = [name for name in names if name not in chips]
    if missing:
        raise OrderError("%d players went out in one hand: give --chips-at-start for each "
                         "(the player with more chips at the start of the hand finishes "
                         "higher); missing for %s" % (len(names), _names_text(missing)))
    use_hand = box["bust_tiebreak_hand"]
    use_board = house["bust_tiebreak_leaderboard"]
    tied_chips = [name for name in names
                  if sum(chips[other] == chips[name] for other in names) > 1]
    ranked: dict[str, tuple[Any, str | None]] = {}
    if use_hand and tied_chips and showdown is not None and not hole:
        for i, tier in enumerate(showdown):
            for name in tier:
                if name in tied_chips:
                    ranked[name] = (-i, None)
        missing = [name for name in tied_chips if name not in ranked]
        if missing:
            raise OrderError("the box's showdown does not rank %s" % _names_text(missing))
    elif use_hand and tied_chips:
        need = [name for name in tied_chips if name not in hole]
        if need or not board:
            raise OrderError("%s started the hand with equal chips: give --cards for %s "
                             "and --board (the better hand finishes higher)"
                             % (_names_text(tied_chips), _names_text(need or tied_chips)))
        ranked = dict(_hands.rank({name: hole[name] for name in tied_chips}, board))
    boards = leaderboards() if use_board else ({}, {})

    def compare(first: str, second: str) -> tuple[int, str]:
        """(sign, reason): sign > 0 if *first* finishes above *second*."""
        if chips[first] != chips[second]:
            high, low = max(chips[first], chips[second]), min(chips[first], chips[second])
            return (1 if chips[first] > chips[second] else -1), \
                "more chips at the start of the hand (%d to %d)" % (high, low)
        why = "both started the hand with %d chips" % chips[first]
        if ranked:
            hand_a, hand_b = ranked[first], ranked[second]
            if hand_a[0] != hand_b[0]:
                better, worse = (hand_a, hand_b) if hand_a[0] > hand_b[0] else (hand_b, hand_a)
                sign = 1 if hand_a[0] > hand_b[0] else -1
                if hand_a[1] is None:  # the box's ranking of the showdown
                    return sign, "%s; the better hand at the showdown (as the box ranked " \
                        "it)" % why
                return sign, "%s; the better hand: %s beats %s" % (why, better[1], worse[1])
            why += "; equal hands (%s)" % hand_a[1] if hand_a[1] else \
                "; equal hands at the showdown"
        if use_board:
            for board_name, points in zip(("league leaderboard", "previous leaderboard"),
                                          boards):
                points_a = points.get(player_key(first), 0)
                points_b = points.get(player_key(second), 0)
                if points_a != points_b:
                    return (1 if points_a > points_b else -1), \
                        "%s; higher on the %s (%s to %s points)" % (
                            why, board_name, points_text(max(points_a, points_b)),
                            points_text(min(points_a, points_b)))
            why += "; level on the leaderboard"
        return 0, why

    def finishes_before(first: str, second: str) -> int:
        return -compare(first, second)[0]
    order = sorted(names, key=functools.cmp_to_key(finishes_before))
    tiers = [[order[0]]]
    reasons = []
    for first, second in zip(order, order[1:]):
        sign, why = compare(first, second)
        if sign == 0:
            tiers[-1].append(second)
            reasons.append("%s and %s tie: %s; they share the places" % (first, second, why))
        else:
            tiers.append([second])
            reasons.append("%s finishes above %s: %s" % (first, second, why))
    return tiers, reasons


def end_order(chips: Mapping[str, int]) -> Tiers:
    """The players still in at a time-limited end, tiers best first: more chips finishes
    higher, equal chips share the places."""
    order = sorted(chips, key=lambda name: -chips[name])
    tiers: Tiers = []
    for name in order:
        if tiers and chips[tiers[-1][0]] == chips[name]:
            tiers[-1].append(name)
        else:
            tiers.append([name])
    return tiers
