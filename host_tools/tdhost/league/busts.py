"""The TD's decisions on who goes out: a bust (the finishing order of players out in
one hand, with the reasons) and a time-limited end.  Each returns the payload of the
event that records it, or raises ActionRefused (docs/host.md §6, LPPL ¶46)."""

import datetime
import functools
from typing import Mapping, Optional, Sequence

from tdhost import hands as _hands
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.text import names_text, number_text, player_key, quote_name
from tdhost.league.times import iso
from tdhost.league.tournament import Payload, Tier, Tournament


def decide_bust(tournament: Tournament, names: Sequence[str],
                chips: Optional[Mapping[str, int]], cards: Optional[Mapping[str, str]],
                board: Optional[str], when: datetime.datetime, league: League,
                hand_order: Optional[Sequence[Tier]] = None) -> Payload:
    """*hand_order*: the box's finishing order at the showdown for players with equal
    chips (tiers best first: a tier is equal hands), used instead of cards."""
    tournament.start_time()
    entries = [tournament.need(name, ("in",)) for name in names]
    keys = [player_key(entry.name) for entry in entries]
    if len(set(keys)) != len(keys):
        raise ActionRefused("a player is named twice")
    names = [entry.name for entry in entries]
    rem = tournament.remaining()
    if len(names) >= len(rem):
        raise ActionRefused("%s %s the last player%s: someone wins the hand" % (
            names_text(names), "is" if len(names) == 1 else "are",
            "" if len(names) == 1 else "s"))
    tournament.refuse_if_before_start(when)
    given = {}
    for k, v in (chips or {}).items():
        entry = tournament.get(k)
        if entry is None or entry.name not in names:
            raise ActionRefused("chips are given for %s, who is not among the busted players" % k)
        if v < 1:
            raise ActionRefused("%s's chips at the start of the hand must be at least 1"
                                % entry.name)
        given[entry.name] = v
    chips = given
    hole = {}
    for k, hand in (cards or {}).items():
        entry = tournament.get(k)
        if entry is None or entry.name not in names:
            raise ActionRefused("cards are given for %s, who is not among the busted players"
                                % k)
        try:
            hole[entry.name] = _hands.parse(hand, "%s's cards" % entry.name)
        except _hands.CardError as err:
            raise ActionRefused(str(err))
    brd = None
    if board:
        try:
            brd = _hands.parse(board, "the board")
        except _hands.CardError as err:
            raise ActionRefused(str(err))
    if hole or brd:
        if not brd:
            raise ActionRefused("cards need the board as well (--board \"Ah 7d 2c 9s Tc\")")
        try:
            _hands.check_deal(hole, brd)
        except _hands.CardError as err:
            raise ActionRefused(str(err))
    tiers, reasons = order_same_hand(tournament, names, chips, hole, brd, league, hand_order)
    level, clock = tournament.level_at(when)
    offers = []
    if clock.late_entry_open() and tournament.standby:
        offers = [[tournament.need(name).seat, name] for name in names
                  if tournament.need(name).seat]
    return {"time": iso(when), "tiers": tiers, "chips": chips,
            "cards": {k: " ".join(v) for k, v in hole.items()},
            "board": " ".join(brd) if brd else None, "reasons": reasons,
            "level": level, "offers": offers}



def order_same_hand(tournament: Tournament, names: list[str], chips: Mapping[str, int],
                    hole: Mapping[str, list[str]], board: Optional[list[str]],
                    league: League, hand_order: Optional[Sequence[Tier]] = None
                    ) -> tuple[list[Tier], list[str]]:
    """Tiers best first, and the sentences that explain them (LPPL ¶46, US 14).
    *hand_order* (tiers best first, from a box's showdown) replaces cards."""
    if len(names) == 1:
        return [names], []
    missing = [name for name in names if name not in chips]
    if missing:
        raise ActionRefused("%d players went out in one hand: give --chips-at-start for each "
                            "(the player with more chips at the start of the hand finishes "
                            "higher); missing for %s" % (len(names), names_text(missing)))
    use_hand = tournament.box["bust_tiebreak_hand"]
    use_lb = tournament.rules["bust_tiebreak_leaderboard"]
    tied_chips = [name for name in names if sum(chips[other] == chips[name] for other in names) > 1]
    ranked = {}
    if use_hand and tied_chips and hand_order is not None and not hole:
        for i, tier in enumerate(hand_order):
            for name in tier:
                if name in tied_chips:
                    ranked[name] = (-i, None)
        missing = [name for name in tied_chips if name not in ranked]
        if missing:
            raise ActionRefused("the box's showdown does not rank %s" % names_text(missing))
    elif use_hand and tied_chips:
        need = [name for name in tied_chips if name not in hole]
        if need or not board:
            raise ActionRefused("%s started the hand with equal chips: give --cards for %s "
                                "and --board (the better hand finishes higher)"
                                % (names_text(tied_chips), names_text(need or tied_chips)))
        ranked = _hands.rank({name: hole[name] for name in tied_chips}, board)
    lb: dict[str, float] = {}
    prev: dict[str, float] = {}
    if use_lb:
        lb, prev = league.leaderboard_points(tournament.number)

    def compare(one: str, other: str) -> tuple[int, str]:
        """(sign, reason): sign > 0 if one finishes above other."""
        if chips[one] != chips[other]:
            return (1 if chips[one] > chips[other] else -1), "more chips at the start of the " \
                "hand (%d to %d)" % (max(chips[one], chips[other]), min(chips[one], chips[other]))
        why = "both started the hand with %d chips" % chips[one]
        if ranked:
            ha, hb = ranked[one], ranked[other]
            if ha[0] != hb[0]:
                hi, lo = (ha, hb) if ha[0] > hb[0] else (hb, ha)
                if ha[1] is None:  # the box's ranking of the showdown
                    return (1 if ha[0] > hb[0] else -1), "%s; the better hand at the " \
                        "showdown (as the box ranked it)" % why
                return (1 if ha[0] > hb[0] else -1), "%s; the better hand: %s beats %s" % (
                    why, hi[1], lo[1])
            why += "; equal hands (%s)" % ha[1] if ha[1] else "; equal hands at the " \
                "showdown"
        if use_lb:
            for board_name, pts in (("league leaderboard", lb),
                                    ("previous leaderboard", prev)):
                pa, pb = pts.get(player_key(one), 0), pts.get(player_key(other), 0)
                if pa != pb:
                    return (1 if pa > pb else -1), "%s; higher on the %s (%s to %s " \
                        "points)" % (why, board_name, number_text(max(pa, pb)),
                                     number_text(min(pa, pb)))
            why += "; level on the leaderboard"
        return 0, why

    def above_first(one: str, other: str) -> int:
        return -compare(one, other)[0]

    order = sorted(names, key=functools.cmp_to_key(above_first))
    tiers = [[order[0]]]
    reasons = []
    for one, other in zip(order, order[1:]):
        sign, why = compare(one, other)
        if sign == 0:
            tiers[-1].append(other)
            reasons.append("%s and %s tie: %s; they share the places" % (one, other, why))
        else:
            tiers.append([other])
            reasons.append("%s finishes above %s: %s" % (one, other, why))
    return tiers, reasons



def decide_end(tournament: Tournament, chips: Mapping[str, int], when: datetime.datetime
               ) -> Payload:
    tournament.start_time()
    rem = tournament.remaining()
    given = {}
    for name, count in chips.items():
        entry = tournament.need(name, ("in",))
        if count < 1:
            raise ActionRefused("%s has no chips: `tdhost bust %s` instead" % (entry.name,
                                                                      quote_name(entry.name)))
        given[entry.name] = count
    tournament.refuse_if_before_start(when)
    missing = [entry.name for entry in rem if entry.name not in given]
    if missing:
        raise ActionRefused("give the chips of every player still in; missing: %s"
                            % names_text(missing))
    order = sorted(given, key=lambda player: -given[player])
    tiers: list[Tier] = []
    for player in order:
        if tiers and given[tiers[-1][0]] == given[player]:
            tiers[-1].append(player)
        else:
            tiers.append([player])
    return {"time": iso(when), "chips": given, "tiers": tiers}
