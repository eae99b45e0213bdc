"""Players from a CSV file: `tdhost import FILE.csv` shows what each line would do and
every line's error, and registers them in one step with `--apply`.  Columns: name
(required), member (a member number or yes/no), lock (TABLE.SEAT), reason; other columns
(an email, a phone) are left out with a note.  A name that may be a player already in
(the same but for accents, a close spelling) is that line's error until the TD says
`--allow-duplicate NAME`; a member number is the player's identity in the league
(tdhost.league.entries.check_member_no).  Each line is read by
itself: a quote left open, a value over the csv module's limit, bytes that are not UTF-8
or a wrong number of values is that line's error, and the lines around it stay whole.
docs/host.md §12.
"""

import copy
import csv
import os
from typing import Any

import click

from tdhost.cli.league_access import read, write
from tdhost.cli.options import league_options
from tdhost.cli.output import fail, say
from tdhost.league import pulled as _pulled, reducers as _reducers
from tdhost.league.entries import decide_register, duplicate_doubt
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.seats import decide_lock
from tdhost.league.text import player_key, quote_name, seat_text
from tdhost.league.times import now
from tdhost.league.tournament import Tournament
from tdhost.league.transaction import Decision

Row = dict[str, Any]

COLUMNS = ("name", "member", "lock", "reason")
NO = ("", "no", "n", "false", "0")
YES = ("yes", "y", "true", "1", "x", "member")
MAX_LINES = 1000
MAX_BYTES = 10 * 10**6  # a players list: 1000 lines of a few columns


def _lines(raw: bytes) -> list[tuple[int, list[str] | None, str]]:
    """Each line of the file as (line number, cells or None, why not): every line is read
    by itself, so a quote left open, a field over the limit or bytes that are not UTF-8
    spoil that line only, never the lines below it (a cell cannot span lines)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a spreadsheet's byte-order mark
    out: list[tuple[int, list[str] | None, str]] = []
    for i, data in enumerate(raw.split(b"\n"), 1):
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError:
            out.append((i, None, "it is not UTF-8 text (save the file from the spreadsheet"
                                 " as CSV UTF-8)"))
            continue
        try:
            cells = next(csv.reader([line.removesuffix("\r")], strict=True), [])
        except csv.Error as err:
            out.append((i, None, _csv_error(str(err))))
            continue
        out.append((i, cells, ""))
    while out and out[-1][1] == []:
        out.pop()  # the empty line after the last newline
    return out


def _csv_error(why: str) -> str:
    """Python's csv error for one line, in words."""
    if "field larger than field limit" in why:
        return "a value is longer than %d characters" % csv.field_size_limit()
    if "unexpected end of data" in why:
        return "a quote (\") is opened and not closed on this line"
    if "expected after" in why:
        return "text follows a closing quote (\") before the next comma"
    if "new-line character" in why:
        return "a value holds a carriage return"
    return "it cannot be read as CSV (%s)" % why


def read_rows(raw: bytes) -> tuple[list[Row], list[tuple[int, str]], list[str]]:
    """(rows, errors, notes) of a players CSV file's bytes: rows [{"line", "name", "member",
    "member_no", "lock": [t, s]|None, "reason"}], errors [(line, sentence)] for the lines
    that cannot be read or used, notes on the columns left out; each line stands alone
    (``_lines``)."""
    lines = _lines(raw)
    if not lines or (lines[0][1] is not None and not any(c.strip() for c in lines[0][1])):
        return [], [(1, "the file is empty: the first line names the columns "
                        "(name, member, lock)")], []
    if lines[0][1] is None:
        return [], [(1, "the first line, the columns' names, cannot be read: %s"
                     % lines[0][2])], []
    head = [" ".join(c.split()).casefold().replace(" id", "").replace(" number", "")
            for c in lines[0][1]]
    unknown = [c for c in head if c not in COLUMNS]
    if "name" not in head:
        return [], [(1, "the first line has no column \"name\" (columns: %s)"
                     % ", ".join(COLUMNS))], []
    notes = ["The column%s %s %s left out (tdhost reads %s)." % (
        "" if len(unknown) == 1 else "s", ", ".join(repr(c) for c in unknown),
        "is" if len(unknown) == 1 else "are", ", ".join(COLUMNS))] if unknown else []
    if len(lines) > MAX_LINES + 1:
        return [], [(MAX_LINES + 2, "the file has more than %d players" % MAX_LINES)], notes
    rows: list[Row] = []
    errors: list[tuple[int, str]] = []
    for i, cells, why in lines[1:]:
        if cells is None:
            errors.append((i, why))
            continue
        if not any(c.strip() for c in cells):
            continue  # a blank line
        if len(cells) != len(head):
            errors.append((i, "%d value%s for %d column%s" % (
                len(cells), "" if len(cells) == 1 else "s", len(head),
                "" if len(head) == 1 else "s")))
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
        member = values.get("member", "")
        rows.append({"line": i, "name": values["name"],
                     "member": member.casefold() not in NO,
                     "member_no": None if member.casefold() in NO + YES else member,
                     "lock": lock, "reason": values.get("reason") or "from the CSV import"})
    return rows, errors, notes


def decide(lg: League, tournament: Tournament, rows: list[Row], seq: int,
           when: Any, known: _pulled.Members, allowed: frozenset[str] = frozenset()
           ) -> tuple[list[tuple[str, Any]], list[tuple[int, str]], list[tuple[int, str]]]:
    """The events the rows make in *tournament* (applied to it as they go, so each line
    sees the ones before): (events [(action, payload)], done [(line, sentence)],
    errors [(line, sentence)]); a refused line is an error and changes nothing, and so is
    a name that may be a player already in, unless its key is in *allowed*.  A league
    member (*known*, as last pulled) goes by the league's spelling."""
    events: list[tuple[str, Any]] = []
    done: list[tuple[int, str]] = []
    errors: list[tuple[int, str]] = []
    for row in rows:
        try:
            name, member = _pulled.league_member(known, lg, row["name"], row["member"],
                                                 row["member_no"])
            payload, msg = decide_register(tournament, name, member, when, lg,
                                           seq + len(events), row["member_no"])
            doubt = duplicate_doubt(tournament, lg, name)
            if doubt and player_key(name) not in allowed:
                raise ActionRefused("%s: `--allow-duplicate %s` registers them as another "
                                    "player" % (doubt, quote_name(payload["name"])))
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
        if payload.get("member_no"):
            lg.note_member_no(payload["name"], payload["member_no"])
        events.append(("register", payload))
        if lock is not None:
            _reducers.apply(tournament, "lock", lock)
            events.append(("lock", lock))
            msg = msg.rstrip(".") + "; locked to %s." % seat_text(
                [lock["table"], lock["seat"]])
        spelled = _pulled.spelling_note(known, row["name"], row["member_no"])
        done.append((row["line"], msg + (" " + spelled if spelled else "")))
    return events, done, errors


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--apply", is_flag=True, help="Register the players (default: only show "
                                            "what each line would do).")
@click.option("--skip-bad", is_flag=True, help="With --apply: leave out the lines with "
                                               "errors instead of refusing the file.")
@click.option("--allow-duplicate", "allow", metavar="NAME", multiple=True,
              help="Register NAME although it may be a player already in (the same but "
                   "for accents, a close spelling); repeat for each.")
@league_options
def import_players(file: str, apply: bool, skip_bad: bool, allow: tuple[str, ...], db: str,
                   number: int | None) -> None:
    """Register players from a CSV file: name, member (number or yes/no), lock (T.S).

    Other columns (an email) are left out with a note.  A name that may be a player
    already in (the same but for accents, a close spelling) is that line's error until
    --allow-duplicate NAME says it is another player.

    \b
      name,member,lock
      Ann Lee,M1042,
      Bob Hart,,2.5

    Shows what each line would do and each line's error; --apply registers them in
    one step (one `tdhost undo` takes them back).  See docs/host.md §12.
    """
    path = file
    try:
        if os.path.getsize(path) > MAX_BYTES:
            fail("import", "%s is larger than %d MB: it is not a players list"
                 % (path, MAX_BYTES // 10**6))
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as err:
        fail("import", "%s cannot be read (%s)" % (path, err.strerror or err))
    rows, bad, notes = read_rows(raw)
    allowed = frozenset(player_key(name) for name in allow)
    lg = read("import", db)
    try:
        tournament = lg.current(number)
    except ActionRefused as err:
        fail("import", str(err))
    seq = (lg.events[-1].seq if lg.events else 0) + 1
    known = _pulled.members(db)  # the league's members, as last pulled (docs/league.md)
    _, done, refused = decide(lg, tournament, rows, seq, now(), known, allowed)
    errors = sorted(bad + refused)
    verb = "Registered" if apply else "Would register"
    if not apply:
        say("What %s would do (nothing is written yet):" % path)
    for note in notes:
        say(note)
    lines = [(line, msg) for line, msg in done] + [
        (line, "not imported: %s." % why.rstrip(".")) for line, why in errors]
    for line, msg in sorted(lines):
        say("%s:%d: %s" % (path, line, msg))
    if not apply:
        if not done:
            how = "there is nobody to import: fix the lines above"
        elif errors:
            how = ("fix the lines above, or `tdhost import %s --apply --skip-bad` registers "
                   "the %d without errors" % (path, len(done)))
        else:
            how = "`tdhost import %s --apply` does it" % path
        say("%s %d player%s; %d line%s with errors. Nothing is written: %s."
            % (verb, len(done), "" if len(done) == 1 else "s", len(errors),
               "" if len(errors) == 1 else "s", how))
        return
    if errors and not skip_bad:
        fail("import", "nothing is imported: fix the %d line%s above, or leave them out "
             "with --skip-bad" % (len(errors), "" if len(errors) == 1 else "s"))
    if not done:
        fail("import", "there is nobody to import in %s" % path)

    def decide_all(now_league: League, now_seq: int) -> Decision:
        now_playing = now_league.current(number)
        events, registered, _ = decide(now_league, now_playing, rows, now_seq, now(), known,
                                          allowed)
        return [(now_playing.number, action, payload, None)
                for action, payload in events], registered

    _, registered = write("import", db, decide_all)
    say("%s %d player%s from %s in one step (`tdhost undo` takes them all back)."
        % (verb, len(registered), "" if len(registered) == 1 else "s", path))


COMMANDS = (import_players,)
