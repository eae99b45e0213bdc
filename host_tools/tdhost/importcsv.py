"""Players from a CSV file (docs/host.md §12): `tdhost import FILE.csv` shows what each
line would do and every line's error, and registers them with `--apply`.

    name,member,lock
    Ann Lee,M1042,
    Bob Hart,,2.5

Columns (a header line; any case, any order): ``name`` (required), ``member`` (a member id
or yes/no: any id, yes, y, true or 1 makes a league member; blank, no, n, false or 0 does
not), ``lock`` (optional "TABLE.SEAT": the seat is fixed before the draw, e.g. for a player
who cannot move far) and ``reason`` (why; default "from the CSV import").
"""

import copy
import csv
import io

import click

from tdhost import commands as _commands
from tdhost.league import reducers as _reducers, text as _text, times as _times
from tdhost.league.entries import decide_register
from tdhost.league.refusal import ActionRefused
from tdhost.league.seats import decide_lock

COLUMNS = ("name", "member", "lock", "reason")
NO = ("", "no", "n", "false", "0")
MAX_LINES = 1000


def read(text, name="players.csv"):
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
    rows, errors = [], []
    for i, cells in enumerate(lines[1:], 2):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        if len(cells) > len(head):
            errors.append((i, "%d values for %d columns" % (len(cells), len(head))))
            continue
        v = dict(zip(head, [c.strip() for c in cells]))
        if not v.get("name"):
            errors.append((i, "no name"))
            continue
        lock = None
        if v.get("lock"):
            parts = v["lock"].replace(":", ".").replace("/", ".").split(".")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                errors.append((i, "%r is not a seat: give the lock as TABLE.SEAT, e.g. 2.5"
                               % v["lock"]))
                continue
            lock = [int(parts[0]), int(parts[1])]
        rows.append({"line": i, "name": v["name"],
                     "member": v.get("member", "").casefold() not in NO,
                     "lock": lock, "reason": v.get("reason") or "from the CSV import"})
    return rows, errors


def decide(lg, t, rows, seq, when):
    """The events the rows make in tournament *t* (applied to it as they go, so each line
    sees the ones before): (events [(action, payload)], done [(line, sentence)],
    errors [(line, sentence)]); a refused line is an error and changes nothing."""
    evs, done, errors = [], [], []
    for r in rows:
        try:
            p, msg = decide_register(t, r["name"], r["member"], when, lg, seq + len(evs))
            lock = None
            if r["lock"]:
                if p["standby"]:
                    raise ActionRefused("%s would be on the standby list, where a seat cannot be "
                                        "locked" % p["name"])
                trial = copy.deepcopy(t)  # the lock needs the player registered: try it
                _reducers.apply(trial, "register", p)
                lock = decide_lock(trial, p["name"], r["lock"][0], r["lock"][1], r["reason"])
        except ActionRefused as err:
            errors.append((r["line"], str(err)))
            continue
        _reducers.apply(t, "register", p)
        lg.names.setdefault(_text.player_key(p["name"]), p["name"])
        if p["member"]:
            lg.members.add(_text.player_key(p["name"]))
        evs.append(("register", p))
        if lock is not None:
            _reducers.apply(t, "lock", lock)
            evs.append(("lock", lock))
            msg = msg.rstrip(".") + "; locked to %s." % _text.seat_text(
                [lock["table"], lock["seat"]])
        done.append((r["line"], msg))
    return evs, done, errors


def run(path, apply, skip_bad, db, number):
    """`tdhost import`: the preview, the errors, and with *apply* the registrations."""
    fail = _commands.fail
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as err:
        fail("import", "%s cannot be read (%s)" % (path, err.strerror or err))
    except UnicodeDecodeError:
        fail("import", "%s is not UTF-8 text (save it from the spreadsheet as CSV UTF-8)"
             % path)
    rows, bad = read(text, path)
    lg = _commands._read("import", db)
    try:
        t = lg.current(number)
    except ActionRefused as err:
        fail("import", str(err))
    seq = (lg.events[-1].seq if lg.events else 0) + 1
    _, done, refused = decide(lg, t, rows, seq, _times.now())
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

    def write(lg2, seq2):
        t2 = lg2.current(number)
        evs, ok, _ = decide(lg2, t2, rows, seq2, _times.now())
        return [(t2.number, a, p, None) for a, p in evs], ok

    _, ok = _commands._write("import", db, write)
    click.echo("%s %d player%s from %s in one step (`tdhost undo` takes them all back)."
               % (verb, len(ok), "" if len(ok) == 1 else "s", path))


def register(cli):
    """Adds `tdhost import` to the Click group *cli*."""

    @cli.command("import")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option("--apply", is_flag=True, help="Register the players (default: only show "
                                                "what each line would do).")
    @click.option("--skip-bad", is_flag=True, help="With --apply: leave out the lines with "
                                                   "errors instead of refusing the file.")
    @_commands.db_option
    @_commands.tournament_option
    def import_cmd(file, apply, skip_bad, db, number):
        """Register players from a CSV file: name, member (id or yes/no), lock (T.S).

        \b
          name,member,lock
          Ann Lee,M1042,
          Bob Hart,,2.5

        Shows what each line would do and each line's error; --apply registers them in
        one step (one `tdhost undo` takes them back).  See docs/host.md §12.
        """
        run(file, apply, skip_bad, db, number)
