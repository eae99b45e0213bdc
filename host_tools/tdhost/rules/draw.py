"""The seat draw: random, reproducible from a seed, with seat locks, LPPL's Ace-8 card
draw, a draw for high card (US 2) and the final-table redraw.  Pure functions, no I/O.
docs/host.md §5 ("The seat draw") tells how each is made and quotes the rule texts.
"""

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from tdhost.rules import balance as _balance, house as _house

RANKS = "23456789TJQKA"
SUITS = "shdc"  # US 2: "Spades, Hearts, Diamonds, Clubs" (first is highest)
CARD_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8"]

TableDraw = dict[str, Any]  # {"button", "cards"?, "card_map"?, "high_cards"?} of one table
Draw = dict[str, Any]  # {"seats": {player: [table, seat]}, "tables": {"<table>": TableDraw}}


class DrawError(ValueError):
    """The draw cannot be made; str(err) is a sentence."""


def _rng(seed: Hashable, what: str) -> random.Random:
    return random.Random("%s|%s" % (seed, what))


def table_count(players: int, seats: int) -> int:
    return max(1, -(-players // seats))


def card_map(seats: int, rng: random.Random) -> dict[int, int]:
    """{card number: seat} for one table of the Ace-8 draw (cards 1..seats)."""
    offset = rng.randrange(seats)
    return {card: (card - 1 + offset) % seats + 1 for card in range(1, seats + 1)}


def high_card_button(seat_players: Mapping[int, str],
                     rng: random.Random) -> tuple[int, dict[int, str]]:
    """(button seat, {seat: card}) from a draw for high card at one table (US 2)."""
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    rng.shuffle(deck)
    cards = {seat: deck[i] for i, seat in enumerate(sorted(seat_players))}

    def strength(card: str) -> tuple[int, int]:
        return (RANKS.index(card[0]), -SUITS.index(card[1]))
    best = max(cards, key=lambda seat: strength(cards[seat]))
    return best, cards


def _buttons(tables: Mapping[int, Mapping[int, str]], seats: int, ace8: bool,
             first_button: str, rng: random.Random) -> dict[int, TableDraw]:
    """Per table: the button, and the cards drawn (Ace-8 or high card) if any."""
    out: dict[int, TableDraw] = {}
    for num in sorted(tables):
        seat_players = tables[num]
        if not seat_players:
            continue
        if ace8:
            cmap = card_map(seats, rng)
            seat_card = {seat: card for card, seat in cmap.items()}
            cards = {player: CARD_NAMES[seat_card[seat] - 1]
                     for seat, player in seat_players.items()}
            low = min(seat_players, key=lambda seat: seat_card[seat])
            out[num] = {"button": low, "cards": cards,
                        "card_map": {CARD_NAMES[card - 1]: seat
                                     for card, seat in sorted(cmap.items())}}
        elif first_button == "high_card":
            button, high = high_card_button(seat_players, rng)
            out[num] = {"button": button,
                        "high_cards": {seat_players[seat]: card for seat, card in high.items()}}
        else:
            out[num] = {"button": min(seat_players)}
    return out


def first_draw(players: Sequence[str], seats: int, seed: Hashable,
               locks: Mapping[str, Sequence[int]] | None = None, ace8: bool = False,
               first_button: str = "lowest_card") -> Draw:
    """Seats for *players* (names in registration order) at tables of *seats* seats.

    locks: {player: (table, seat)}.  Returns {"seats": {player: [table, seat]},
    "tables": {table: {"button", "cards"?, "card_map"?, "high_cards"?}}} with string
    table keys (JSON).  Raises DrawError.
    """
    locks = dict(locks or {})
    count = len(players)
    if count < 2:
        raise DrawError("a draw needs at least two players; %d %s registered"
                        % (count, "is" if count == 1 else "are"))
    if ace8 and seats > len(CARD_NAMES):
        raise DrawError("the Ace-8 draw has 8 cards: tables of %d seats need a random draw"
                        % seats)
    tables = table_count(count, seats)
    rng = _rng(seed, "draw")
    locked_at: dict[int, dict[int, str]] = {}
    for player, (num, seat) in locks.items():
        if num > tables:
            raise DrawError("%s is locked to table %d, but %d players fill %d table%s"
                            % (player, num, count, tables, "" if tables == 1 else "s"))
        locked_at.setdefault(num, {})[seat] = player
    base, extra = divmod(count, tables)
    must = [num for num in range(1, tables + 1) if len(locked_at.get(num, {})) > base]
    for num in must:
        if len(locked_at[num]) > base + 1:
            raise DrawError("%d seats are locked at table %d, which gets only %d players"
                            % (len(locked_at[num]), num, base + 1))
    if len(must) > extra:
        raise DrawError("the seat locks put %d players at tables %s; only %d table%s can "
                        "have %d" % (sum(len(locked_at[num]) for num in must),
                                     ", ".join(map(str, must)), extra,
                                     "" if extra == 1 else "s", base + 1))
    others = [num for num in range(1, tables + 1) if num not in must]
    bigger = set(must) | set(rng.sample(others, extra - len(must)))
    slots = []
    for num in range(1, tables + 1):
        size = base + (1 if num in bigger else 0)
        fixed = locked_at.get(num, {})
        free = [seat for seat in range(1, seats + 1) if seat not in fixed]
        slots += [(num, seat) for seat in sorted(rng.sample(free, size - len(fixed)))]
    movers = [player for player in players if player not in locks]
    rng.shuffle(movers)
    result = {player: [num, seat] for player, (num, seat) in locks.items()}
    for player, (num, seat) in zip(movers, slots):
        result[player] = [num, seat]
    by_table: dict[int, dict[int, str]] = {}
    for player, (num, seat) in result.items():
        by_table.setdefault(num, {})[seat] = player
    info = _buttons(by_table, seats, ace8, first_button, rng)
    return {"seats": result, "tables": {str(num): v for num, v in info.items()}}


def final_draw(seated: Mapping[str, Sequence[int]], seats: int, seed: int | str,
               profile: str, ace8: bool = False, first_button: str = "lowest_card") -> Draw:
    """The final-table redraw for *seated* {player: (table, seat)}.

    The kept table (the last in the profile's break order) and the seats are those of
    tdhost.rules.balance's final-table plan.  Returns the same shape as first_draw plus
    "table" (the kept table).
    """
    if ace8 and seats > len(CARD_NAMES):
        raise DrawError("the Ace-8 draw has 8 cards: tables of %d seats need a random draw"
                        % seats)
    _, house = _house.get(profile)
    tables: dict[int, dict[int, str]] = {}
    for player, (num, seat) in seated.items():
        tables.setdefault(num, {})[seat] = player
    room = {"seats_per_table": seats, "seed": seed,
            "tables": [{"table": num, "seats": tables[num]} for num in sorted(tables)]}
    order = _balance.break_order(sorted(tables), house, seed)
    plan = _balance.final_table(room, order)
    keep = plan["moves"][0]["to"]["table"]
    result = {move["player"]: [keep, move["to"]["seat"]] for move in plan["moves"]}
    info = _buttons({keep: {seat: player for player, (_, seat) in result.items()}}, seats,
                    ace8, first_button, _rng(seed, "final-cards"))
    return {"seats": result, "tables": {str(num): v for num, v in info.items()},
            "table": keep}
