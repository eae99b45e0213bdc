"""The league file: one SQLite database per league, an append-only log of TD actions.

Schema (docs/host.md, "Data model"):

    meta(key PRIMARY KEY, value)        the schema version (written once, at creation)
    events(seq INTEGER PRIMARY KEY AUTOINCREMENT,
           tournament INTEGER NOT NULL,  -- 1, 2, ... (the `new` event opens one)
           at TEXT NOT NULL,             -- when it was recorded (ISO 8601, local offset)
           action TEXT NOT NULL,         -- register, draw, bust, undo, ...
           payload TEXT NOT NULL,        -- JSON: the action and every decision taken
           undoes INTEGER,               -- on an `undo` event: the seq it cancels
           batch INTEGER)                -- the first seq written by the same command
                                         -- (NULL on that first one): one TD action

Triggers refuse UPDATE and DELETE on `events`: the log only grows.  The state of a
tournament is derived by replaying its events (tdhost.league); an undo is a compensating
event, never a deletion.

Crash safety: the database is in WAL mode with synchronous=FULL, and every TD command is
one `BEGIN IMMEDIATE ... COMMIT` transaction that reads the log, decides, and appends its
events.  A process killed between any two writes leaves either the whole command or none
of it.  For the tests, TDHOST_CRASH_AT=N makes the process kill itself (SIGKILL) right
after its N-th write (counting BEGIN, each statement that writes, and COMMIT).  The box
links' store (tdhost.usb.HostStore) counts its writes here too (``count_write``), and
``crash_hook`` -- a function called with the count after each write -- lets an in-process
test stop the host at any write (tests/host/test_live_crash.py raises there).
"""

import json
import os
import signal
import sqlite3

SCHEMA_VERSION = 1

SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament INTEGER NOT NULL,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        undoes INTEGER REFERENCES events(seq),
        batch INTEGER REFERENCES events(seq))""",
    "CREATE INDEX events_tournament ON events (tournament, seq)",
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END""",
]


class StoreError(Exception):
    """The league file cannot be used; str(err) is a sentence."""


class Event:
    __slots__ = ("seq", "tournament", "at", "action", "payload", "undoes", "batch")

    def __init__(self, seq, tournament, at, action, payload, undoes, batch=None):
        self.seq, self.tournament, self.at = seq, tournament, at
        self.action, self.payload, self.undoes = action, payload, undoes
        self.batch = batch if batch is not None else seq  # the TD action it belongs to

    def __repr__(self):
        return "Event(%d, t%d, %s, %s)" % (self.seq, self.tournament, self.action, self.payload)


_writes = 0
crash_hook = None  # tests: called with the write count after each write (module notes)


def _wrote():
    """Count a write; kill this process after the TDHOST_CRASH_AT-th (crash tests)."""
    global _writes
    _writes += 1
    if crash_hook is not None:
        crash_hook(_writes)
    at = os.environ.get("TDHOST_CRASH_AT")
    if at and at.isdigit() and int(at) == _writes:
        os.kill(os.getpid(), signal.SIGKILL)


def count_write():
    """Count a write made to another file of the host (tdhost.usb.HostStore): the crash
    tests stop the host there as well."""
    _wrote()


def reset_write_count():
    global _writes
    _writes = 0


class Store:
    """An open league file."""

    def __init__(self, path, create=False, threads=False):
        """*threads*: the connection may be used from several threads, one at a time (the
        caller serialises: tdhost serve's lock around the live night and the web)."""
        self.path = path
        exists = os.path.exists(path)
        if not exists and not create:
            raise StoreError("%s does not exist: start a league with "
                             "`tdhost new FILE.toml --db %s`." % (path, path))
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=10,
                                      check_same_thread=not threads)
        except sqlite3.Error as err:
            raise StoreError("%s cannot be opened: %s." % (path, err))
        try:
            self.db.execute("PRAGMA busy_timeout = 10000")
            if self.db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.db.execute("PRAGMA journal_mode = WAL")
                _wrote()
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA foreign_keys = ON")
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            self.db.close()
            raise StoreError("%s is not a tdhost league file: %s." % (path, err))
        if "events" not in tables:
            if tables - {"sqlite_sequence"}:
                self.db.close()
                raise StoreError("%s is an SQLite file of another program (tables: %s)."
                                 % (path, ", ".join(sorted(tables))))
            if not create:
                self.db.close()
                raise StoreError("%s holds no league yet: start one with `tdhost new "
                                 "FILE.toml --db %s`." % (path, path))
            self._create()
        else:
            v = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if v is None or int(v[0]) != SCHEMA_VERSION:
                self.db.close()
                raise StoreError("%s has schema version %s; this tdhost reads version %d."
                                 % (path, v[0] if v else "?", SCHEMA_VERSION))

    def _create(self):
        self.db.execute("BEGIN IMMEDIATE")
        _wrote()
        try:
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "events" not in tables:  # another process may have created it meanwhile
                for stmt in SCHEMA:
                    self.db.execute(stmt)
                    _wrote()
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                _wrote()
            self.db.execute("COMMIT")
            _wrote()
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def close(self):
        self.db.close()

    # --------------------------------------------------------------------- reading
    def events(self, after=0):
        """The log's events (store.Event), in order; only those after seq *after*."""
        rows = self.db.execute("SELECT seq, tournament, at, action, payload, undoes, batch "
                               "FROM events WHERE seq > ? ORDER BY seq", (after,))
        return [Event(s, t, a, ac, json.loads(p), u, b) for s, t, a, ac, p, u, b in rows]

    def meta(self, key):
        r = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return r[0] if r else None

    # --------------------------------------------------------------------- writing
    def write(self, decide, read=True):
        """One TD command: BEGIN IMMEDIATE, ``decide(events)`` returns the events to
        append [(tournament, at, action, payload, undoes)] and a result; they are appended
        and committed together (one batch).  An exception from *decide* writes nothing.
        *read* False: *decide* gets None and reads what it needs itself (inside the
        transaction: tdhost.logcache)."""
        self.db.execute("BEGIN IMMEDIATE")
        _wrote()
        try:
            new, result = decide(self.events() if read else None)
            seqs = []
            for tournament, at, action, payload, undoes in new:
                cur = self.db.execute(
                    "INSERT INTO events (tournament, at, action, payload, undoes, batch) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (tournament, at, action, json.dumps(payload, sort_keys=True), undoes,
                     seqs[0] if seqs else None))
                seqs.append(cur.lastrowid)
                _wrote()
            self.db.execute("COMMIT")
            _wrote()
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        return seqs, result
