"""The Wi-Fi notes the TD must see in plain words: logins the broker refused and boxes to
pair again, the same words twice counted as one (docs/mqtt.md, "Threats"; the console's
Wi-Fi card, docs/web.md §4).  The broker's thread and the host's both add: a lock guards
them; ``rev`` counts changes.  A user name is the network's: it is shown escaped
and cut short (tdhost.safetext.shortened)."""

import threading
from collections.abc import Callable

from tdhost.clocks import unix_ms
from tdhost.links.wire_messages import Note
from tdhost.safetext import printable, shortened

SHOWN = 5  # notes in the snapshot (the newest)
KEPT = 50  # notes kept (the oldest go)


class WifiNotes:
    """The night's Wi-Fi notes: ``view()`` gives the newest first."""

    def __init__(self, tables: dict[str, int] | None = None,
                 clock: Callable[[], int] | None = None) -> None:
        self.tables = dict(tables or {})  # box id -> table, to say "table 4's box"
        self.clock = clock or unix_ms
        self.rev = 0
        self._lock = threading.Lock()
        self._notes: dict[str, list[int]] = {}  # text -> [at_ms, times], oldest first

    def who(self, user: str | None) -> str:
        """A login's owner in words: "table 4's box", "the host", "box tc-09"."""
        if user == "host" or (user or "").startswith("tdhost-"):
            return "the host"
        table = self.tables.get(user or "")
        if table:
            return "table %s's box" % table
        return "box %s" % shortened(user)

    def refused(self, why: str, user: str | None = None, client_id: str | None = None,
                address: str | None = None) -> None:
        """A login the broker refused.  *why*: ``anonymous`` (no user name), ``unknown``
        (a user no paired box has), ``password``, ``client_id`` (a login claiming
        another's id) or ``login`` (Mosquitto: one of the first three)."""
        at = " from %s" % address if address else ""
        if why == "anonymous":
            text = "Refused: a login without a name%s (only paired boxes may log in)" % at
        elif why == "unknown":
            text = ("Refused: a login as an unknown box%s (a box paired before each box had"
                    " its own login must be paired again: tdhost pair)" % at)
        elif why == "password":
            text = "Refused: a login for %s with a wrong password%s" % (self.who(user), at)
        elif why == "client_id":
            text = "Refused: %s's login%s posing as %s" % (
                self.who(user), at, self.who(client_id))
        else:
            text = ("Refused: a login%s without a name, as an unknown box or with a wrong"
                    " password" % at)
        self.add(text)

    def pair_again(self, box: str, table: int | None = None) -> None:
        """A box paired before each box had its own key: it must be paired again."""
        table = table or self.tables.get(box)
        who = ("Table %s's box" % table) if table else "Box %s" % box
        self.add("%s was paired before each box had its own key: pair it again (tdhost pair"
                 " PORT --table %s --key-file ... --wifi-ssid ...)" % (who, table or "N"))

    def add(self, text: str) -> None:
        """One note (the same text again: counted and moved to the top), one line."""
        text = printable(text)
        with self._lock:
            old = self._notes.pop(text, None)
            if old is None and len(self._notes) >= KEPT:
                self._notes.pop(next(iter(self._notes)))
            self._notes[text] = [self.clock(), (old[1] if old else 0) + 1]
            self.rev += 1

    def view(self, n: int = SHOWN) -> list[Note]:
        """The newest *n* notes, newest first."""
        with self._lock:
            items = list(self._notes.items())[-n:] if n else []
        return [{"text": t, "at_ms": v[0], "times": v[1]} for t, v in reversed(items)]
