"""The seat draw: random, reproducible from a seed, with seat locks, LPPL's Ace-8 card
draw and the final-table redraw.  Pure functions, no I/O.

First seating (`first_draw`): N players fill T = ceil(N / seats) tables as evenly as
possible (sizes differ by at most one).  Locked players (accessibility, the TD) keep
their seat; the other seats of each table are a seeded sample and the other players a
seeded shuffle.  Everything comes from random.Random("<seed>|draw"), so the same players
in the same registration order with the same seed and locks give the same seats.

Ace-8 (LPPL ¶10): "8 cards should be removed (Ace-8) from the deck and placed face down
on each table ... the first person to choose will select their seat and then all other
players joining the table must sit in position thereafter, as dictated by their card
chosen and in relation to the first player to select. The lowest numbered card selected
will deal".  The draw fixes, per table, where the first chooser sat: card c then sits in
seat ((c - 1 + r) mod S) + 1 for a seeded offset r, and the map card -> seat is printed.
The player holding the lowest card drawn deals.

First button without cards: the profile's `first_button` (tdhost.rules): the lowest
occupied seat ("lowest_card", "seat_1": WPH ¶13 "Seat 1 is the first button and
dealer"), or a seeded draw for high card at the table (US 2, suits ranked spades,
hearts, diamonds, clubs).

Final table (`final_draw`): the kept table and the seats come from tdhost.balance
(the same draw `tdhost plan` makes when the room combines), cards as above.
"""

import random

from tdhost import balance as _balance, house as _house

RANKS = "23456789TJQKA"
SUITS = "shdc"  # US 2: "Spades, Hearts, Diamonds, Clubs" (first is highest)
CARD_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8"]


class DrawError(ValueError):
    """The draw cannot be made; str(err) is a sentence."""


def _rng(seed, what):
    return random.Random("%s|%s" % (seed, what))


def table_count(n, seats):
    return max(1, -(-n // seats))


def card_map(seats, rng):
    """{card number: seat} for one table of the Ace-8 draw (cards 1..seats)."""
    r = rng.randrange(seats)
    return {c: (c - 1 + r) % seats + 1 for c in range(1, seats + 1)}


def high_card_button(seat_players, rng):
    """(button seat, {seat: card}) from a draw for high card at one table (US 2)."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    cards = {s: deck[i] for i, s in enumerate(sorted(seat_players))}

    def strength(card):
        return (RANKS.index(card[0]), -SUITS.index(card[1]))
    best = max(cards, key=lambda s: strength(cards[s]))
    return best, cards


def _buttons(tables, seats, ace8, first_button, rng):
    """Per table: (button, cards {player: card name} or None, card map or None,
    high cards {player: card} or None)."""
    out = {}
    for t in sorted(tables):
        seat_players = tables[t]
        if not seat_players:
            continue
        if ace8:
            cmap = card_map(seats, rng)
            seat_card = {s: c for c, s in cmap.items()}
            cards = {p: CARD_NAMES[seat_card[s] - 1] for s, p in seat_players.items()}
            low = min(seat_players, key=lambda s: seat_card[s])
            out[t] = {"button": low, "cards": cards,
                      "card_map": {CARD_NAMES[c - 1]: s for c, s in sorted(cmap.items())}}
        elif first_button == "high_card":
            button, hc = high_card_button(seat_players, rng)
            out[t] = {"button": button, "high_cards": {seat_players[s]: c for s, c in hc.items()}}
        else:
            out[t] = {"button": min(seat_players)}
    return out


def first_draw(players, seats, seed, locks=None, ace8=False, first_button="lowest_card"):
    """Seats for *players* (names in registration order) at tables of *seats* seats.

    locks: {player: (table, seat)}.  Returns {"seats": {player: [table, seat]},
    "tables": {table: {"button", "cards"?, "card_map"?, "high_cards"?}}} with string
    table keys (JSON).  Raises DrawError.
    """
    locks = dict(locks or {})
    n = len(players)
    if n < 2:
        raise DrawError("a draw needs at least two players; %d %s registered"
                        % (n, "is" if n == 1 else "are"))
    if ace8 and seats > len(CARD_NAMES):
        raise DrawError("the Ace-8 draw has 8 cards: tables of %d seats need a random draw"
                        % seats)
    tables = table_count(n, seats)
    rng = _rng(seed, "draw")
    locked_at = {}
    for p, (t, s) in locks.items():
        if t > tables:
            raise DrawError("%s is locked to table %d, but %d players fill %d table%s"
                            % (p, t, n, tables, "" if tables == 1 else "s"))
        locked_at.setdefault(t, {})[s] = p
    base, extra = divmod(n, tables)
    must = [t for t in range(1, tables + 1) if len(locked_at.get(t, {})) > base]
    for t in must:
        if len(locked_at[t]) > base + 1:
            raise DrawError("%d seats are locked at table %d, which gets only %d players"
                            % (len(locked_at[t]), t, base + 1))
    if len(must) > extra:
        raise DrawError("the seat locks put %d players at tables %s; only %d table%s can "
                        "have %d" % (sum(len(locked_at[t]) for t in must),
                                     ", ".join(map(str, must)), extra,
                                     "" if extra == 1 else "s", base + 1))
    others = [t for t in range(1, tables + 1) if t not in must]
    bigger = set(must) | set(rng.sample(others, extra - len(must)))
    slots = []
    for t in range(1, tables + 1):
        size = base + (1 if t in bigger else 0)
        fixed = locked_at.get(t, {})
        free = [s for s in range(1, seats + 1) if s not in fixed]
        slots += [(t, s) for s in sorted(rng.sample(free, size - len(fixed)))]
    movers = [p for p in players if p not in locks]
    rng.shuffle(movers)
    result = {p: [t, s] for p, (t, s) in locks.items()}
    for p, (t, s) in zip(movers, slots):
        result[p] = [t, s]
    by_table = {}
    for p, (t, s) in result.items():
        by_table.setdefault(t, {})[s] = p
    info = _buttons(by_table, seats, ace8, first_button, rng)
    return {"seats": result, "tables": {str(t): v for t, v in info.items()}}


def final_draw(seated, seats, seed, profile, ace8=False, first_button="lowest_card"):
    """The final-table redraw for *seated* {player: (table, seat)}.

    The kept table (the last in the profile's break order) and the seats are those of
    tdhost.balance's final-table plan.  Returns the same shape as first_draw plus
    "table" (the kept table).
    """
    if ace8 and seats > len(CARD_NAMES):
        raise DrawError("the Ace-8 draw has 8 cards: tables of %d seats need a random draw"
                        % seats)
    _, house = _house.get(profile)
    tables = {}
    for p, (t, s) in seated.items():
        tables.setdefault(t, {})[s] = p
    room = {"seats_per_table": seats, "seed": seed,
            "tables": [{"table": t, "seats": tables[t]} for t in sorted(tables)]}
    order = _balance.break_order(sorted(tables), house, seed)
    plan = _balance._final_table(room, order)
    keep = plan["moves"][0]["to"]["table"]
    result = {m["player"]: [keep, m["to"]["seat"]] for m in plan["moves"]}
    info = _buttons({keep: {s: p for p, (_, s) in result.items()}}, seats, ace8, first_button,
                    _rng(seed, "final-cards"))
    return {"seats": result, "tables": {str(t): v for t, v in info.items()}, "table": keep}
