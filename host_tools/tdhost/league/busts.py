"""The TD's decisions on who goes out: a bust (the finishing order of players out in
one hand, with the reasons) and a time-limited end.  Each returns the payload of the
event that records it, or raises ActionRefused (docs/host.md §6, LPPL ¶46)."""

import datetime
from typing import Mapping, Optional, Sequence

from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.text import names_text, player_key, quote_name
from tdhost.league.times import iso
from tdhost.league.tournament import Payload, Tier, Tournament
from tdhost.rules import finishing as _finishing, hands as _hands


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
    try:
        tiers, reasons = _finishing.same_hand_order(
            names, chips, tournament.box, tournament.rules, hole, brd,
            lambda: league.leaderboard_points(tournament.number), player_key, hand_order)
    except _finishing.OrderError as err:
        raise ActionRefused(str(err))
    level, clock = tournament.level_at(when)
    offers = []
    if clock.late_entry_open() and tournament.standby:
        offers = [[tournament.need(name).seat, name] for name in names
                  if tournament.need(name).seat]
    return {"time": iso(when), "tiers": tiers, "chips": chips,
            "cards": {k: " ".join(v) for k, v in hole.items()},
            "board": " ".join(brd) if brd else None, "reasons": reasons,
            "level": level, "offers": offers}



def bust_sentences(tournament: Tournament, payload: Payload) -> list[str]:
    """The sentences (without their full stops) that tell the TD a recorded ``bust``
    *payload* of *tournament* (as it is after it): each player's place, worst first, the
    decision's reasons, then the winner or how many players remain.  The CLI's `tdhost
    bust` and the live console's bust say the same."""
    entrants = len(tournament.entrants())
    lines = ["%s is out: %s of %d" % (name, tournament.place_of(name), entrants)
             for tier in reversed(payload["tiers"]) for name in tier]
    lines += payload["reasons"]
    if tournament.ended:
        lines.append("%s wins tournament %d" % (tournament.ended["tiers"][0][0],
                                                tournament.number))
    else:
        lines.append("%d players remain" % len(tournament.remaining()))
    return lines


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
    return {"time": iso(when), "chips": given, "tiers": _finishing.end_order(given)}
