"""A command's use of the league file: open it, read the league, record one TD action in
one transaction (tdhost.league.transaction), with every refusal and a file that cannot be
used said in one sentence and exit code 2: read-only, the disk full, locked, or damaged
(tdhost.league.store.unusable).  Reading commands open the file only to read.  The file
is --db, or $TDHOST_DB; the tournament the latest unless --tournament.  docs/host.md §1
and §3.
"""

import sqlite3
from typing import Any

import click

from tdhost.cli.output import fail, say
from tdhost.league import checkpoint as _checkpoint, store as _store, transaction
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.times import iso, now
from tdhost.league.tournament import Tournament


def open_store(command: str, db: str, create: bool = False,
               readonly: bool = False) -> _store.Store:
    """The league file, open (only to read: *readonly*); a missing or unusable one refused."""
    try:
        return _store.Store(db, create=create, readonly=readonly)
    except _store.StoreError as err:
        fail(command, str(err))


def _open_for_command(command: str, db: str, create: bool = False,
                      readonly: bool = False) -> tuple[_store.Store, bool]:
    """The league file, open until the command ends (True: the caller closes it): a league
    loaded from a checkpoint reads its tournaments' nights and events from it when used."""
    store = open_store(command, db, create, readonly)
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return store, True
    ctx.call_on_close(store.close)
    return store, False


STAMPED = frozenset(("register", "unregister", "lock", "unlock", "draw", "start", "level",
                     "late", "arrive", "standby_take", "standby_pass", "move", "bust", "end"))
"""The TD's actions the CLI writes, stamped ``"by": "cli"`` so the console's log says who
did what (the console's are ``"td"``, a box's ``"box"``, the dealers' ``"boxes"``)."""


def write(command: str, db: str, decide: transaction.Decide,
          create: bool = False) -> tuple[League, Any]:
    """Run *decide(league, seq)* -> ([(tournament, action, payload, undoes)], result)
    in one transaction; ActionRefused becomes exit 2, and so does a damaged league file.
    Returns (league after, result)."""
    store, close = _open_for_command(command, db, create)
    stamp = iso(now())

    def by_the_cli(lg: League, seq: int) -> Any:
        events, result = decide(lg, seq)
        for _, action, payload, _ in events:
            if action in STAMPED and isinstance(payload, dict):
                payload.setdefault("by", "cli")
        return events, result
    try:
        try:
            _, result = transaction.append(store, by_the_cli, stamp)  # its load finds damage first
        except ActionRefused as err:
            fail(command, "refused: %s" % err)
        except _store.StoreError as err:
            fail(command, str(err))
        except sqlite3.DatabaseError as err:  # read-only, the disk full, locked, damaged
            fail(command, _store.unusable(db, err))
        if store.damage:  # recorded, but the backup after it found the file damaged
            say("Warning: %s" % store.damage, err=True)
        try:
            lg = transaction.load(store)
            if close:
                _checkpoint.read_all(lg)
        except _store.StoreError as err:
            fail(command, str(err))
        return lg, result
    finally:
        if close:
            store.close()


def read(command: str, db: str) -> League:
    """The league as it is now, the file opened only to read (a read-only file will do)."""
    store, close = _open_for_command(command, db, readonly=True)
    try:
        lg = transaction.load(store)
        if close:
            _checkpoint.read_all(lg)
        return lg
    except _store.StoreError as err:
        fail(command, str(err))
    except sqlite3.DatabaseError as err:
        fail(command, _store.unusable(db, err))
    finally:
        if close:
            store.close()


def tournament_of(command: str, lg: League, number: int | None) -> Tournament:
    """Tournament *number* (the latest: None), or exit 2 saying there is none."""
    try:
        return lg.current(number)
    except ActionRefused as err:
        fail(command, str(err))
