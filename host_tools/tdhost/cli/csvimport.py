"""Players from a CSV file: `tdhost import FILE.csv` shows what each line would do and
every line's error, and registers them in one step with `--apply`.  Columns: name
(required), member (an id or yes/no), lock (TABLE.SEAT), reason.  docs/host.md §12.
"""

import copy
import csv
import io
from typing import Any

import click

from tdhost.cli.league_access import read, write
from tdhost.cli.options import league_options
from tdhost.cli.output import fail
from tdhost.league import reducers as _reducers
from tdhost.league.entries import decide_register
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import decide_lock
from tdhost.league.text import player_key, seat_text
from tdhost.league.times import now
from tdhost.league.tournament import Tournament
from tdhost.league.transaction import Decision

Row = dict[str, Any]

COLUMNS = ("name", "member", "lock", "reason")
NO = ("", "no", "n", "false", "0")
MAX_LINES = 1000


def read_rows(text: str) -> tuple[list[Row], list[tuple[int, str]]]:
    """(rows, errors): rows [{"line", "name", "member", "lock": [t, s]|None, "reason"}],
    errors [(line, sentence)] for lines that cannot be read at all."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a spreadsheet's byte-order mark
    lines = list(csv.reader(io.StringIO(text)))
    if not lines or not any(c.strip() for c in lines[0]):
        return [], [(1, "the file is empty: the first line names the columns "
                        "(name, member, lock)")]
    head = [c.strip().casefold().replace(" id", "") for c in lines[0]]
    unknown = [c for c in head if c not in COLUMNS]
    if unknown or "name" not in head:
        why = ("there is no column %r (columns: %s)" % (unknown[0], ", ".join(COLUMNS))
               if unknown else "the first line has no column \"name\"")
        return [], [(1, why)]
    if len(lines) > MAX_LINES + 1:
        return [], [(MAX_LINES + 2, "the file has more than %d players" % MAX_LINES)]
    rows: list[Row] = []
    errors: list[tuple[int, str]] = []
    for i, cells in enumerate(lines[1:], 2):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        if len(cells) > len(head):
            errors.append((i, "%d values for %d columns" % (len(cells), len(head))))
            continue
        values = dict(zip(head, [cell.strip() for cell in cells]))
        if not values.get("name"):
            errors.append((i, "no name"))
            continue
        lock = None
        if values.get("lock"):
            parts = values["lock"].replace(":", ".").replace("/", ".").split(".")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                errors.append((i, "%r is not a seat: give the lock as TABLE.SEAT, e.g. 2.5"
                               % values["lock"]))
                continue
            lock = [int(parts[0]), int(parts[1])]
        rows.append({"line": i, "name": values["name"],
                     "member": values.get("member", "").casefold() not in NO,
                     "lock": lock, "reason": values.get("reason") or "from the CSV import"})
    return rows, errors


def decide(lg: League, tournament: Tournament, rows: list[Row], seq: int,
           when: Any) -> tuple[list[tuple[str, Any]], list[tuple[int, str]],
                               list[tuple[int, str]]]:
    """The events the rows make in *tournament* (applied to it as they go, so each line
    sees the ones before): (events [(action, payload)], done [(line, sentence)],
    errors [(line, sentence)]); a refused line is an error and changes nothing."""
    events: list[tuple[str, Any]] = []
    done: list[tuple[int, str]] = []
    errors: list[tuple[int, str]] = []
    for row in rows:
        try:
            payload, msg = decide_register(tournament, row["name"], row["member"], when, lg,
                                           seq + len(events))
            lock = None
            if row["lock"]:
                if payload["standby"]:
                    raise ActionRefused("%s would be on the standby list, where a seat cannot be "
                                  "locked" % payload["name"])
                trial = copy.deepcopy(tournament)  # the lock needs the player registered
                _reducers.apply(trial, "register", payload)
                lock = decide_lock(trial, payload["name"], row["lock"][0], row["lock"][1],
                                   row["reason"])
        except ActionRefused as err:
            errors.append((row["line"], str(err)))
            continue
        _reducers.apply(tournament, "register", payload)
        lg.names.setdefault(player_key(payload["name"]), payload["name"])
        if payload["member"]:
            lg.members.add(player_key(payload["name"]))
        events.append(("register", payload))
        if lock is not None:
            _reducers.apply(tournament, "lock", lock)
            events.append(("lock", lock))
            msg = msg.rstrip(".") + "; locked to %s." % seat_text(
                [lock["table"], lock["seat"]])
        done.append((row["line"], msg))
    return events, done, errors


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--apply", is_flag=True, help="Register the players (default: only show "
                                            "what each line would do).")
@click.option("--skip-bad", is_flag=True, help="With --apply: leave out the lines with "
                                               "errors instead of refusing the file.")
@league_options
def import_players(file: str, apply: bool, skip_bad: bool, db: str,
                   number: int | None) -> None:
    """Register players from a CSV file: name, member (id or yes/no), lock (T.S).

    \b
      name,member,lock
      Ann Lee,M1042,
      Bob Hart,,2.5

    Shows what each line would do and each line's error; --apply registers them in
    one step (one `tdhost undo` takes them back).  See docs/host.md §12.
    """
    path = file
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as err:
        fail("import", "%s cannot be read (%s)" % (path, err.strerror or err))
    except UnicodeDecodeError:
        fail("import", "%s is not UTF-8 text (save it from the spreadsheet as CSV UTF-8)"
             % path)
    rows, bad = read_rows(text)
    lg = read("import", db)
    try:
        tournament = lg.current(number)
    except ActionRefused as err:
        fail("import", str(err))
    seq = (lg.events[-1].seq if lg.events else 0) + 1
    _, done, refused = decide(lg, tournament, rows, seq, now())
    errors = sorted(bad + refused)
    verb = "Registered" if apply else "Would register"
    if not apply:
        click.echo("What %s would do (nothing is written yet):" % path)
    lines = [(line, msg) for line, msg in done] + [
        (line, "not imported: %s." % why.rstrip(".")) for line, why in errors]
    for line, msg in sorted(lines):
        click.echo("%s:%d: %s" % (path, line, msg))
    if not apply:
        click.echo("%s %d player%s; %d line%s with errors. Nothing is written: "
                   "`tdhost import %s --apply` does it."
                   % (verb, len(done), "" if len(done) == 1 else "s", len(errors),
                      "" if len(errors) == 1 else "s", path))
        return
    if errors and not skip_bad:
        fail("import", "nothing is imported: fix the %d line%s above, or leave them out "
             "with --skip-bad" % (len(errors), "" if len(errors) == 1 else "s"))
    if not done:
        fail("import", "there is nobody to import in %s" % path)

    def decide_all(now_league: League, now_seq: int) -> Decision:
        now_playing = now_league.current(number)
        events, registered, _ = decide(now_league, now_playing, rows, now_seq, now())
        return [(now_playing.number, action, payload, None)
                for action, payload in events], registered

    _, registered = write("import", db, decide_all)
    click.echo("%s %d player%s from %s in one step (`tdhost undo` takes them all back)."
               % (verb, len(registered), "" if len(registered) == 1 else "s", path))


COMMANDS = (import_players,)
