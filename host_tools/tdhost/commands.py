"""The TD's tournament commands (registered on the `tdhost` Click group by cli.py).

    tdhost new FILE.toml --db league.sqlite     set up a tournament from its file
    tdhost register NAME... [--member]          league members and walk-ins (standby when full)
    tdhost standby [NAME] [--take NAME | --pass NAME] [--seat T.S]
    tdhost lock NAME --table T --seat S         a seat lock before the draw (unlock NAME)
    tdhost draw [--seed N] [--ace8] [--again] [--final]
    tdhost start [--absent NAME]... [--away NAME]...   "shuffle up and deal"
    tdhost level N                              the clock's level N started (now or --at)
    tdhost late NAME [--member] [--seat T.S]    a latecomer
    tdhost arrive NAME                          a registered player not seated at the start
    tdhost bust NAME... [--chips-at-start N]... [--cards C]... [--board B]
    tdhost plan [--apply] [--button T.S]...     the balancing moves in words (cli.py)
    tdhost move NAME T.S                        record a seat change
    tdhost end NAME=CHIPS...                    a time-limited end: rank by chips
    tdhost undo                                 undo the last TD action (a compensating event)
    tdhost log | seats | results [--csv F] | league [--csv F]

Each command that changes anything is one transaction on the league file (tdhost.league.store);
every refusal is one sentence on stderr with exit code 2.  The league file is --db, or
$TDHOST_DB, or league.sqlite in the current directory; the tournament is the latest one
unless --tournament N.  Times default to now; --at HH:MM enters an event after the fact.
A player's name may be typed short or misspelt: ``resolve`` (tdhost.names) takes the one
match after asking (--yes does not ask) and lists several.  docs/host.md §1.
"""

import csv
import json
import os
import secrets
import sqlite3

import click

from tableclock.button import first_positions
from tdhost import (
    livemoney as _livemoney,
    liveplan as _liveplan,
    names as _names,
    tfile,
)
from tdhost.league import (
    checkpoint as _checkpoint,
    reducers as _reducers,
    replay as _replay,
    store as _store,
    text as _text,
    times as _times,
)
from tdhost.league.busts import decide_bust, decide_end
from tdhost.league.entries import (
    absent_deduction,
    decide_arrive,
    decide_late,
    decide_register,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
)
from tdhost.league.play import decide_level, decide_start
from tdhost.league.refusal import ActionRefused
from tdhost.league.seats import decide_draw, decide_lock, decide_move, decide_unlock
from tdhost.league.text import seat_text
from tdhost.league.times import iso, now, parse_when
from tdhost.rules import balance as _balance, draw as _draw, points as _points

try:  # rich tables when installed (requirements-dev.txt pins it); plain text otherwise
    from rich import box as _rich_box
    from rich.console import Console as _Console
    from rich.table import Table as _Table
except ImportError:  # pragma: no cover - depends on the environment
    _Table = None

_FAIL = None


def fail(command, msg):
    msg = msg if msg.endswith((".", "?", "!")) else msg + "."
    _FAIL(command, msg)


# --------------------------------------------------------------------------- options

def db_option(f):
    return click.option("--db", "db", default="league.sqlite", envvar="TDHOST_DB",
                        show_default=True, type=click.Path(dir_okay=False),
                        help="The league file (SQLite); also $TDHOST_DB.")(f)


def tournament_option(f):
    return click.option("--tournament", "-t", "number", type=int, default=None,
                        help="Tournament number (default: the latest).")(f)


def at_option(f):
    return click.option("--at", "at", default=None, metavar="TIME",
                        help="When it happened: HH:MM[:SS] today or an ISO time "
                             "(default: now).")(f)


def plain_option(f):
    return click.option("--plain", is_flag=True, envvar="TDHOST_PLAIN",
                        help="Plain text tables (also $TDHOST_PLAIN=1).")(f)


def yes_option(f):
    return click.option("--yes", "-y", "yes", is_flag=True,
                        help="Do not ask: take a short or misspelt name's one match, "
                             "record a plan's moves.")(f)


def _seat_arg(command, value):
    if value is None:
        return None
    parts = value.replace(":", ".").replace("/", ".").split(".")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        fail(command, "%r is not a seat: give TABLE.SEAT, e.g. 2.5" % value)
    return [int(parts[0]), int(parts[1])]


def _when(command, at):
    ref = now()
    if at is None:
        return ref
    try:
        return parse_when(at, ref)
    except ActionRefused as err:
        fail(command, str(err))


# --------------------------------------------------------------------------- running

def _open(command, db, create=False):
    try:
        return _store.Store(db, create=create)
    except _store.StoreError as err:
        fail(command, str(err))


def append(store, decide, stamp, cache=None):
    """One TD action on an open league file: in one transaction, replay the log and run
    *decide(league, seq)* -> ([(tournament, action, payload, undoes)], result), then append
    those events stamped *stamp* (ISO time).  ActionRefused (from *decide*) writes nothing and
    propagates.  Returns (seqs written, result).  The CLI commands and tdhost.live use it.
    *cache* (tdhost.league.cache.LeagueCache): the league kept in memory instead of a replay,
    brought up to date inside the transaction."""
    if cache is None:
        def inner(_):
            lg = load(store)
            # taken before deciding (a decision may change lg), written if it is not refused
            taken = _checkpoint.take(lg) if _checkpoint.due(lg) else None
            evs, result = decide(lg, lg.count + 1)
            if taken:
                _checkpoint.put(store, taken)
            return [(t, stamp, a, p, u) for t, a, p, u in evs], result
        return store.write(inner, read=False)

    def cached(_):
        lg = cache.league(store)
        taken = None
        if cache.seq - cache.checkpointed(store) > _checkpoint.EVERY:
            taken = cache.take()  # for the CLI's commands meanwhile
        evs, result = decide(lg, lg.count + 1)
        if taken:
            _checkpoint.put(store, taken)
            cache.put(taken)
        if any(a == "register" for _, a, _, _ in evs):
            cache.drop()  # the decision applied them to lg already (tdhost.league.cache)
        return [(t, stamp, a, p, u) for t, a, p, u in evs], result
    try:
        return store.write(cached, read=False)
    except BaseException:
        cache.drop()  # the decision may have changed the league before it refused
        raise


def replay(store):
    """The league of an open league file, its whole log replayed (a check of every event:
    `tdhost backup`, `tdhost serve`); StoreError (one sentence naming the newest good
    backup) when its log cannot be read or replayed -- a damaged file, never a traceback."""
    events = store.events()
    try:
        return _replay.replay(events)
    except Exception as err:  # noqa: BLE001 -- a damaged log may hold anything
        raise _store.StoreError(_store.damaged(store.path, "its log cannot be replayed (%s)"
                                               % (_store.why(err) or type(err).__name__)))


def load(store):
    """The league of an open league file from its checkpoint and the events after it
    (tdhost.league.checkpoint: a command's cost does not grow with the season); StoreError as
    ``replay``'s when what it reads cannot be read or applied."""
    try:
        return _checkpoint.load(store)
    except (_store.StoreError, sqlite3.DatabaseError):
        raise
    except Exception as err:  # noqa: BLE001 -- a damaged log may hold anything
        raise _store.StoreError(_store.damaged(store.path, "its log cannot be replayed (%s)"
                                               % (_store.why(err) or type(err).__name__)))


def _open_for_command(command, db, create=False):
    """The league file, open until the command ends: a league loaded from a checkpoint
    reads its tournaments' nights and its events from it when first used."""
    store = _open(command, db, create)
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return store, True
    ctx.call_on_close(store.close)
    return store, False


def _write(command, db, decide, create=False):
    """Run *decide(league, seq)* -> ([(tournament, action, payload, undoes)], result)
    in one transaction; ActionRefused becomes exit 2, and so does a damaged league file.
    Returns (league after, result)."""
    store, close = _open_for_command(command, db, create)
    stamp = iso(now())
    try:
        try:
            _, result = append(store, decide, stamp)  # its load finds a damaged log first
        except ActionRefused as err:
            fail(command, "refused: %s" % err)
        except _store.StoreError as err:
            fail(command, str(err))
        except sqlite3.DatabaseError as err:
            fail(command, _store.damaged(db, "it is damaged (%s)" % _store.why(err)))
        try:
            lg = load(store)
            if close:
                _checkpoint.read_all(lg)
        except _store.StoreError as err:
            fail(command, str(err))
        return lg, result
    finally:
        if close:
            store.close()


def _read(command, db):
    store, close = _open_for_command(command, db)
    try:
        lg = load(store)
        if close:
            _checkpoint.read_all(lg)
        return lg
    except _store.StoreError as err:
        fail(command, str(err))
    except sqlite3.DatabaseError as err:
        fail(command, _store.damaged(db, "it is damaged (%s)" % _store.why(err)))
    finally:
        if close:
            store.close()


def _tournament(command, lg, number):
    try:
        return lg.current(number)
    except ActionRefused as err:
        fail(command, str(err))


# ---------------------------------------------------------------------------- names

def _ask(question, yes):
    """True when the TD says yes (or gave --yes); no answer (end of input) is a no."""
    if yes:
        return True
    try:
        return click.confirm(question, default=False, err=True)
    except click.Abort:
        click.echo("", err=True)  # no answer: end the question's line
        return False


def _declined(command):
    click.echo("tdhost %s: nothing recorded." % command, err=True)
    click.get_current_context().exit(1)


def resolve(command, t, typed, states):
    """(name, question or None): the player the name *typed* means in tournament *t*
    (tdhost.names): the exact name as is; the one player with it as a whole word or whose
    name (or a word of it) starts with it, or the one close spelling, with the question
    that confirms it; several: refused, listing them.  Players in *states* are looked at
    first, then everyone.  No candidate: *typed* (the decision refuses it)."""
    pool = [e.name for e in t.players.values() if e.state in states]
    how, found = _names.match(typed, pool)
    if how is None:
        how, found = _names.match(typed, [e.name for e in t.players.values()])
    if how is None or how == "exact":
        return (found[0] if found else typed), None
    if len(found) > 1:
        fail(command, "%s could be %s: type more of the name" % (
            typed, _text.names_text(found)))
    return found[0], "%s: %s %s?" % (typed, "do you mean" if how == "prefix"
                                     else "no such name; do you mean", found[0])


def _resolve_all(command, db, number, typed, states, yes, check=None):
    """The full names of *typed* (``resolve``).  Before asking about any of them, each
    must be in *states* and ``check(t, names)`` must not refuse: a command that will be
    refused anyway is refused at once."""
    lg = _read(command, db)
    t = _tournament(command, lg, number)
    found = [resolve(command, t, n, states) for n in typed]
    names = [n for n, _ in found]
    try:
        for n, q in found:
            if q is not None:
                t.need(n, states)
        if check is not None:
            check(t, names)
    except ActionRefused as err:
        fail(command, "refused: %s" % err)
    for _, q in found:
        if q is not None and not _ask(q, yes):
            _declined(command)
    return names


# -------------------------------------------------------------------------- balance

def move_words(name, frm, to):
    """A move as the TD and the dealers say it."""
    return "Move %s: %s \u2192 %s" % (name, seat_text(frm), seat_text(to))


def league_room(t, buttons=None):
    """The plan input (docs/balancing.md) for tournament *t*'s seating now; *buttons*
    {table: seat of the button now}: the blinds follow from it (default: the draw's)."""
    statuses = {}
    seating = t.seating()
    n = t.setup["seats_per_table"]
    for tb, b in (buttons or {}).items():
        if tb not in seating:
            raise ActionRefused("--button %d.%d: nobody plays at table %d" % (tb, b, tb))
        players = sorted(seating.get(tb, {}))
        if len(players) >= 2:
            b, sb, bb = first_positions(b, players, n)
            statuses[tb] = {"button": b, "sb_seat": sb, "bb_seat": bb}
    seed = (t.draw or {}).get("seed", t.number)
    room = _liveplan.room(t, statuses, seed)
    # a table nobody sits at is not in play on the CLI's night (no box to break)
    room["tables"] = [tb for tb in room["tables"] if tb["seats"]]
    return room


def league_plan(t, buttons=None):
    """(room, plan or None): None when fewer than two tables have players.  A seat kept
    for a standby player (tdhost.liveplan.STANDBY) counts as taken; it is nobody to move."""
    room = league_room(t, buttons)
    if sum(1 for tb in room["tables"] if tb["seats"]) < 2:
        return room, None
    result = _balance.plan(room)
    result["moves"] = [m for m in result["moves"]
                       if not m["player"].startswith(_liveplan.STANDBY)]
    return room, result


def sizes_text(room):
    return ", ".join("table %d: %d" % (tb["table"], len(tb["seats"]))
                     for tb in room["tables"] if tb["seats"])


def plan_lines(t, room, result):
    """The plan in words."""
    if result is None:
        return ["Every player is at one table: nothing to balance"]
    if result["final_table"]:
        return ["%d players remain: the final table forms. Draw its seats with `tdhost draw "
                "--final`" % len(t.remaining())]
    lines = ["Table %d breaks" % tb for tb in result["broken"]]
    lines += [move_words(m["player"], [m["from"]["table"], m["from"]["seat"]],
                         [m["to"]["table"], m["to"]["seat"]]) for m in result["moves"]]
    if not lines:
        return ["The tables are balanced (%s): no moves" % sizes_text(room)]
    return ["Players per table now: %s" % sizes_text(room)] + lines


def balance_hint(t):
    """After a bust: a line when the tables are out of balance (or the final table
    forms), saying what to run; None when they are fine."""
    if not t.started or t.ended:
        return None
    try:
        room, result = league_plan(t)
    except _balance.PlanError:  # the plan command says why
        return None
    if result is None:
        return None
    if result["final_table"]:
        return None if t.final else ("%d players remain: the final table forms (`tdhost draw "
                                     "--final` draws its seats)" % len(t.remaining()))
    if not result["moves"] and not result["broken"]:
        return None
    n = len(result["moves"])
    what = "The tables are out of balance"
    if result["broken"]:
        what = "%s break%s" % (_text.names_text(
            ["table %d" % tb for tb in result["broken"]]).capitalize(),
            "s" if len(result["broken"]) == 1 else "")
    return ("%s (%s): `tdhost plan` shows the %d move%s, `tdhost plan --apply` records them"
            % (what, sizes_text(room), n, "" if n == 1 else "s"))


def _buttons(command, values):
    out = {}
    for v in values:
        tb, s = _seat_arg(command, v)
        out[tb] = s
    return out


def format_plan(result):
    """The plan as JSON with one move per line (valid JSON, easy to read and diff)."""
    moves = ",\n".join("    " + json.dumps(m) for m in result["moves"])
    return "\n".join([
        "{",
        '  "moves": [\n%s\n  ],' % moves if moves else '  "moves": [],',
        '  "broken": %s,' % json.dumps(result["broken"]),
        '  "final_table": %s' % json.dumps(result["final_table"]),
        "}",
    ])


def cmd_plan(as_json, compact, apply, yes, buttons, db, number):
    """`tdhost plan` with no file: the league's seating (module notes)."""
    command = "plan"
    buttons = _buttons(command, buttons)
    lg = _read(command, db)
    t = _tournament(command, lg, number)
    if not t.started:
        fail(command, "the tournament has not started: the tables are balanced from the "
                      "start on (`tdhost draw` seats everyone evenly)")
    if t.ended:
        fail(command, "tournament %d has finished" % t.number)
    try:
        room, result = league_plan(t, buttons)
    except (_balance.PlanError, ActionRefused) as err:
        fail(command, str(err))
    if as_json:
        out = result or {"moves": [], "broken": [], "final_table": False}
        click.echo(json.dumps(out) if compact else format_plan(out))
        return
    _echo_lines(plan_lines(t, room, result))
    unknown = [tb["table"] for tb in room["tables"] if tb["seats"] and tb["table"] not in buttons]
    moves = result["moves"] if result and not result["final_table"] else []
    if moves and unknown and not apply:
        click.echo("(Who moves is the player due the big blind next; the button is taken from "
                   "the draw at table%s %s: give --button TABLE.SEAT for where it is now.)" % (
                       "s" if len(unknown) > 1 else "", ", ".join(map(str, unknown))))
    if not apply:
        if moves:
            click.echo("`tdhost plan --apply` records these moves.")
        return
    if not moves:
        return
    if not _ask("Record these %d move%s?" % (len(moves), "" if len(moves) == 1 else "s"), yes):
        _declined(command)

    def decide(lg2, seq):
        t2 = lg2.current(number)
        _, again = league_plan(t2, buttons)
        if again != result:
            raise ActionRefused("the seating changed while you looked: run `tdhost plan` again")
        evs = []
        for m in again["moves"]:
            p = decide_move(t2, m["player"], [m["to"]["table"], m["to"]["seat"]])
            _reducers.apply(t2, "move", p)
            evs.append((t2.number, "move", p, None))
        return evs, None
    lg, _ = _write(command, db, decide)
    t = lg.current(number)
    click.echo("Recorded %d move%s: %s." % (len(moves), "" if len(moves) == 1 else "s",
                                             sizes_text(league_room(t))))


def _echo_lines(lines):
    for line in lines:
        click.echo(line if line.endswith((".", ":", "?")) or not line else line + ".")


def show_table(headers, rows, plain, title=None):
    """A table, with rich when available and wanted, else aligned plain text."""
    rows = [["" if v is None else str(v) for v in r] for r in rows]
    if _Table is not None and not plain:
        table = _Table(title=title, box=_rich_box.SIMPLE_HEAD, title_justify="left")
        for h in headers:
            table.add_column(h)
        for r in rows:
            table.add_row(*r)
        _Console(highlight=False, soft_wrap=True).print(table)
        return
    if title:
        click.echo(title)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    click.echo("  ".join("-" * w for w in widths))
    for r in rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())


# -------------------------------------------------------------------------- commands

def _toml_of(lg, number):
    for ev in lg.events:
        if ev.action == "new" and ev.tournament == number:
            return ev.payload.get("toml")
    return None


def cmd_new(file, db, again=False):
    try:
        setup, text = tfile.load(file)
    except tfile.FileError as err:
        fail("new", str(err))

    def decide(lg, seq):
        if lg.name is not None and lg.name != setup["league"]:
            raise ActionRefused("%s is the league file of %r; %s is for %r" % (
                db, lg.name, file, setup["league"]))
        last = lg.tournaments[max(lg.tournaments)] if lg.tournaments else None
        if last is not None and not again and last.started is None and not last.players \
                and _toml_of(lg, last.number) == text:
            raise ActionRefused("tournament %d was set up from this file a moment ago and nothing "
                                "has happened in it yet: use it (`tdhost new --again` makes "
                                "another)" % last.number)
        number = max(lg.tournaments, default=0) + 1
        payload = {"setup": setup, "file": os.path.basename(file), "toml": text}
        return [(number, "new", payload, None)], number

    lg, number = _write("new", db, decide, create=True)
    s = setup
    late = s["late"]
    lines = ["Tournament %d of %s: %s (%s, profile %s)." % (
        number, s["league"], s["name"], s["date"] or "no date", s["profile"])]
    cap = "up to %d players" % s["max_players"] if s["max_players"] else "no player cap"
    if s["standby"]:
        cap += " and %d on standby" % s["standby"]
    lines.append("%d seats per table, %s, %d chips%s." % (
        s["seats_per_table"], cap, s["starting_stack"], " (deepstack)" if s["deepstack"] else ""))
    if late["until_level"]:
        lines.append("Late entry before level %d%s%s." % (
            late["until_level"], ", with at least %d players" % late["min_players"]
            if late["min_players"] else "",
            "; deductions %s" % "/".join(map(str, late["deductions"]))
            if late["deductions"] else ""))
    else:
        lines.append("No late entry.")
    lines.append("League file: %s." % db)
    _echo_lines(lines)


def cmd_register(names, member, db, number):
    def decide(lg, seq):
        t = lg.current(number)
        evs, out = [], []
        for i, name in enumerate(names):
            p, msg = decide_register(t, name, member, now(), lg, seq + i)
            _reducers.apply(t, "register", p)  # the next name sees this one
            lg.names.setdefault(_text.player_key(p["name"]), p["name"])
            if p["member"]:
                lg.members.add(_text.player_key(p["name"]))
            evs.append((t.number, "register", p, None))
            out.append(msg)
        return evs, out

    _, out = _write("register", db, decide)
    _echo_lines(out)



def cmd_standby(name, member, take, pass_, seat, at, db, number, plain, yes=False):
    command = "standby"
    if sum(x is not None for x in (name, take, pass_)) > 1:
        fail(command, "give one of NAME, --take NAME and --pass NAME")
    seat = _seat_arg(command, seat)
    if take is not None:
        take = _resolve_all(command, db, number, [take], ("standby",), yes)[0]
    if pass_ is not None:
        pass_ = _resolve_all(command, db, number, [pass_], ("standby",), yes)[0]
    if seat and not take:
        fail(command, "--seat goes with --take NAME")
    when = _when(command, at)
    if name is not None:
        def decide(lg, seq):
            t = lg.current(number)
            p, msg = decide_standby_add(t, name, member, lg)
            return [(t.number, "register", p, None)], [msg]
        _, out = _write(command, db, decide)
        _echo_lines(out)
        return
    if take is not None:
        def decide(lg, seq):
            t = lg.current(number)
            p = decide_standby_take(t, take, when, seat)
            return [(t.number, "standby_take", p, None)], p
        _, p = _write(command, db, decide)
        _echo_lines(["%s takes %s with %d chips%s." % (
            p["name"], seat_text(p["seat"]), p["stack"],
            " and posts a dead big blind to enter" if p["dead_bb"] else "")] + p["reasons"])
        return
    if pass_ is not None:
        def decide(lg, seq):
            t = lg.current(number)
            p = decide_standby_pass(t, pass_)
            return [(t.number, "standby_pass", p, None)], p
        lg, p = _write(command, db, decide)
        t = lg.current(number)
        nxt = [k for o, k in t.offer_pairs() if o["seat"] == p["offer"]]
        _echo_lines(["%s is not available for %s." % (p["name"], seat_text(p["offer"])),
                     "The seat is offered to %s." % t.players[nxt[0]].name if nxt and nxt[0]
                     else "No other standby player is left for the seat."])
        return
    lg = _read(command, db)
    t = _tournament(command, lg, number)
    offers = {k: o for o, k in t.offer_pairs() if k}
    rows = [[i, t.players[k].name, "member" if t.players[k].member else "",
             "offered %s" % seat_text(offers[k]["seat"]) if k in offers else ""]
            for i, k in enumerate(t.standby, 1)]
    show_table(["#", "standby", "member", "offer"], rows, plain,
               title="Standby list, tournament %d (%d of %d)" % (
                   t.number, len(t.standby), t.setup["standby"]))
    for o, k in t.offer_pairs():
        if k is None:
            click.echo("%s (freed by %s): no standby player left to offer it to."
                       % (seat_text(o["seat"]).capitalize(), o["freed_by"]))


def cmd_lock(name, table, seat, reason, db, number, yes=False):
    name = _resolve_all("lock", db, number, [name], ("registered",), yes,
                        lambda t, n: decide_lock(t, n[0], table, seat, reason))[0]

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_lock(t, name, table, seat, reason)
        return [(t.number, "lock", p, None)], p
    lg, p = _write("lock", db, decide)
    click.echo("%s is locked to table %d seat %d (%s)." % (p["name"], p["table"], p["seat"],
                                                           p["reason"]))
    t = lg.current(number)
    n = t.setup["seats_per_table"]
    players = len(t.entries("registered"))
    tables = _draw.table_count(players, n)
    if p["table"] > tables:
        click.echo("Table %d is not in the draw yet: %d registered player%s fill %d table%s; "
                   "it is drawn from %d players on (the draw refuses the lock until then)."
                   % (p["table"], players, "" if players == 1 else "s", tables,
                      "" if tables == 1 else "s", (p["table"] - 1) * n + 1))


def cmd_unlock(name, db, number, yes=False):
    name = _resolve_all("unlock", db, number, [name], ("registered",), yes,
                        lambda t, n: decide_unlock(t, n[0]))[0]

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_unlock(t, name)
        return [(t.number, "unlock", p, None)], p
    _, p = _write("unlock", db, decide)
    click.echo("%s is no longer locked to table %d seat %d: the draw seats them at random."
               % (p["name"], p["table"], p["seat"]))


def cmd_draw(seed, ace8, again, final, db, number, plain):
    if seed is None:
        seed = secrets.randbelow(10**9)

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_draw(t, seed, ace8, again, final)
        return [(t.number, "draw", p, None)], p
    lg, p = _write("draw", db, decide)
    show_draw(p, plain)


def show_draw(p, plain):
    by_table = {}
    for name, (t, s) in p["seats"].items():
        by_table.setdefault(t, []).append((s, name))
    for t in sorted(by_table):
        info = p["tables"][str(t)]
        cards = info.get("cards") or info.get("high_cards") or {}
        rows = []
        for s, name in sorted(by_table[t]):
            rows.append([s, name, cards.get(name, ""),
                         "deals (button)" if s == info["button"] else ""])
        show_table(["seat", "player", "card", ""], rows, plain,
                   title="%sTable %d" % ("Final table: " if p["final"] else "", t))
        if info.get("card_map"):
            click.echo("Ace-8 cards at table %d: %s; the lowest card deals." % (t, ", ".join(
                "%s -> seat %d" % (c, s) for c, s in info["card_map"].items())))
    click.echo("%s draw, seed %s (`tdhost draw --again --seed %s%s` repeats it)." % (
        p["mode"], p["seed"], p["seed"], " --final" if p["final"] else ""))


def cmd_start(absent, away, at, db, number, yes=False):
    when = _when("start", at)
    if absent or away:
        absent = _resolve_all("start", db, number, absent, ("registered",), yes)
        away = _resolve_all("start", db, number, away, ("registered",), yes)

    def decide(lg, seq):
        t = lg.current(number)
        p, notes = decide_start(t, when, absent, away)
        return [(t.number, "start", p, None)], (p, notes)
    lg, (p, notes) = _write("start", db, decide)
    t = lg.current(number)
    _echo_lines(["Shuffle up and deal at %s: %d players in, %d started on time." % (
        when.strftime("%H:%M:%S"), len(t.remaining()), p["started_on_time"])] + notes)


def cmd_level(level, at, db, number):
    when = _when("level", at)

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_level(t, level, when)
        return [(t.number, "level", p, None)], p
    _write("level", db, decide)
    click.echo("Level %d started at %s." % (level, when.strftime("%H:%M:%S")))


def cmd_late(name, member, seat, at, db, number):
    when = _when("late", at)
    seat = _seat_arg("late", seat)

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_late(t, name, member, when, lg, seq, seat)
        return [(t.number, "late", p, None)], p
    _, p = _write("late", db, decide)
    _echo_lines(["%s may join: %s." % (p["name"], "; ".join(p["reasons"])),
                 "%s: %d chips at %s%s." % (p["name"], p["stack"], seat_text(p["seat"]),
                                            ", post a dead big blind to enter"
                                            if p["dead_bb"] else "")])


def cmd_arrive(name, at, db, number, yes=False):
    when = _when("arrive", at)
    name = _resolve_all("arrive", db, number, [name], ("in",), yes)[0]

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_arrive(t, name, when)
        return [(t.number, "arrive", p, None)], p
    lg, p = _write("arrive", db, decide)
    e = lg.current(number).get(p["name"])
    _echo_lines(["%s takes %s: %s." % (p["name"], seat_text(e.seat), p["reason"]),
                 "Remove %d chips from %s's stack." % (p["deduction"], p["name"])
                 if p["deduction"] else ""])


def _pairs(command, names, values, what):
    """Values of a repeated option: NAME=VALUE anywhere, or one per NAME in order."""
    out = {}
    plain = [v for v in values if "=" not in v]
    if plain and len(plain) != len(values):
        fail(command, "give every %s as NAME=VALUE or none of them" % what)
    if plain:
        if len(plain) != len(names):
            fail(command, "%d players and %d %s: give one per player, in the same order, "
                          "or NAME=VALUE" % (len(names), len(plain), what))
        return dict(zip(names, plain))
    for v in values:
        k, _, x = v.partition("=")
        out[k.strip()] = x.strip()
    return out


def cmd_bust(names, chips, cards, board, at, db, number, yes=False):
    command = "bust"
    when = _when(command, at)
    full = _resolve_all(command, db, number, names, ("in",), yes)
    typed = dict(zip(names, full))
    chip_map = {}
    for k, v in _pairs(command, names, chips, "--chips-at-start").items():
        if not v.isdigit():
            fail(command, "--chips-at-start %r is not a whole number of chips" % v)
        chip_map[typed.get(k, k)] = int(v)
    card_map = {typed.get(k, k): v for k, v in _pairs(command, names, cards, "--cards").items()}
    for m in (chip_map, card_map):  # NAME=VALUE with another short form of a busted name
        for k in [k for k in m if k not in full]:
            how, found = _names.match(k, full)
            if how is not None and len(found) == 1:
                m[found[0]] = m.pop(k)
    names = full

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_bust(t, list(names), chip_map, card_map, board, when, lg)
        return [(t.number, "bust", p, None)], p
    lg, p = _write(command, db, decide)
    t = lg.current(number)
    n = len(t.entrants())
    lines = []
    for tier in reversed(p["tiers"]):
        for name in tier:
            lines.append("%s is out: %s of %d." % (name, t.place_of(name), n))
    lines += p["reasons"]
    for seat, freed in p["offers"]:
        pair = [k for o, k in t.offer_pairs() if o["seat"] == seat]
        if pair and pair[0]:
            lines.append("%s's seat (%s) is offered to standby player %s: `tdhost standby "
                         "--take %s` or `--pass %s`" % (
                             freed, seat_text(seat), t.players[pair[0]].name,
                             _q(t.players[pair[0]].name), _q(t.players[pair[0]].name)))
    if t.ended:
        lines.append("%s wins tournament %d." % (t.ended["tiers"][0][0], t.number))
    else:
        lines.append("%d players remain." % len(t.remaining()))
        lines.append(balance_hint(t) or "")
    _echo_lines([line for line in lines if line])


def _q(name):
    return '"%s"' % name if " " in name else name


def cmd_move(name, seat, db, number, yes=False):
    seat = _seat_arg("move", seat)
    name = _resolve_all("move", db, number, [name], ("in",), yes)[0]

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_move(t, name, seat)
        return [(t.number, "move", p, None)], p
    lg, p = _write("move", db, decide)
    click.echo("%s." % move_words(p["name"], p["from"], p["seat"]))


def cmd_end(stacks, at, db, number, yes=False):
    when = _when("end", at)
    chips = {}
    for s in stacks:
        k, sep, v = s.partition("=")
        if not sep or not v.strip().isdigit():
            fail("end", "%r is not NAME=CHIPS" % s)
        chips[k.strip()] = int(v)
    full = _resolve_all("end", db, number, list(chips), ("in",), yes)
    chips = dict(zip(full, chips.values()))

    def decide(lg, seq):
        t = lg.current(number)
        p = decide_end(t, chips, when)
        return [(t.number, "end", p, None)], p
    lg, p = _write("end", db, decide)
    t = lg.current(number)
    click.echo("Tournament %d ends on time at %s; the most chips wins." % (
        t.number, when.strftime("%H:%M:%S")))
    for names, first, last in t.ranking()[:len(p["tiers"])]:
        for name in names:
            c = p["chips"][name]
            click.echo("%s %s (%d chip%s)." % (_text.place_text(first, last), name, c,
                                              "" if c == 1 else "s"))


def cmd_undo(db, number):
    def decide(lg, seq):
        t = lg.current(number)
        evs = lg.last_action(t.number)
        if not evs:
            raise ActionRefused("there is nothing to undo in tournament %d" % t.number)
        out = [(t.number, "undo", {"action": ev.action, "summary": _text.summary(ev)},
                ev.seq) for ev in reversed(evs)]
        return out, ["#%d: %s" % (ev.seq, _text.summary(ev)) for ev in evs]
    _, lines = _write("undo", db, decide)
    _echo_lines(["Undone %s" % line for line in lines])


# the log's "action" column in words (the events' own names stay in `log --json`)
ACTION_WORDS = {
    "new": "new tournament", "standby_take": "standby takes a seat",
    "standby_pass": "standby passes", "clock": "clock", "instr": "instruction to a box",
    "instr_result": "answer from a box", "notice": "notice", "final_seated":
    "final table seated", "hand_for_hand": "hand for hand", "hfh_release": "hand for hand: "
    "deal", "arrive": "arrival", "late": "latecomer", "end": "end on time",
}


def cmd_log(all_, as_json, db, number, plain):
    lg = _read("log", db)
    t = None if all_ else _tournament("log", lg, number)
    if as_json:
        for ev in lg.events:
            if t is None or ev.tournament == t.number:
                click.echo(json.dumps({"seq": ev.seq, "tournament": ev.tournament,
                                       "at": ev.at, "action": ev.action,
                                       "payload": ev.payload, "undoes": ev.undoes,
                                       "undone_by": lg.undone.get(ev.seq)}, sort_keys=True))
        return
    rows = []
    for ev in lg.events:
        if t is not None and ev.tournament != t.number:
            continue
        mark = "undone by #%d" % lg.undone[ev.seq] if ev.seq in lg.undone else ""
        rows.append([ev.seq, ev.tournament, _times.clock_time(ev.at) if all_ is False
                     else ev.at, ACTION_WORDS.get(ev.action, ev.action),
                     _text.summary(ev), mark])
    show_table(["#", "t", "recorded", "action", "what", ""], rows, plain,
               title="Log of %s" % ("the league" if t is None else "tournament %d" % t.number))


def cmd_seats(db, number, plain):
    lg = _read("seats", db)
    t = _tournament("seats", lg, number)
    when = now()
    head = "Tournament %d: %s (%s)" % (t.number, t.setup["name"], t.setup["profile"])
    if t.started:
        level, clock = t.level_at(when)
        head += ", level %d%s, %d players in" % (level, " (break)" if clock.on_break() else "",
                                                  len(t.remaining()))
    rows = []
    for e in t.players.values():
        if e.state not in ("registered", "in"):
            continue
        note = ""
        if e.absent == "awol":
            ded, _, why = absent_deduction(t, when)
            note = "not seated: remove %d chips now" % ded if ded else "not seated"
        elif e.absent == "away":
            note = "away (known whereabouts)"
        rows.append([e.seat[0] if e.seat else "", e.seat[1] if e.seat else "", e.name,
                     e.stack - e.deducted if e.stack else "", note])
    rows.sort(key=lambda r: (r[0] or 10**6, r[1] or 0))
    show_table(["table", "seat", "player", "chips at entry", ""], rows, plain, title=head)


def _write_json(command, path, obj):
    """*obj* as a JSON file (UTF-8, indented): `--json FILE` of results and league."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(obj, f, ensure_ascii=False, indent=2)
            f.write("\n")
    except OSError as err:
        fail(command, "%s cannot be written (%s)" % (path, err.strerror or err))
    click.echo("Written to %s." % path)


def cmd_results(csv_file, db, number, plain, json_file=None):
    lg = _read("results", db)
    t = _tournament("results", lg, number)
    rows = t.results()
    fields = ["place", "name", "member", "entry", "points"]
    # a tournament with money: what each player won (docs/host.md §11)
    prize = _livemoney.prizes(t, int(_times.now().timestamp() * 1000)) \
        if t.setup.get("money") else None
    if prize is not None:
        fields.append("prize")
    extra = (lambda r: [prize.get(r["name"], "")]) if prize is not None else (lambda r: [])
    if csv_file:
        _write_csv("results", csv_file, fields, [
            [r["place"], r["name"], "yes" if r["member"] else "no", r["entry"],
             "" if r["points"] is None else r["points"]] + extra(r) for r in rows])
    status = "final" if t.ended else "so far, %d players in" % len(t.remaining())
    show_table(fields, [[r["place"], r["name"], "yes" if r["member"] else "", r["entry"],
                         _points.points_text(r["points"]) if r["points"] is not None else ""]
                        + extra(r) for r in rows], plain,
               title="Results of tournament %d, %s (%s; %d entries)" % (
                   t.number, t.setup["name"], status, len(t.entrants())))
    if csv_file:
        click.echo("Written to %s." % csv_file)
    if json_file:
        _write_json("results", json_file, {
            "league": lg.name, "tournament": t.number, "name": t.setup["name"],
            "date": t.setup["date"], "profile": t.setup["profile"],
            "finished": bool(t.ended), "entries": len(t.entrants()),
            "results": [dict({"place": r["first"], "place_text": r["place"],
                              "name": r["name"], "member": r["member"],
                              "entry": r["entry"], "points": r["points"]},
                             **({"prize": prize.get(r["name"])} if prize is not None
                                else {})) for r in rows]})


def _write_csv(command, path, fields, rows):
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(fields)
            w.writerows(rows)
    except OSError as err:
        fail(command, "%s cannot be written (%s)" % (path, err.strerror or err))


def cmd_league(csv_file, members, db, plain, json_file=None):
    lg = _read("league", db)
    rows = lg.standings()
    if members:
        rows = [r for r in rows if r["member"]]
    fields = ["rank", "name", "member", "events", "wins", "best", "points"]
    if csv_file:
        _write_csv("league", csv_file, fields, [
            [r["rank"], r["name"], "yes" if r["member"] else "no", r["events"], r["wins"],
             r["best"], _points.points_text(r["points"])] for r in rows])
    done = lg.finished()
    show_table(fields, [[r["rank"], r["name"], "yes" if r["member"] else "", r["events"],
                         r["wins"], _text.ordinal(r["best"]), _points.points_text(r["points"])]
                        for r in rows], plain,
               title="%s leaderboard after %d tournament%s" % (
                   lg.name or "League", len(done), "" if len(done) == 1 else "s"))
    if csv_file:
        click.echo("Written to %s." % csv_file)
    if json_file:
        _write_json("league", json_file, {
            "league": lg.name, "tournaments": len(done), "members_only": bool(members),
            "standings": [{k: r[k] for k in ("rank", "name", "member", "events", "wins",
                                             "best", "points")} for r in rows]})


def _backup_row(path):
    why = _store.check_file(path)
    if why is not None:
        return [os.path.basename(path), "", "", "unusable: %s" % why]
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        n, last = db.execute("SELECT count(*), max(at) FROM events").fetchone()
    finally:
        db.close()
    return [os.path.basename(path), n, last[:19].replace("T", " ") if last else "", "good"]


def cmd_restore(backup, db, plain):
    if backup is None:
        found = _store.backups(db)
        if not found:
            fail("restore", "%s has no backups in %s (they are made at every tdhost serve, "
                            "new, start, level and bust)" % (db, _store.backup_dir(db)))
        show_table(["backup", "events", "last event", ""], [_backup_row(b) for b in found],
                   plain, title="Backups of %s in %s, newest first" % (
                       db, _store.backup_dir(db)))
        good = _store.newest_good_backup(db)
        if good:
            click.echo("`tdhost restore --db %s %s` puts the newest good one back (the file "
                       "it replaces is kept)." % (db, good))
        return
    if not os.path.exists(backup) and os.path.exists(
            os.path.join(_store.backup_dir(db), backup)):
        backup = os.path.join(_store.backup_dir(db), backup)
    if os.path.abspath(backup) == os.path.abspath(db):
        fail("restore", "%s is the league file itself: give one of its backups" % backup)
    try:
        kept, n = _store.restore(db, backup)
    except _store.StoreError as err:
        fail("restore", str(err))
    except (OSError, sqlite3.Error) as err:
        fail("restore", "%s could not be restored: %s" % (
            db, getattr(err, "strerror", None) or err))
    lines = ["%s restored from %s: %d events." % (db, backup, n)]
    if kept:
        lines.append("The file it replaced is kept as %s: `tdhost restore --db %s %s` "
                     "brings it back." % (kept, db, kept))
    _echo_lines(lines)


def cmd_backup(db):
    store = _open("backup", db)
    try:
        try:
            replay(store)
        except _store.StoreError as err:
            fail("backup", str(err))
        path = store.backup("td")
    finally:
        store.close()
    if path is None:
        fail("backup", "the backup of %s could not be written in %s"
             % (db, _store.backup_dir(db)))
    click.echo("Backup written: %s." % path)


# ------------------------------------------------------------------------- register

def register(cli, fail_fn):
    """Add the commands to the Click group *cli*; *fail_fn(command, msg)* exits 2."""
    global _FAIL
    _FAIL = fail_fn

    @cli.command("new")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option("--again", is_flag=True,
                  help="Set up another tournament from the same file even if the last one "
                       "from it has not started.")
    @db_option
    def new(file, again, db):
        """Set up a tournament from FILE (TOML) in the league file (created if missing)."""
        cmd_new(file, db, again)

    @cli.command("register")
    @click.argument("names", nargs=-1, required=True)
    @click.option("--member", is_flag=True, help="League member (kept for later events).")
    @db_option
    @tournament_option
    def register_(names, member, db, number):
        """Register players (NAME...); past the cap they go on the standby list."""
        cmd_register(names, member, db, number)

    @cli.command("standby")
    @click.argument("name", required=False)
    @click.option("--member", is_flag=True, help="With NAME: a league member.")
    @click.option("--take", metavar="NAME", default=None,
                  help="NAME takes the seat offered to them.")
    @click.option("--pass", "pass_", metavar="NAME", default=None,
                  help="NAME is not available: offer the seat to the next standby player.")
    @click.option("--seat", default=None, metavar="T.S",
                  help="With --take: the seat the TD directs (default: the freed seat).")
    @at_option
    @db_option
    @tournament_option
    @plain_option
    @yes_option
    def standby(name, member, take, pass_, seat, at, db, number, plain, yes):
        """Show the standby list and seat offers; NAME adds a player to the list."""
        cmd_standby(name, member, take, pass_, seat, at, db, number, plain, yes)

    @cli.command("lock")
    @click.argument("name")
    @click.option("--table", type=click.IntRange(1), required=True,
                  help="The table (at most the tables max_players fills).")
    @click.option("--seat", type=int, required=True, help="The seat at that table.")
    @click.option("--reason", default="TD", show_default=True,
                  help="Why, e.g. accessibility.")
    @db_option
    @tournament_option
    @yes_option
    def lock(name, table, seat, reason, db, number, yes):
        """Lock a registered player's seat for the draw (accessibility, the TD).

        The table must be one the tournament can have (max_players); one the players
        registered now do not fill yet is accepted with a warning."""
        cmd_lock(name, table, seat, reason, db, number, yes)

    @cli.command("unlock")
    @click.argument("name")
    @db_option
    @tournament_option
    @yes_option
    def unlock(name, db, number, yes):
        """Take back NAME's seat lock (before the start; draw again to use it)."""
        cmd_unlock(name, db, number, yes)

    @cli.command("draw")
    @click.option("--seed", type=click.IntRange(0), default=None,
                  help="Seed of the draw (default: a random one, printed and logged).")
    @click.option("--ace8", is_flag=True, help="LPPL's Ace-8 card draw at each table.")
    @click.option("--again", is_flag=True, help="Replace an earlier draw.")
    @click.option("--final", is_flag=True, help="The final-table redraw.")
    @db_option
    @tournament_option
    @plain_option
    def draw(seed, ace8, again, final, db, number, plain):
        """Draw the seats (random and reproducible from the seed)."""
        cmd_draw(seed, ace8, again, final, db, number, plain)

    @cli.command("start")
    @click.option("--absent", multiple=True, metavar="NAME",
                  help="Not seated, whereabouts unknown (LPPL: chips removed, or replaced "
                       "by a standby player).")
    @click.option("--away", multiple=True, metavar="NAME",
                  help="Not seated, whereabouts known (bar, toilets): blinds only.")
    @at_option
    @db_option
    @tournament_option
    @yes_option
    def start(absent, away, at, db, number, yes):
        """Shuffle up and deal: the tournament starts."""
        cmd_start(absent, away, at, db, number, yes)

    @cli.command("level")
    @click.argument("level", type=click.IntRange(1))
    @at_option
    @db_option
    @tournament_option
    def level(level, at, db, number):
        """The clock's level LEVEL started (keeps the host's clock with the room's)."""
        cmd_level(level, at, db, number)

    @cli.command("late")
    @click.argument("name")
    @click.option("--member", is_flag=True, help="League member.")
    @click.option("--seat", default=None, metavar="T.S", help="The seat (default: drawn).")
    @at_option
    @db_option
    @tournament_option
    def late(name, member, seat, at, db, number):
        """A latecomer asks to join: the decision, the stack and the seat."""
        cmd_late(name, member, seat, at, db, number)

    @cli.command("arrive")
    @click.argument("name")
    @at_option
    @db_option
    @tournament_option
    @yes_option
    def arrive(name, at, db, number, yes):
        """A registered player who was not seated at the start takes the seat."""
        cmd_arrive(name, at, db, number, yes)

    @cli.command("bust")
    @click.argument("names", nargs=-1, required=True)
    @click.option("--chips-at-start", "chips", multiple=True, metavar="N",
                  help="Chips at the start of the hand, one per NAME (or NAME=N).")
    @click.option("--cards", multiple=True, metavar="CARDS",
                  help='Hole cards, one per NAME (or NAME=CARDS), e.g. "As Kd".')
    @click.option("--board", default=None, help='The board, e.g. "Ah 7d 2c 9s Tc".')
    @at_option
    @db_option
    @tournament_option
    @yes_option
    def bust(names, chips, cards, board, at, db, number, yes):
        """Eliminations: one NAME, or several who went out in the same hand.

        A NAME may be the start of a name ("Yan" for Yan Irons) or a close spelling: it
        asks first.  After the bust it says when the tables are out of balance."""
        cmd_bust(names, chips, cards, board, at, db, number, yes)

    @cli.command("move")
    @click.argument("name")
    @click.argument("seat", metavar="T.S")
    @db_option
    @tournament_option
    @yes_option
    def move(name, seat, db, number, yes):
        """Record that NAME now sits at table T seat S (`tdhost plan --apply` records a
        whole plan)."""
        cmd_move(name, seat, db, number, yes)

    @cli.command("end")
    @click.argument("stacks", nargs=-1, required=True, metavar="NAME=CHIPS...")
    @at_option
    @db_option
    @tournament_option
    @yes_option
    def end(stacks, at, db, number, yes):
        """A time-limited end: the players still in are ranked by chips."""
        cmd_end(stacks, at, db, number, yes)

    @cli.command("undo")
    @db_option
    @tournament_option
    def undo(db, number):
        """Undo the last TD action of the tournament (a compensating event)."""
        cmd_undo(db, number)

    @cli.command("log")
    @click.option("--all", "all_", is_flag=True, help="Every tournament, full times.")
    @click.option("--json", "as_json", is_flag=True,
                  help="One JSON object per event, with every decision's payload.")
    @db_option
    @tournament_option
    @plain_option
    def log(all_, as_json, db, number, plain):
        """The audit log: every TD action, in order, with undone ones marked."""
        cmd_log(all_, as_json, db, number, plain)

    @cli.command("seats")
    @db_option
    @tournament_option
    @plain_option
    def seats(db, number, plain):
        """Who sits where; players not seated and the chips due from them."""
        cmd_seats(db, number, plain)

    @cli.command("results")
    @click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None,
                  help="Also write the results to this CSV file.")
    @click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
                  help="Also write the results to this JSON file.")
    @db_option
    @tournament_option
    @plain_option
    def results(csv_file, json_file, db, number, plain):
        """Finishing order and points."""
        cmd_results(csv_file, db, number, plain, json_file)

    @cli.command("restore")
    @click.argument("backup", required=False, type=click.Path(dir_okay=False))
    @db_option
    @plain_option
    def restore_(backup, db, plain):
        """Put a backup of the league file back (no BACKUP: list them, newest first).

        The file it replaces is kept in FILE.backups/ (docs/host.md "Backups")."""
        cmd_restore(backup, db, plain)

    @cli.command("backup")
    @db_option
    def backup_(db):
        """Write a backup of the league file now (also made at every serve, new, start,
        level and bust)."""
        cmd_backup(db)

    @cli.command("league")
    @click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None,
                  help="Also write the leaderboard to this CSV file.")
    @click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
                  help="Also write the leaderboard to this JSON file.")
    @click.option("--members", is_flag=True, help="League members only.")
    @db_option
    @plain_option
    def league(csv_file, json_file, members, db, plain):
        """The league leaderboard over every finished tournament."""
        cmd_league(csv_file, members, db, plain, json_file)
