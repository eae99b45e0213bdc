"""The league file's record: `tdhost log` (every TD action in order, undone ones marked),
`tdhost backup` and `tdhost restore`.  docs/host.md §1 and "Backups".
"""

import json
import os
import sqlite3

import click

from tdhost.cli.league_access import open_store, read, tournament_of
from tdhost.cli.options import db_option, league_options, plain_option
from tdhost.cli.output import echo_lines, fail, say, show_table
from tdhost.league import store as _store, transaction
from tdhost.league.text import summary
from tdhost.league.times import clock_time

# the log's "action" column in words (the events' own names stay in `log --json`)
ACTION_WORDS = {
    "new": "new tournament", "standby_take": "standby takes a seat",
    "standby_pass": "standby passes", "clock": "clock", "instr": "instruction to a box",
    "instr_result": "answer from a box", "notice": "notice", "final_seated":
    "final table seated", "hand_for_hand": "hand for hand", "hfh_release": "hand for hand: "
    "deal", "arrive": "arrival", "button": "button at a table", "late": "latecomer",
    "reenter": "re-entry",
    "end": "end on time",
}


@click.command("log")
@click.option("--all", "all_", is_flag=True, help="Every tournament, full times.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per event, with every decision's payload.")
@league_options
@plain_option
def log(all_: bool, as_json: bool, db: str, number: int | None, plain: bool) -> None:
    """The audit log: every TD action, in order, with undone ones marked."""
    lg = read("log", db)
    tournament = None if all_ else tournament_of("log", lg, number)
    if as_json:
        for event in lg.events:
            if tournament is None or event.tournament == tournament.number:
                say(json.dumps({"seq": event.seq, "tournament": event.tournament,
                                "at": event.at, "action": event.action,
                                "payload": event.payload, "undoes": event.undoes,
                                "undone_by": lg.undone.get(event.seq)}, sort_keys=True))
        return
    rows = []
    for event in lg.events:
        if tournament is not None and event.tournament != tournament.number:
            continue
        mark = "undone by #%d" % lg.undone[event.seq] if event.seq in lg.undone else ""
        rows.append([event.seq, event.tournament, clock_time(event.at)
                     if all_ is False else event.at, ACTION_WORDS.get(event.action, event.action),
                     summary(event), mark])
    show_table(["#", "t", "recorded", "action", "what", ""], rows, plain,
               title="Log of %s" % ("the league" if tournament is None
                                    else "tournament %d" % tournament.number))


def _backup_row(path: str) -> list[object]:
    why = _store.check_file(path)
    if why is not None:
        return [os.path.basename(path), "", "", "unusable: %s" % why]
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        count, last = db.execute("SELECT count(*), max(at) FROM events").fetchone()
    finally:
        db.close()
    return [os.path.basename(path), count, last[:19].replace("T", " ") if last else "", "good"]


@click.command("restore")
@click.argument("backup", required=False, type=click.Path(dir_okay=False))
@db_option
@plain_option
def restore(backup: str | None, db: str, plain: bool) -> None:
    """Put a backup of the league file back (no BACKUP: list them, newest first).

    The file it replaces is kept in FILE.backups/ (docs/host.md "Backups")."""
    if backup is None:
        found = _store.backups(db)
        if not found:
            fail("restore", "%s has no backups in %s (they are made at every tdhost serve, "
                            "new, start, level and bust)" % (db, _store.backup_dir(db)))
        show_table(["backup", "events", "last event", ""], [_backup_row(path) for path in found],
                   plain, title="Backups of %s in %s, newest first" % (
                       db, _store.backup_dir(db)))
        good = _store.newest_good_backup(db)
        if good:
            say("`tdhost restore --db %s %s` puts the newest good one back (the file "
                "it replaces is kept)." % (db, good))
        return
    if not os.path.exists(backup) and os.path.exists(
            os.path.join(_store.backup_dir(db), backup)):
        backup = os.path.join(_store.backup_dir(db), backup)
    if os.path.abspath(backup) == os.path.abspath(db):
        fail("restore", "%s is the league file itself: give one of its backups" % backup)
    try:
        kept, count = _store.restore(db, backup)
    except _store.StoreError as err:
        fail("restore", str(err))
    except (OSError, sqlite3.Error) as err:
        fail("restore", "%s could not be restored: %s" % (
            db, getattr(err, "strerror", None) or err))
    lines = ["%s restored from %s: %d events." % (db, backup, count)]
    if kept:
        lines.append("The file it replaced is kept as %s: `tdhost restore --db %s %s` "
                     "brings it back." % (kept, db, kept))
    echo_lines(lines)


@click.command("backup")
@db_option
def backup(db: str) -> None:
    """Write a backup of the league file now (also made at every serve, new, start,
    level and bust)."""
    store = open_store("backup", db)
    try:
        try:
            transaction.replay(store)
        except _store.StoreError as err:
            fail("backup", str(err))
        path = store.backup("td")
    finally:
        store.close()
    if store.damage:
        fail("backup", store.damage)
    if path is None:
        fail("backup", "the backup of %s could not be written in %s"
             % (db, _store.backup_dir(db)))
    say("Backup written: %s." % path)


COMMANDS = (log, backup, restore)
