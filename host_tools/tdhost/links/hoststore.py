"""The links' record in SQLite: the host's boot counter and every box event once, pending
for its consumer until that one is done with it (docs/protocol.md "Exactly-once over USB";
a host crash in between: docs/host.md §10.3).
"""

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from tdhost.clocks import unix_ms
from tdhost.links.wire_messages import BoxEvent

ENVELOPE = ("kind", "v", "from", "to", "boot", "seq")  # not kept with an event's body


class HostStore:
    """The host's link state: its boot counter and every box event it has applied, keyed
    by (box, id), with its ``scope`` (one string per tournament: Live's) and whether its
    consumer is ``done`` with it.  An event stored without a scope is done at once."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER)")
        self.db.execute("CREATE TABLE IF NOT EXISTS events (box TEXT, id TEXT, what TEXT,"
                        " body TEXT, at INTEGER, PRIMARY KEY (box, id))")
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(events)")}
        if "scope" not in cols:  # a store from before: its events count as done
            self.db.execute("ALTER TABLE events ADD COLUMN scope TEXT")
            self.db.execute("ALTER TABLE events ADD COLUMN done INTEGER NOT NULL DEFAULT 1")
        self.db.execute("CREATE INDEX IF NOT EXISTS events_pending ON events (box, done)")
        self.db.commit()

    def _commit(self) -> None:
        self.db.commit()

    def next_boot(self) -> int:
        """The boot counter, moved on by one and kept."""
        row = self.db.execute("SELECT v FROM meta WHERE k = 'boot'").fetchone()
        boot = (row[0] if row else 0) + 1
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('boot', ?)", (boot,))
        self._commit()
        return int(boot)

    def add_event(self, box: str, msg: BoxEvent, scope: str | None = None) -> bool:
        """Keep the event *msg* of *box*; False when it was there already.
        With a *scope* it is pending for that scope's consumer until
        ``done``; without, done at once."""
        body = {k: v for k, v in msg.items() if k not in ENVELOPE}
        cur = self.db.execute("INSERT OR IGNORE INTO events (box, id, what, body, at, scope, "
                              "done) VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (box, msg["id"], msg["what"], json.dumps(body, sort_keys=True),
                               unix_ms(), scope, 0 if scope else 1))
        self._commit()
        return cur.rowcount == 1

    def events(self, box: str | None = None) -> list[dict[str, Any]]:
        """The events kept, in the order they came: dicts with "box"."""
        q = "SELECT box, body FROM events"
        args: tuple[str, ...] = ()
        if box is not None:
            q += " WHERE box = ?"
            args = (box,)
        out = []
        for b, body in self.db.execute(q + " ORDER BY rowid", args):
            d = json.loads(body)
            d["box"] = b
            out.append(d)
        return out

    def pending(self, box: str, scope: str) -> list[BoxEvent]:
        """The events of *box* stored for *scope* and not ``done``, in the
        order they came, as messages (with "from")."""
        out = []
        for body, in self.db.execute("SELECT body FROM events WHERE box = ? AND done = 0 AND "
                                     "scope = ? ORDER BY rowid", (box, scope)):
            d = json.loads(body)
            d["from"] = box
            out.append(d)
        return out

    def done(self, box: str, ids: Iterable[str]) -> None:
        """The consumer is done with these events of *box* (its effect is kept
        elsewhere): they are no longer ``pending``."""
        ids = list(ids)
        if not ids:
            return
        cur = self.db.execute("UPDATE events SET done = 1 WHERE box = ? AND done = 0 AND id IN "
                              "(%s)" % ", ".join("?" * len(ids)), [box] + ids)
        if cur.rowcount:
            self._commit()
        else:
            self.db.rollback()

    def close(self) -> None:
        self.db.close()
