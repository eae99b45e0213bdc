"""The night as the TD records it by hand: `tdhost draw`, `start`, `level`, `late`,
`arrive`, `bust`, `move`, `end`, `ruling` (a ruling asked of the league), `undo` and `seats`
(who sits where).  Each change is one
transaction on the league file; times default to now, --at enters one after the fact.
Each command is an action of tdhost.actions: the same decision and sentences as the
console's.  docs/host.md §1.
"""

import secrets
from typing import Any, Sequence, TypeVar

import click

from tdhost.actions import (
    ACTIONS,
    arrive_sentence,
    draw_sentence,
    late_sentence,
    reenter_sentence,
    start_sentences,
)
from tdhost.cli.league_access import read, tournament_of, write
from tdhost.cli.names import ask, declined, resolve_all
from tdhost.cli.options import (
    at_option,
    league_options,
    pairs_value,
    plain_option,
    seat_value,
    when_value,
    yes_option,
)
from tdhost.cli.output import echo_lines, fail, say, show_table
from tdhost.cli.plan import balance_hint, move_words
from tdhost.league import pulled as _pulled
from tdhost.league.busts import bust_sentences, decide_bust, decide_end
from tdhost.league.entries import (
    absent_deduction,
    decide_arrive,
    decide_late,
    decide_reenter,
)
from tdhost.league.limits import SEED_MAX
from tdhost.league.play import decide_level, decide_start
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import SYSTEM_ACTIONS, League
from tdhost.league.rulings import decide_ruling, ruling_sentence
from tdhost.league.seats import decide_draw, decide_move
from tdhost.league.text import match, names_text, place_text, quote_name, seat_text, summary
from tdhost.league.times import now
from tdhost.league.transaction import Decision, NewEvent
from tdhost.live.room_plan import refuse_hand_move

Value = TypeVar("Value")


@click.command("draw")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=None,  # tdhost.actions
              help="Seed of the draw (default: a random one, printed and logged).")
@click.option("--ace8", is_flag=True, help="LPPL's Ace-8 card draw at each table.")
@click.option("--again", is_flag=True, help="Replace an earlier draw.")
@click.option("--final", is_flag=True, help="The final-table redraw.")
@league_options
@plain_option
def draw(seed: int | None, ace8: bool, again: bool, final: bool, db: str,
         number: int | None, plain: bool) -> None:
    """Draw the seats (random and reproducible from the seed)."""
    chosen = secrets.randbelow(10**9) if seed is None else seed

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_draw(tournament, chosen, ace8, again, final)
        return [(tournament.number, "draw", payload, None)], payload
    _, payload = write("draw", db, decide)
    show_draw(payload, plain)


def show_draw(payload: dict[str, Any], plain: bool) -> None:
    """The draw's seats, table by table, and the command that repeats it."""
    by_table: dict[int, list[tuple[int, str]]] = {}
    for name, (table, seat) in payload["seats"].items():
        by_table.setdefault(table, []).append((seat, name))
    for table in sorted(by_table):
        info = payload["tables"][str(table)]
        cards = info.get("cards") or info.get("high_cards") or {}
        rows = [[seat, name, cards.get(name, ""),
                 "deals (button)" if seat == info["button"] else ""]
                for seat, name in sorted(by_table[table])]
        show_table(["seat", "player", "card", ""], rows, plain,
                   title="%sTable %d" % ("Final table: " if payload["final"] else "", table))
        if info.get("card_map"):
            say("Ace-8 cards at table %d: %s; the lowest card deals." % (table, ", ".join(
                "%s -> seat %d" % (card, seat) for card, seat in info["card_map"].items())))
    say("%s (`tdhost draw --again --seed %s%s` repeats it)." % (
        draw_sentence(payload), payload["seed"], " --final" if payload["final"] else ""))


@click.command("start")
@click.option("--absent", multiple=True, metavar="NAME",
              help="Not seated, whereabouts unknown (LPPL: chips removed, or replaced "
                   "by a standby player).")
@click.option("--away", multiple=True, metavar="NAME",
              help="Not seated, whereabouts known (bar, toilets): blinds only.")
@at_option
@league_options
@yes_option
def start(absent: tuple[str, ...], away: tuple[str, ...], at: str | None, db: str,
          number: int | None, yes: bool) -> None:
    """Shuffle up and deal: the tournament starts."""
    when = when_value("start", at)
    absent_names: Sequence[str] = absent
    away_names: Sequence[str] = away
    if absent or away:
        absent_names = resolve_all("start", db, number, absent, ("registered",), yes)
        away_names = resolve_all("start", db, number, away, ("registered",), yes)

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload, notes = decide_start(tournament, when, absent_names, away_names)
        return [(tournament.number, "start", payload, None)], (payload, notes)
    lg, (payload, notes) = write("start", db, decide)
    echo_lines(start_sentences(lg.current(number), payload, notes, when))


@click.command("level")
@click.argument("level", type=click.IntRange(1))
@at_option
@league_options
def level(level: int, at: str | None, db: str, number: int | None) -> None:
    """The clock's level LEVEL started (keeps the host's clock with the room's)."""
    when = when_value("level", at)

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_level(tournament, level, when)
        return [(tournament.number, "level", payload, None)], payload
    write("level", db, decide)
    say("Level %d started at %s." % (level, when.strftime("%H:%M:%S")))


@click.command("late")
@click.argument("name")
@click.option("--member", is_flag=True, help="League member.")
@click.option("--member-no", "member_no", metavar="NUMBER", default=None,
              help="The latecomer's member number (as on the member's card): their identity "
                   "in the league.")
@click.option("--seat", default=None, metavar="T.S", help="The seat (default: drawn).")
@at_option
@league_options
def late(name: str, member: bool, member_no: str | None, seat: str | None, at: str | None,
         db: str, number: int | None) -> None:
    """A latecomer asks to join: the decision, the stack and the seat."""
    when = when_value("late", at)
    chosen = seat_value("late", seat)
    known = _pulled.members(db)  # the league's members, as last pulled (docs/league.md)

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        spelled, is_member = _pulled.league_member(known, lg, name, member, member_no)
        payload = decide_late(tournament, spelled, is_member, when, lg, seq, chosen,
                              member_no=member_no)
        return [(tournament.number, "late", payload, None)], payload
    _, payload = write("late", db, decide)
    spelled = _pulled.spelling_note(known, name, member_no)
    echo_lines([late_sentence(payload)] + ([spelled] if spelled else []))


@click.command("reenter")
@click.argument("name")
@click.option("--seat", default=None, metavar="T.S", help="The seat (default: drawn).")
@at_option
@league_options
@yes_option
def reenter(name: str, seat: str | None, at: str | None, db: str, number: int | None,
            yes: bool) -> None:
    """A player who is out buys a new entry, where the tournament file allows it
    ([reentry]): a new seat and the starting stack; undo takes it back."""
    when = when_value("reenter", at)
    chosen = seat_value("reenter", seat)
    name = resolve_all("reenter", db, number, [name], ("out",), yes, check=lambda t, names:
                       decide_reenter(t, names[0], when, 0, chosen))[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_reenter(tournament, name, when, seq, chosen)
        return [(tournament.number, "reenter", payload, None)], payload
    _, payload = write("reenter", db, decide)
    echo_lines([reenter_sentence(payload)])


@click.command("arrive")
@click.argument("name")
@at_option
@league_options
@yes_option
def arrive(name: str, at: str | None, db: str, number: int | None, yes: bool) -> None:
    """A registered player who was not seated at the start takes the seat."""
    when = when_value("arrive", at)
    name = resolve_all("arrive", db, number, [name], ("in",), yes)[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_arrive(tournament, name, when)
        return [(tournament.number, "arrive", payload, None)], payload
    lg, payload = write("arrive", db, decide)
    entry = lg.current(number).get(payload["name"])
    assert entry is not None and entry.seat is not None, "an arrival seats the player"
    echo_lines([arrive_sentence(payload, entry.seat)])


@click.command("ruling")
@click.argument("name")
@click.option("--decision", required=True, metavar="TEXT",
              help="The TD's decision the player disputes.")
@click.option("--reasons", default=None, metavar="TEXT", help="The player's reasons.")
@at_option
@league_options
@yes_option
def ruling(name: str, decision: str, reasons: str | None, at: str | None, db: str,
           number: int | None, yes: bool) -> None:
    """Player NAME disputes the TD's decision and asks for the league's ruling: recorded
    against the tournament (its results and the league's page show it); play goes on."""
    when = when_value("ruling", at)
    name = resolve_all("ruling", db, number, [name], (), yes)[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_ruling(tournament, name, decision, reasons, when)
        return [(tournament.number, "ruling", payload, None)], (payload, lg.name)
    _, (payload, league) = write("ruling", db, decide)
    echo_lines([ruling_sentence(payload, league or "") + "."])


@click.command("bust")
@click.argument("names", nargs=-1, required=True)
@click.option("--chips-at-start", "chips", multiple=True, metavar="N",
              help="Chips at the start of the hand, one per NAME (or NAME=N).")
@click.option("--cards", multiple=True, metavar="CARDS",
              help='Hole cards, one per NAME (or NAME=CARDS), e.g. "As Kd".')
@click.option("--board", default=None, help='The board, e.g. "Ah 7d 2c 9s Tc".')
@at_option
@league_options
@yes_option
def bust(names: tuple[str, ...], chips: tuple[str, ...], cards: tuple[str, ...],
         board: str | None, at: str | None, db: str, number: int | None, yes: bool) -> None:
    """Eliminations: one NAME, or several who went out in the same hand.

    A NAME may be the start of a name ("Yan" for Yan Irons) or a close spelling: it
    asks first.  After the bust it says when the tables are out of balance."""
    command = "bust"
    when = when_value(command, at)
    full = resolve_all(command, db, number, names, ("in",), yes)
    typed = dict(zip(names, full))
    chip_map = {}
    for name, value in pairs_value(command, names, chips, "--chips-at-start").items():
        if not value.isdigit() or int(value) > ACTIONS["bust"].args[1].high:
            fail(command, "--chips-at-start %r is not a whole number of chips (at most %d)"
                 % (value, ACTIONS["bust"].args[1].high))
        chip_map[typed.get(name, name)] = int(value)
    card_map = {typed.get(name, name): value
                for name, value in pairs_value(command, names, cards, "--cards").items()}
    _to_full(chip_map, full)
    _to_full(card_map, full)

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_bust(tournament, list(full), chip_map, card_map, board, when, lg)
        return [(tournament.number, "bust", payload, None)], payload
    lg, payload = write(command, db, decide)
    tournament = lg.current(number)
    lines = bust_sentences(tournament, payload)
    for seat, freed in payload["offers"]:
        pair = [key for offer, key in tournament.offer_pairs() if offer["seat"] == seat]
        if pair and pair[0]:
            taker = tournament.players[pair[0]].name
            lines.append("%s's seat (%s) is offered to standby player %s: `tdhost standby "
                         "--take %s` or `--pass %s`" % (
                             freed, seat_text(seat), taker, quote_name(taker), quote_name(taker)))
    if not tournament.ended:
        lines.append(balance_hint(tournament) or "")
    echo_lines([line for line in lines if line])


def _to_full(given: dict[str, Value], full: Sequence[str]) -> None:
    """NAME=VALUE given with another short form of a busted name: keyed by the full name."""
    for name in [name for name in given if name not in full]:
        how, found = match(name, full)
        if how is not None and len(found) == 1:
            given[found[0]] = given.pop(name)


@click.command("move")
@click.argument("name")
@click.argument("seat", metavar="T.S")
@league_options
@yes_option
def move(name: str, seat: str, db: str, number: int | None, yes: bool) -> None:
    """Record that NAME now sits at table T seat S (`tdhost plan --apply` records a
    whole plan).  While `tdhost serve` runs, a seat the boxes are about to fill (a move
    on its way there, a player out whom the box has not taken out yet) is refused."""
    to = seat_value("move", seat)
    name = resolve_all("move", db, number, [name], ("in",), yes)[0]

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        refuse_hand_move(tournament, name, to)
        payload = decide_move(tournament, name, to)
        return [(tournament.number, "move", payload, None)], payload
    _, payload = write("move", db, decide)
    say("%s." % move_words(payload["name"], payload["from"], payload["seat"]))


@click.command("end")
@click.argument("stacks", nargs=-1, required=True, metavar="NAME=CHIPS...")
@at_option
@league_options
@yes_option
def end(stacks: tuple[str, ...], at: str | None, db: str, number: int | None,
        yes: bool) -> None:
    """A time-limited end: the players still in are ranked by chips."""
    when = when_value("end", at)
    typed = {}
    for stack in stacks:
        name, sep, value = stack.partition("=")
        if not sep or not value.strip().isdigit():
            fail("end", "%r is not NAME=CHIPS" % stack)
        typed[name.strip()] = int(value)
    full = resolve_all("end", db, number, list(typed), ("in",), yes)
    chips = dict(zip(full, typed.values()))

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        payload = decide_end(tournament, chips, when)
        return [(tournament.number, "end", payload, None)], payload
    lg, payload = write("end", db, decide)
    tournament = lg.current(number)
    say("Tournament %d ends on time at %s; the most chips wins." % (
        tournament.number, when.strftime("%H:%M:%S")))
    for names, first, last in tournament.ranking()[:len(payload["tiers"])]:
        assert first is not None and last is not None, "an ended tournament has places"
        for name in names:
            count = payload["chips"][name]
            say("%s %s (%d chip%s)." % (place_text(first, last), name, count,
                                       "" if count == 1 else "s"))


@click.command("undo")
@league_options
@yes_option
def undo(db: str, number: int | None, yes: bool) -> None:
    """Undo the last TD action of the tournament (a compensating event); an action that
    registered several players (an import) asks first, saying how many it takes back."""
    lg = read("undo", db)
    try:
        last = lg.last_action(lg.current(number).number)
    except ActionRefused as err:
        fail("undo", str(err))
    registered = [event.payload["name"] for event in last if event.action == "register"]
    if len(registered) > 1 and not ask(
            "Undo the registration of %d players (%s)?" % (
                len(registered), names_text(registered[:3] + (
                    ["%d more" % (len(registered) - 3)] if len(registered) > 3 else []))),
            yes):
        declined("undo")
    batch = {event.seq for event in last}

    def decide(lg: League, seq: int) -> Decision:
        tournament = lg.current(number)
        events = lg.last_action(tournament.number)
        if {event.seq for event in events} != batch:
            raise ActionRefused("the last action changed while you were asked: run "
                                "`tdhost undo` again")
        if not events:
            raise ActionRefused("there is nothing to undo in tournament %d" % tournament.number)
        actions = [event for event in events if event.action not in SYSTEM_ACTIONS]
        if all(event.payload.get("by") in ("box", "boxes", "host") for event in actions):
            # as the console's undo: the boxes' own reports stand (the box plays on without
            # the player), and so does the host's own seating of a player (with its
            # instruction and notice), docs/live.md "The TD's actions and undo"
            raise ActionRefused("the last event of tournament %d is the boxes' own (%s): undo "
                                "takes back only the TD's actions" % (
                                    tournament.number, summary(actions[-1])))
        out: list[NewEvent] = [(tournament.number, "undo",
                {"action": event.action, "summary": summary(event)}, event.seq)
               for event in reversed(events)]
        return out, ["#%d: %s" % (event.seq, summary(event)) for event in events]
    _, lines = write("undo", db, decide)
    echo_lines(["Undone %s" % line for line in lines])


@click.command("seats")
@league_options
@plain_option
def seats(db: str, number: int | None, plain: bool) -> None:
    """Who sits where; players not seated and the chips due from them."""
    tournament = tournament_of("seats", read("seats", db), number)
    when = now()
    head = "Tournament %d: %s (%s)" % (tournament.number, tournament.setup["name"],
                                       tournament.setup["profile"])
    if tournament.ended:  # the clock means nothing any more: who won (issue #31)
        head += ", finished: %s won" % " and ".join(tournament.ended["tiers"][0])
    elif tournament.started:
        at_level, clock = tournament.level_at(when)
        left = len(tournament.remaining())
        head += ", level %d%s, %d player%s in" % (
            at_level, " (break)" if clock.on_break() else "", left, "" if left == 1 else "s")
    rows = []
    for entry in tournament.players.values():
        if entry.state not in ("registered", "in"):
            continue
        note = ""
        if entry.absent == "awol":
            deduction, _, _ = absent_deduction(tournament, when)
            note = "not seated: remove %d chips now" % deduction if deduction else "not seated"
        elif entry.absent == "away":
            note = "away (known whereabouts)"
        rows.append([entry.seat[0] if entry.seat else "", entry.seat[1] if entry.seat else "",
                     entry.name, entry.stack - entry.deducted if entry.stack else "", note])
    rows.sort(key=lambda row: (row[0] or 10**6, row[1] or 0))
    show_table(["table", "seat", "player", "chips at entry", ""], rows, plain, title=head)


COMMANDS = (draw, start, level, late, reenter, arrive, ruling, bust, move, end, undo, seats)
