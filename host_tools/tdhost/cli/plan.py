"""`tdhost plan`: the balancing and table-breaking moves for the league's seating, in words
(and recorded with --apply), or for a room in a JSON file, as JSON; the hint after a bust
when the tables are out of balance.  docs/balancing.md.
"""

import json
from typing import IO, Any, Sequence

import click

from tableclock.button import first_positions
from tdhost.cli.league_access import read, tournament_of, write
from tdhost.cli.names import ask, declined
from tdhost.cli.options import buttons_value, league_options, yes_option
from tdhost.cli.output import echo_lines, fail, load_json, say
from tdhost.league import reducers as _reducers
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import decide_move
from tdhost.league.text import names_text, seat_text
from tdhost.league.tournament import Tournament
from tdhost.league.transaction import Decision, NewEvent
from tdhost.live import room_plan as _liveplan
from tdhost.rules import balance as _balance

Room = dict[str, Any]
Plan = _balance.BalancePlan


def move_words(name: str, origin: Sequence[int], to: Sequence[int]) -> str:
    """A move as the TD and the dealers say it."""
    return "Move %s: %s \u2192 %s" % (name, seat_text(origin), seat_text(to))


def box_buttons(tournament: Tournament) -> dict[int, Any]:
    """{table: status} of the buttons and blinds the boxes last reported between hands
    (``button`` events, tdhost.live.tables.button_report), for the tables in play."""
    seating = tournament.seating()
    return {int(table): {"button": payload["button"], "sb_seat": payload.get("sb_seat"),
                         "bb_seat": payload.get("bb_seat")}
            for table, payload in tournament.buttons.items() if int(table) in seating}


def league_room(tournament: Tournament, buttons: dict[int, int] | None = None) -> Room:
    """The plan input (docs/balancing.md) for *tournament*'s seating now; *buttons*
    {table: seat of the button now}: the blinds follow from it (default: the button the
    table's box last reported, else the draw's)."""
    statuses = box_buttons(tournament)
    seating = tournament.seating()
    seats_per_table = tournament.setup["seats_per_table"]
    for table, button in (buttons or {}).items():
        if table not in seating:
            raise ActionRefused("--button %d.%d: nobody plays at table %d"
                                % (table, button, table))
        players = sorted(seating.get(table, {}))
        if len(players) >= 2:
            button, small, big = first_positions(button, players, seats_per_table)
            statuses[table] = {"button": button, "sb_seat": small, "bb_seat": big}
    seed = (tournament.draw or {}).get("seed", tournament.number)
    room: Room = _liveplan.room(tournament, statuses, seed)
    # a table nobody sits at is not in play on the CLI's night (no box to break)
    room["tables"] = [table for table in room["tables"] if table["seats"]]
    return room


def league_plan(tournament: Tournament,
                buttons: dict[int, int] | None = None) -> tuple[Room, Plan | None]:
    """(room, plan or None): None when fewer than two tables have players.  A seat kept
    for a standby player (tdhost.live.room_plan.STANDBY) counts as taken; it is nobody to move."""
    room = league_room(tournament, buttons)
    if sum(1 for table in room["tables"] if table["seats"]) < 2:
        return room, None
    result = _balance.plan(room)
    result["moves"] = [move for move in result["moves"]
                       if not move["player"].startswith(_liveplan.STANDBY)]
    return room, result


def sizes_text(room: Room) -> str:
    """"table 1: 8, table 2: 7": the players at each table."""
    return ", ".join("table %d: %d" % (table["table"], len(table["seats"]))
                     for table in room["tables"] if table["seats"])


def plan_lines(tournament: Tournament, room: Room, result: Plan | None) -> list[str]:
    """The plan in words."""
    if result is None:
        return ["Every player is at one table: nothing to balance"]
    if result["final_table"]:
        return ["%d players remain: the final table forms. Draw its seats with `tdhost draw "
                "--final`" % len(tournament.remaining())]
    lines = ["Table %d breaks" % table for table in result["broken"]]
    lines += [move_words(move["player"], [move["from"]["table"], move["from"]["seat"]],
                         [move["to"]["table"], move["to"]["seat"]]) for move in result["moves"]]
    if not lines:
        return ["The tables are balanced (%s): no moves" % sizes_text(room)]
    return ["Players per table now: %s" % sizes_text(room)] + lines


def balance_hint(tournament: Tournament) -> str | None:
    """After a bust: a line when the tables are out of balance (or the final table
    forms), saying what to run; None when they are fine."""
    if not tournament.started or tournament.ended:
        return None
    try:
        room, result = league_plan(tournament)
    except _balance.PlanError:  # the plan command says why
        return None
    if result is None:
        return None
    if result["final_table"]:
        return None if tournament.final else (
            "%d players remain: the final table forms (`tdhost draw --final` draws its seats)"
            % len(tournament.remaining()))
    if not result["moves"] and not result["broken"]:
        return None
    n = len(result["moves"])
    what = "The tables are out of balance"
    if result["broken"]:
        what = "%s break%s" % (names_text(
            ["table %d" % table for table in result["broken"]]).capitalize(),
            "s" if len(result["broken"]) == 1 else "")
    return ("%s (%s): `tdhost plan` shows the %d move%s, `tdhost plan --apply` records them"
            % (what, sizes_text(room), n, "" if n == 1 else "s"))


def format_plan(result: Plan) -> str:
    """The plan as JSON with one move per line (valid JSON, easy to read and diff)."""
    moves = ",\n".join("    " + json.dumps(move) for move in result["moves"])
    return "\n".join([
        "{",
        '  "moves": [\n%s\n  ],' % moves if moves else '  "moves": [],',
        '  "broken": %s,' % json.dumps(result["broken"]),
        '  "final_table": %s' % json.dumps(result["final_table"]),
        "}",
    ])


def echo_json(result: Plan, compact: bool) -> None:
    """The plan as JSON: on one line (*compact*), or ``format_plan``'s lines."""
    for line in (json.dumps(result) if compact else format_plan(result)).split("\n"):
        say(line)


@click.command("plan")
@click.argument("file", type=click.File("r", encoding="utf-8"), required=False)
@click.option("--json", "as_json", is_flag=True,
              help="Print the plan as JSON (the file contract's output; FILE always does).")
@click.option("--compact", is_flag=True, help="With JSON: on one line.")
@click.option("--apply", is_flag=True, help="Record the moves in one step (asks first).")
@click.option("--button", "buttons", multiple=True, metavar="T.S",
              help="Where the button is now at table T (repeatable; default: the draw's): "
                   "who moves is the player due the big blind next.")
@yes_option
@league_options
def plan(file: IO[str] | None, as_json: bool, compact: bool, apply: bool,
         buttons: tuple[str, ...], yes: bool, db: str, number: int | None) -> None:
    """The balancing and table-breaking moves for the league's seating now, in words.

    \b
      Table 4 breaks.
      Move Ann Lee: table 2 seat 4 \u2192 table 3 seat 7.

    With FILE (JSON; - for stdin) it plans that room instead and prints JSON, with no
    side effects: {"profile", "seats_per_table", "seed", "tables": [{"table", "seats":
    {"seat": "player"}, "button", "sb", "bb"}]} gives {"moves": [{"player", "from":
    {"table", "seat"}, "to": {"table", "seat"}}], "broken": [tables], "final_table":
    bool}.  See docs/balancing.md.
    """
    if file is None:
        _plan_league(as_json, compact, apply, yes, buttons_value("plan", buttons), db, number)
        return
    if apply or buttons:
        fail("plan", "--apply and --button go with the league's seating, not with FILE.")
    room = load_json("plan", file)
    try:
        result = _balance.plan(room)
    except _balance.PlanError as err:
        fail("plan", str(err))
    echo_json(result, compact)


def these_moves(n: int) -> str:
    """"this move", "these 2 moves"."""
    return "this move" if n == 1 else "these %d moves" % n


def buttons_note(room: Room, buttons: dict[int, int], boxes: Sequence[int] = ()) -> str:
    """Which buttons the plan used: the TD's (--button), the ones the boxes last reported
    (*boxes*: their tables) and the draw's, table by table (who moves is the player due
    the big blind next)."""
    given = [table["table"] for table in room["tables"]
             if table["seats"] and table["table"] in buttons]
    boxed = [table["table"] for table in room["tables"] if table["seats"]
             and table["table"] not in buttons and table["table"] in boxes]
    drawn = [table["table"] for table in room["tables"] if table["seats"]
             and table["table"] not in buttons and table["table"] not in boxes]
    parts = []
    if given:
        parts.append("yours at %s" % names_text(["table %d" % t for t in given]))
    if boxed:
        parts.append("the boxes' last at %s" % names_text(["table %d" % t for t in boxed]))
    if drawn:
        parts.append("the draw's at %s" % names_text(["table %d" % t for t in drawn]))
    return ("(Who moves is the player due the big blind next, from the buttons: %s%s.)" % (
        " and ".join(parts), "; --button TABLE.SEAT says where one is now" if drawn else ""))


def _plan_league(as_json: bool, compact: bool, apply: bool, yes: bool,
                 buttons: dict[int, int], db: str, number: int | None) -> None:
    """`tdhost plan` with no file: the league's seating."""
    command = "plan"
    tournament = tournament_of(command, read(command, db), number)
    if not tournament.started:
        fail(command, "the tournament has not started: the tables are balanced from the "
                      "start on (`tdhost draw` seats everyone evenly)")
    if tournament.ended:
        fail(command, "tournament %d has finished" % tournament.number)
    try:
        room, result = league_plan(tournament, buttons)
    except (_balance.PlanError, ActionRefused) as err:
        fail(command, str(err))
    if as_json:
        out = result or {"moves": [], "broken": [], "final_table": False}
        echo_json(out, compact)
        return
    echo_lines(plan_lines(tournament, room, result))
    moves = result["moves"] if result and not result["final_table"] else []
    if moves:
        say(buttons_note(room, buttons, sorted(box_buttons(tournament))))
    if not apply:
        if moves:
            say("`tdhost plan --apply` records %s." % these_moves(len(moves)))
        return
    if not moves:
        return
    if not ask("Record %s?" % these_moves(len(moves)), yes):
        declined(command)

    def decide(lg: League, seq: int) -> Decision:
        now_playing = lg.current(number)
        _, again = league_plan(now_playing, buttons)
        if again != result:
            raise ActionRefused("the seating changed while you looked: run `tdhost plan` "
                                "again")
        events: list[NewEvent] = []
        for move in again["moves"] if again else ():
            to = [move["to"]["table"], move["to"]["seat"]]
            _liveplan.refuse_hand_move(now_playing, move["player"], to)  # (serve runs)
            payload = decide_move(now_playing, move["player"], to)
            _reducers.apply(now_playing, "move", payload)
            events.append((now_playing.number, "move", payload, None))
        return events, None
    lg, _ = write(command, db, decide)
    say("Recorded %d move%s: %s." % (len(moves), "" if len(moves) == 1 else "s",
                                      sizes_text(league_room(lg.current(number)))))


COMMANDS = (plan,)
